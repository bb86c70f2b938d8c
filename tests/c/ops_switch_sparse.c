// A sparse switch (including a negative and a large case value) on a symbolic char-derived
// value.
// Reasoning: cases -5, 1, 100, 1000, 1 << 20 and default are feasible for an int: 6 paths.
// expect-completed: 6
// expect-error-paths: 0
#include "klee/klee.h"

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    switch (x) {
    case -5: return 1;
    case 1: return 2;
    case 100: return 3;
    case 1000: return 4;
    case 1 << 20: return 5;
    default: return 0;
    }
}
