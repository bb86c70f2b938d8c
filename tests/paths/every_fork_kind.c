// Forks of several kinds (a symbolic pointer inside memcpy, branches, a switch, a division
// check): crates/sear-cli/tests/paths.rs records every path with --write-paths and follows
// each record with --replay-path.
#include "klee/klee.h"
#include <string.h>
int a[4], b[4];
int main(void) {
    int x = klee_int("x");
    int *ptrs[2] = {a, b};
    int dst[4];
    memcpy(dst, ptrs[x & 1], sizeof dst);
    if (x > 100) {
        if (x < 200) return 1;
        switch (x & 3) { case 0: return 2; case 1: return 3; default: return 4; }
    }
    return 100 / (x + 5);
}
