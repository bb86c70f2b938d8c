// Writes at symbolic offsets followed by reads at concrete offsets (and vice versa).
// Reasoning: i < 8 and j < 8 stay in bounds. After buf[i] = 1 and buf[j] = 2, buf[3]
// is 2 if j == 3, else 1 if i == 3, else 0: the branches buf[3] == 2 (2 ways), then on
// the false side buf[3] == 1 (2 ways): 3 paths. The sum stays 3 or 2 (i == j): checked
// with asserts that hold.
// expect-completed: 3
// expect-error-paths: 0
// expect-exits: 0 1 2
#include "klee/klee.h"

int main(void) {
    char buf[8] = {0};
    unsigned i, j;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_assume(i < 8);
    klee_assume(j < 8);
    buf[i] = 1;
    buf[j] = 2;
    int sum = 0;
    for (int k = 0; k < 8; k++)
        sum += buf[k];
    klee_assert((sum == 3) | ((sum == 2) & (i == j)));
    klee_assert(buf[j] == 2);
    if (buf[3] == 2)
        return 2;
    if (buf[3] == 1)
        return 1;
    return 0;
}
