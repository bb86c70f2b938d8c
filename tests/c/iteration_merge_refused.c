// Loop-iteration merging refuses paths it cannot merge and lets them go on: here one side
// of each iteration's fork allocates (malloc on one side only, as sv-benchmarks'
// array_of_struct_ptr_cond_init) and the merge of such paths is switched off
// (--merge-iteration-allocations=off), so the two sides hold different objects and are
// never merged; the paths and the error are those of the run without merging. With the
// switch on (the default) the iterations merge, and the same error is found.
// Reasoning: 3 iterations with a fork each: 2^3 = 8 paths, the one that allocated three
// times fails the check; each iteration's refusal is counted (1 + 2 + 4 = 7 refusals).
// run: --merge-loop-iterations --merge-iteration-allocations=off ;; ;; 7
// run: ;; ;; 7
// run: --merge-loop-iterations --merge-iteration-allocations=on ;; ;; 7
// expect-summary: errors == 1
// expect-summary: loop_iteration_merging.refused.allocations == 7 if =off
// expect-summary: loop_iteration_merging.paths_merged == 0 if =off
// expect-summary: loop_iteration_merging.one_sided_objects >= 3 if =on
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  int c[3];
  klee_make_symbolic(c, sizeof c, "c");
  int *p[3];
  int allocated = 0;
  for (int i = 0; i < 3; i++) {
    p[i] = 0;
    if (c[i] == 1) {
      p[i] = malloc(sizeof(int));
      allocated++;
    }
  }
  if (allocated == 3)
    klee_assert(0); // expect-error: assert
  for (int i = 0; i < 3; i++)
    free(p[i]);
  return 0;
}
