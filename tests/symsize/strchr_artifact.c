// The PAT artifact's README example (spec §5.2): length ∈ [1, 4], a symbolic string of that
// length with a NUL in its last byte, then strchr(str, 'a') (sear's runtime strchr).
//
// fork-lazy: 7 paths: 'a' first found at index 0..2 (3 paths, bounded by the length), or
// no 'a' before the NUL at length − 1 = 0..3 (4 paths).
// smopt: the loop's paths leave it at two exits (found, not found), one merged state each.
// pat: "the state merging operation results in two merged symbolic states": each exit's
// leaves (found after k non-'a' bytes; the NUL after k bytes) form one regular partition
// merged with a quantified path condition `∀i. 1 ≤ i ≤ k → str[i−1] ≠ 'a' ∧ str[i−1] ≠ 0`
// (one leaf, a path that the NUL store ends differently, stays outside), and the queries
// written by --log-queries hold the quantified clauses.
// sear-args: --capacity=4
// mode fork-lazy: completed_paths == 7; error_paths == 0
// mode smopt: completed_paths == 2; symbolic_size.merges == 2
// mode pat: symbolic_size.pat.pattern_merges == 2; symbolic_size.pat.pattern_leaves == 6; forall_queries > 0; quantified.quantified_queries > 0
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
  size_t length;
  klee_make_symbolic(&length, sizeof length, "length");
  klee_assume(length >= 1);
  klee_assume(length <= 4);
  char *str = malloc(length);
  klee_make_symbolic(str, length, "str");
  str[length - 1] = 0;
  char *r = strchr(str, 'a');
  return r ? 1 : 0;
}
