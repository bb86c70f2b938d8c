// Use after free and double free on different paths.
// expect-completed: 1
// expect-error-paths: 2
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    int mode;
    klee_make_symbolic(&mode, sizeof mode, "mode");
    int *p = malloc(sizeof(int) * 4);
    p[0] = 1;
    free(p);
    if (mode == 1)
        return p[0]; // expect-error: ptr
    if (mode == 2)
        free(p); // expect-error: ptr
    return 0;
}
