/* 000 §7 T5 (mixed array {0, 0, s1, s2, 2, 2}) and T9 (a symbolic-index write disables the
 * transformations). SIZE = number of rounds, each with fresh symbolic values. */
#include "../bench.h"

int main(void) {
    int hits = 0;
    for (int r = 0; r < SIZE; r++) {
        int A[6] = {0, 0, 0, 0, 2, 2};
        int s1, s2;
        unsigned char i, j;
        klee_make_symbolic(&s1, 4, "s1");
        klee_make_symbolic(&s2, 4, "s2");
        klee_make_symbolic(&i, 1, "i");
        klee_make_symbolic(&j, 1, "j");
        klee_assume(i < 6);
        klee_assume(j < 6);
        A[2] = s1;                   /* T5: concrete-index writes of symbolic values */
        A[3] = s2;
        if (A[i] == 7)               /* feasible via i = 2, s1 = 7 or i = 3, s2 = 7 */
            hits++;
        int B[6] = {0, 0, 3, 3, 0, 0};
        B[j] = s1;                   /* T9: symbolic-index write */
        if (B[i] > 2)
            hits += 2;
    }
    return hits;
}
