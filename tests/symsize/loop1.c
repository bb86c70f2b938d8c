// The thesis artifact's test/SymbolicSize/loop1.c (spec §4.5): n ≤ 2, malloc(n), a fill
// loop. The capacity (200) does not bound n further.
//
// fork-lazy: one path per trip count, n = 0, 1, 2: 3 paths. fork-eager: the same 3 paths,
// forked at the allocation. max: n = 2 only.
// sm, smopt: the three paths leave the loop at its condition and are merged into one
// ("merged 3 states" in the artifact); every path of the tree is in the group, so SMOpt's
// merged condition is `true` (no constraint added) while SM's is the disjunction.
// sear-args: --capacity=200
// mode fork-lazy: completed_paths == 3; error_paths == 0; symbolic_size.capacity_bounded == 0
// mode fork-eager: completed_paths == 3; error_paths == 0; symbolic_size.eager_forks == 2
// mode max: completed_paths == 1
// mode sm: completed_paths == 1; symbolic_size.largest_merge == 3; symbolic_size.merged_states == 2; symbolic_size.merged_constraints_ast > 0
// mode smopt: completed_paths == 1; symbolic_size.largest_merge == 3; symbolic_size.merged_constraints_ast == 0
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof(n), "n");
  klee_assume(n <= 2);
  unsigned char *p = malloc(n);
  for (unsigned i = 0; i < n; i++)
    p[i] = 7;
  return 0;
}
