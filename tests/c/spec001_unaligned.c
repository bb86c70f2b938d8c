// 001 §11 T8: the unaligned-access trap. An int load at byte 4k + 1 of int a[5] = {0, 0, 0x100,
// 0, 0}: x == 1 only at k == 2, x == 2 never. The load is 4 bytes wide (access size 4) but its
// index has residue 1 mod 4, which type-aware axiom elimination must respect.
// sear-configs: --core-solver=z3 | --core-solver=eager | --core-solver=cegar | --core-solver=cegar --ilp-precheck --validate-precheck | --core-solver=cegar --ilp-precheck --axiom-elim=none --cegar-select=violated --axiom-extras=off | --core-solver=cegar --ilp-precheck --cegar-select=eager | --core-solver=z3 --ilp-precheck --validate-precheck
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

typedef int __attribute__((aligned(1))) unaligned_int;

int main(void) {
    int a[5] = {0, 0, 0x100, 0, 0};
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 3);
    int x = *(const unaligned_int *)((const char *)a + 4 * k + 1);
    if (x == 1)
        klee_assert(k == 2);
    else
        klee_assert(k != 2);
    if (x == 2)
        klee_assert(0);
    return 0;
}
