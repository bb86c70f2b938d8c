// Seed 003, Fig. 5.3 (spec §4.3): a loop whose trip count is the symbolic size n of the
// buffer, with a break on z == 0; capacity 3, so n ≤ 3 joins the path condition.
//
// fork-lazy: 5 paths: n = 0 (no iteration); the break in the first iteration (n > 0,
// z = 0); and k full iterations for k = 1, 2, 3 (z ≠ 0).
// fork-eager: one path per n in 0..3, and z = 0 or not for n ≥ 1: 1 + 3 * 2 = 7 paths.
// max: n = 3 only: the break or three iterations, 2 paths.
// sm, smopt: the loop is size-dependent (the fork on 0 < n is tainted by n); its paths
// leave it at two exits, the break (1 path) and the loop condition (4 paths: n = 0..3,
// merged into one), so 2 paths. SMOpt's merged condition collapses to
// (n ≤ 0) ∨ (n > 0 ∧ z ≠ 0) (spec §4.4); SM's is the disjunction of the four suffixes.
// sear-args: --capacity=3
// mode fork-lazy: completed_paths == 5; error_paths == 0; symbolic_size.symbolic_size_objects == 1; symbolic_size.capacity_bounded == 1
// mode fork-eager: completed_paths == 7; error_paths == 0; symbolic_size.eager_forks == 3
// mode max: completed_paths == 2; error_paths == 0; symbolic_size.max_concretisations == 1
// mode sm: completed_paths == 2; error_paths == 0; symbolic_size.contexts == 1; symbolic_size.merges == 1; symbolic_size.largest_merge == 4; symbolic_size.single_groups == 1
// mode smopt: completed_paths == 2; error_paths == 0; symbolic_size.merges == 1; symbolic_size.largest_merge == 4; symbolic_size.merged_constraints_ast > 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  size_t n, z;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&z, sizeof z, "z");
  char *p = malloc(n);
  for (unsigned i = 0; i < n; i++) {
    if (z == 0)
      break;
    p[i] = i;
  }
  return 0;
}
