// argv and its strings belong to the environment: freeing them is a `free` error ("free of
// global", KLEE's words), whether the engine made them or the POSIX model built them for
// --sym-args (it marks them with klee_mark_global).
// Reasoning: klee_range picks one of three frees: three paths, each ending with a free
// error; none completes.
// program-args: --sym-args 1 1 1
// expect-completed: 0
// expect-error-paths: 3
// expect-errors: free free free
// expect-replay: strict
#include <stdlib.h>
#include "klee/klee.h"

int main(int argc, char **argv) {
    switch (klee_range(0, 3, "which")) {
    case 0:
        free(argv);
        break;
    case 1:
        free(argv[0]);
        break;
    default:
        free(argv[1]);
        break;
    }
    return argc;
}
