// Loop-iteration merging (--merge-loop-iterations): a loop of 200 iterations forks once per
// element on a symbolic input, and each side writes the element differently (a[i] = k or
// a[i] = i, as sv-benchmarks' array_mul_init). The two paths of each iteration meet at the
// loop's header and become one (a[i] = ite(c_i, k_i, i)); the fork's complete subtree
// collapses, so the path condition does not grow. The check after the loop holds for
// every element (b[i] is a[i] squared on the written side, i squared on the other), so
// the one merged path completes and no error is reported.
// Reasoning: without merging this is 2^200 paths; with it, 200 iterations each merge 2
// paths into 1 (paths_merged == 200) and one path completes. The check loop forks too
// (a[i] == b[i] || b[i] == a[i] * a[i]): its two sides meet at the header as well.
// sear-args: --merge-loop-iterations
// expect-completed: 1
// expect-summary: loop_iteration_merging.iterations_merged >= 200
// expect-summary: loop_iteration_merging.paths_merged >= 200
// expect-summary: loop_iteration_merging.released_unmerged == 0
#include "klee/klee.h"

#define N 200

int main(void) {
  int a[N], b[N];
  int c[N], k[N];
  klee_make_symbolic(c, sizeof c, "c");
  klee_make_symbolic(k, sizeof k, "k");
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = i;
  }
  for (int i = 0; i < N; i++) {
    if (c[i]) {
      a[i] = k[i] & 0xff;
      b[i] = (k[i] & 0xff) * (k[i] & 0xff);
    }
  }
  for (int i = 0; i < N; i++)
    klee_assert(a[i] == b[i] || b[i] == a[i] * a[i]);
  return 0;
}
