// realloc of a pointer that may point to any of three heap objects (or be NULL): one path
// per object, each copying that object's contents, as KLEE's exact resolution does; plus
// one for NULL (realloc acts as malloc).
// Reasoning: i in [0, 4): bufs[i] is one of three buffers or NULL. Each of the 4 targets is
// a path; the copy keeps the first byte ('a' + i) of the old buffer: assert holds. No error.
// expect-completed: 4
// expect-error-paths: 0
#include <assert.h>
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    char *bufs[4];
    for (int k = 0; k < 3; k++) {
        bufs[k] = malloc(4);
        bufs[k][0] = 'a' + k;
    }
    bufs[3] = NULL;
    unsigned i = klee_range(0, 4, "i");
    char *q = realloc(bufs[i], 16);
    if (i < 3)
        assert(q[0] == 'a' + i);
    q[15] = 1;
    return q[15];
}
