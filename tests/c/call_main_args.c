// main receives argc and argv from the command line (program-args); argv[argc] is NULL.
// Reasoning: the checks on the concrete arguments hold; one branch on a symbolic byte
// compared with an argument character: 2 paths.
// program-args: a bc def
// expect-completed: 2
// expect-error-paths: 0
#include <stddef.h>
#include "klee/klee.h"

int main(int argc, char **argv) {
    klee_assert(argc == 4);
    klee_assert(argv[1][0] == 'a');
    klee_assert(argv[1][1] == 0);
    klee_assert(argv[2][1] == 'c');
    klee_assert(argv[3][2] == 'f');
    klee_assert(argv[4] == NULL);
    char c;
    klee_make_symbolic(&c, sizeof c, "c");
    if (c == argv[3][1])
        return 1;
    return 0;
}
