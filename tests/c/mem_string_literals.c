// String literals: symbolic index into a literal, copying a literal, and a write to a
// literal (read-only memory).
// Reasoning: i in [0, 8): s[i] == 'b' only for i == 3 (2 ways). On the i == 3 path, mode
// == 1 writes into the literal: a read_only error (KLEE's "object read only"); the other
// mode value completes. i != 3 side: mode 1 also writes: error at the same line (one
// report, 2 error paths). Completed: 2, error paths: 2.
// expect-completed: 2
// expect-error-paths: 2
#include <string.h>
#include "klee/klee.h"

int main(void) {
    const char *s = "symbolic";
    char buf[9];
    memcpy(buf, s, 9);
    klee_assert(buf[8] == 0);
    klee_assert(buf[0] == 's');
    int i = klee_range(0, 8, "i");
    int mode = klee_range(0, 2, "mode");
    int r = 0;
    if (s[i] == 'b')
        r = 1;
    if (mode == 1)
        ((char *)s)[0] = 'S'; // expect-error: read_only
    return r;
}
