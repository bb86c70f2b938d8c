/* 000 §7 T3, T4, T7, T8: value-based, index-based, nested and solver-free lookups into small
 * constant char tables. SIZE = number of rounds; each round takes a fresh symbolic index per
 * table, so paths grow geometrically with SIZE. */
#include "../bench.h"

static const char A3[7] = {0, 0, 2, 2, 0, 0, 3};  /* T3 */
static const char A4[7] = {0, 0, 3, 3, 0, 0, 4};  /* T4 */
static const char A7[5] = {1, 2, 7, -4, 5};       /* T7 outer */
static const char B7[5] = {0, 3, 4, 1, 2};        /* T7 inner */
static const char A8[5] = {0, 1, 0, 1, 0};        /* T8 */

int main(void) {
    int score = 0;
    for (int r = 0; r < SIZE; r++) {
        unsigned char v, w, k, m;
        klee_make_symbolic(&v, 1, "v");
        klee_make_symbolic(&w, 1, "w");
        klee_make_symbolic(&k, 1, "k");
        klee_make_symbolic(&m, 1, "m");
        klee_assume(v < 7);
        klee_assume(w < 7);
        klee_assume(k < 5);
        klee_assume(m < 5);
        char x = A3[v];              /* T3: value-based target */
        if (x == 2)                  /* feasible for 2 <= v <= 3 */
            score += 1;
        if (A4[w] < 3)               /* T4: 0 <= w <= 1 or 4 <= w <= 5 */
            score += 2;
        if (A7[B7[k]] == 7)          /* T7: only k == 4 */
            score += 4;
        if (A8[m] == 0) {            /* T8: m in {0, 2, 4} */
            if (!(m == 0 | m == 2 | m == 4))
                klee_assert(0);
            score += 8;
        }
        if (A8[m] == 9)              /* T8: infeasible for every m */
            klee_assert(0);
    }
    return score;
}
