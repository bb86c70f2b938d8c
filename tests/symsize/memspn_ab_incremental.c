// Seed 003, Example 6.3.1 (spec §5.6): memspn (Fig. 6.1) with chars = "ab", capacity 3.
// Every iteration forks on s[count] = 'a' and, when it fails, on s[count] = 'b'; both
// matches reach line 5 (`count++; p = chars;`) with the same store except p, which is
// dead there (line 5 overwrites it), so incremental merging merges the 'b' leaf and the
// 'a' node (or the other way round, whichever ran first) under their common ancestor,
// with the condition `s[i] = 'a' ∨ (¬s[i] = 'a' ∧ s[i] = 'b')`, dropping the node's
// subtree and splicing out the ¬'a' node, whose other child gets `¬'b' ∧ ¬'a'`.
// Without it the tree is exponential: fork-lazy ends 22 paths, PAT finds 10 small
// patterns (13 paths after `c == 2`). With it (DFS) the 'a' side of each iteration is
// explored first, so the merges happen at iterations 2, 1, 2, then 0 (which drops the
// 5 paths below it), then 2, 1, 2 again on the merged path: 7 merges, 15 paths
// subsumed. The tree then has the shape of Fig. 6.2 with the disjunctions, and PAT
// applies as for chars = "a" (memspn.c): 2 pattern merges of 5 leaves (the condition
// hash takes the operands of `∨`/`∧` in any order: the builder orders them differently at
// different iterations), 5 paths. SMOpt merges everything at the exit either way (2
// paths). Same coverage and errors in every mode (the harness checks).
// sear-args: --capacity=3
// mode fork-lazy: completed_paths == 22; error_paths == 0
// mode smopt: completed_paths == 2
// mode smopt+inc: completed_paths == 2; symbolic_size.incremental.merges == 7; symbolic_size.incremental.subsumed_states == 15; symbolic_size.incremental.splices == 7; symbolic_size.incremental.dead_values > 0
// mode pat: completed_paths == 13; symbolic_size.pat.pattern_merges == 10
// mode pat+inc: completed_paths == 5; symbolic_size.incremental.merges == 7; symbolic_size.pat.pattern_merges == 2; symbolic_size.pat.pattern_leaves == 5; symbolic_size.pat.validated_merges == 2; forall_queries > 0
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
  int c = memspn(s, n, "ab");
  if (c == 2)
    return 1;
  return 0;
}
