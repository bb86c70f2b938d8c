/* 001 §11 T9: selection sort over symbolic ints, then assert sortedness.
 * SIZE = number of elements N (the spec uses 3..5). Expected: N! paths, no assertion failure. */
#include "../bench.h"

int main(void) {
    int a[SIZE];
    klee_make_symbolic(a, sizeof a, "a");
    for (int i = 0; i < SIZE - 1; i++) {
        int m = i;
        for (int j = i + 1; j < SIZE; j++)
            if (a[j] < a[m])
                m = j;
        int t = a[i];
        a[i] = a[m];
        a[m] = t;
    }
    for (int i = 0; i + 1 < SIZE; i++)
        klee_assert(a[i] <= a[i + 1]);
    return 0;
}
