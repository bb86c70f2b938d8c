// An object above 1 GiB is used at constant offsets only: an access at a symbolic offset
// would need an array of all its bytes, so it ends the path with an `exec` error naming the
// size (KLEE refuses symbolic accesses to objects above 4 GiB the same way), and making it
// symbolic whole is a `user` error. Constant offsets above 4 GiB are exact.
// Reasoning: the constant-offset read of p[2^32] is 7 (no error); k < 100 forks: the
// symbolic read ends its path (exec error), k >= 100 reaches klee_make_symbolic (user error).
// expect-completed: 0
// expect-error-paths: 2
// expect-replay: no
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
    size_t sz = ((size_t)1 << 32) + 16;
    char *p = malloc(sz);
    p[(size_t)1 << 32] = 7;
    if (p[(size_t)1 << 32] != 7 || p[0] != p[16])
        return 3;
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    if (k < 100 && p[k] == 3) // expect-error: exec
        return 1;
    klee_make_symbolic(p, sz, "p"); // expect-error: user
    return 0;
}
