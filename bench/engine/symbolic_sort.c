/* Symbolic-heavy benchmark: insertion sort of N symbolic bytes (N! paths are pruned by
   the comparisons; every path is feasible). */
#include "klee/klee.h"
#ifndef N
#define N 6
#endif
int main(void) {
    unsigned char a[N];
    klee_make_symbolic(a, sizeof a, "a");
    for (int i = 1; i < N; i++) {
        unsigned char x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
    return a[0];
}
