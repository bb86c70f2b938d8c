/* sear coverage: exact line and branch counts (crates/sear-cli/tests/coverage.rs).
 * x is symbolic; classify has three feasible outcomes and one dead branch: x > 10 and x < 5
 * cannot both hold, so the line calling never() and never()'s lines are never executed, and
 * the condition's "true" branch is never taken. */
#include "klee/klee.h"

static int never(void) {
  return 42;
}

static int classify(int x) {
  int r = 0;
  if (x > 10) {
    r = 1;
    if (x < 5)
      r = never();
  } else if (x < 0) {
    r = 2;
  }
  return r;
}

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  return classify(x);
}
