/* 001 §2.2 / §11 T1: the CEGAR refinement example R_I(a, i) > 10 with a = {0, 0, 0, 11}.
 * SIZE = length of the int array (SIZE = 4 is the paper's); the last element is 11.
 * Expected: 2 paths; the bug path has i = SIZE - 1. */
#include "../bench.h"

int main(void) {
    int a[SIZE] = {0};
    a[SIZE - 1] = 11;
    int i;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_assume(i >= 0);
    klee_assume(i <= SIZE - 1);
    if (a[i] > 10)
        return 1; /* bug(): reachable only with i == SIZE - 1 */
    return 0;
}
