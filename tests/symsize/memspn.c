// Seed 003, Fig. 6.1 (spec §5.2): memspn, the running example of PAT, with chars = "a",
// a symbolic buffer s of symbolic size n and capacity 3 (so n ≤ 3).
//
// fork-lazy: 7 paths, as the seven leaves of the thesis's tree: the loop ends after k
// matches because s[k] ≠ 'a' (k = 0, 1, 2) or because count reaches n (n = 0..3).
// smopt: the seven paths leave the loop at one exit and merge into one state, whose count
// is an ite chain; the `c == 2` test after the loop forks it: 2 paths.
// pat: the leaves split into regular patterns. sear forks `count < n` as `n ≠ 0` in the
// first iteration (the builder's form of 0 < n) and not at all once count = 3 = max n,
// so two of the seven leaves fall outside the patterns the thesis draws (Table 6.1):
// the partitions are {s[k] ≠ 'a' after k matches: k = 0, 1, 2} and {n = k after k ≥ 1
// matches: k = 1, 2}; each becomes one state with a quantified path condition
// `0 ≤ k ≤ 2 ∧ ∀i. 1 ≤ i ≤ k → s[i−1] = 'a' ∧ i < n ∧ ...` and count ↦ k; the two other
// leaves are merged by SMOpt: 3 states after the loop, 5 paths after `c == 2`.
// Every merge is checked against Theorem 6.2.7, every quantified query solved by the
// procedure against Z3, and the logged queries hold `forall`.
// sear-args: --capacity=3
// mode fork-lazy: completed_paths == 7; error_paths == 0
// mode smopt: completed_paths == 2; symbolic_size.merges == 1; symbolic_size.largest_merge == 7
// mode pat: completed_paths == 5; symbolic_size.pat.pattern_merges == 2; symbolic_size.pat.pattern_leaves == 5; symbolic_size.pat.term_values > 0; symbolic_size.pat.validated_merges == 2; forall_queries > 0; quantified.quantified_queries > 0
#include <stdlib.h>
#include "klee/klee.h"

int memspn(char *s, size_t n, char *chars) {
  char *p = chars;
  int count = 0;
  while (*p && count < n) {
    if (*p == s[count]) {
      count++;
      p = chars;
    } else
      p++;
  }
  return count;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  int c = memspn(s, n, "a");
  if (c == 2)
    return 1;
  return 0;
}
