// C11 atomics: atomicrmw (fetch_add, exchange, fetch_or) and cmpxchg on symbolic values.
// Reasoning: all results are checked with asserts that hold (no fork); the cmpxchg's
// success depends on x: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdatomic.h>
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    _Atomic int a = 5;
    int old = atomic_fetch_add(&a, x);
    klee_assert(old == 5);
    klee_assert(a == 5 + x);
    old = atomic_exchange(&a, 7);
    klee_assert(old == 5 + x);
    atomic_fetch_or(&a, 8);
    klee_assert(a == 15);
    int expected = x;
    if (atomic_compare_exchange_strong(&a, &expected, 100)) {
        klee_assert(a == 100);
        return 1;
    }
    klee_assert(expected == 15);
    return 0;
}
