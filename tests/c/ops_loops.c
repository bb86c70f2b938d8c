// Loops with a symbolic trip count: for, while with break, do-while.
// Reasoning: n in [0, 5): the for loop's test i < n forks at each iteration until it is
// decided, giving one path per value of n: 5. The while loop then runs to a concrete bound
// (i == sum is concrete per path, so the break condition is decided): no fork. The do-while
// runs on concrete values. 5 paths.
// expect-completed: 5
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int n = klee_range(0, 5, "n");
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += i;
    int j = 0;
    while (1) {
        if (j >= sum)
            break;
        j++;
    }
    int k = 0;
    do {
        k += 2;
    } while (k < j);
    klee_assert(sum == n * (n - 1) / 2);
    klee_assert(j == sum);
    return k;
}
