// Loop-iteration merging must not change which errors are found: the same program with
// and without --merge-loop-iterations reports the same errors. An error inside an
// iteration (on one side of its fork) ends that path; its sibling still arrives at the
// header alone. An error after the loop needs one combination of the merged sides (every
// c[i] set, which makes sum 8): the merged path's condition and its ite values keep it.
// Reasoning: 8 iterations, each forking on c[i]; iteration 3 also has an error when
// c[3] == 7 (a div by zero). Without merging: 256 combinations, less the assert's one
// (255 completed paths), and the div error on every path that had c[3] == 7. With merging:
// the div error ends one path inside iteration 3, its sibling goes on alone; every
// iteration ends in one path, and the final fork on sum == 8 gives one error path and one
// completed path.
// run: --merge-loop-iterations ;; ;; 1
// run: ;; ;; 255
// expect-summary: errors == 2
#include "klee/klee.h"

int main(void) {
  int c[8];
  klee_make_symbolic(c, sizeof c, "c");
  int sum = 0;
  int q = 1;
  for (int i = 0; i < 8; i++) {
    if (c[i] > 0) {
      sum += 1;
      if (i == 3 && c[i] == 7)
        q = 100 / (c[i] - 7); // expect-error: div
    }
  }
  if (sum == 8)
    klee_assert(0); // expect-error: assert
  return q;
}
