// Loop-iteration merging when one side of a fork reads an input the other does not (as
// sv-benchmarks' array_mul_init: `if (nondet()) { k = nondet(); a[i] = k; }`): the input
// joins the merged path guarded by its side's condition, and a test holds it only where
// its model is on that side, so every test replays natively in the order the program
// reads its inputs. The error after the loop needs the new input of iteration 2 (the
// replay of its test checks the guarded objects).
// Reasoning: 4 iterations forking on a fresh input each; with merging every iteration
// ends as one path (paths_merged == 4) and the check after the loop forks once: one error
// path, one completed path. Without merging: 2^4 paths, the 8 with a[2] taken from k split
// on k == 42.
// run: --merge-loop-iterations ;; ;; 1
// run: ;; ;; 16
// expect-summary: loop_iteration_merging.paths_merged == 4 if --merge-loop-iterations
#include "klee/klee.h"

int main(void) {
  int a[4];
  for (int i = 0; i < 4; i++) {
    a[i] = i;
    if (klee_int("c")) {
      int k = klee_int("k");
      a[i] = k;
    }
  }
  if (a[2] == 42)
    klee_assert(0); // expect-error: assert
  return 0;
}
