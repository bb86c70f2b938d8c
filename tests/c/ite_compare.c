// Comparisons of ite trees with constant leaves against constants (--no-ite-compare
// switches it off; sv-benchmarks' standard_password_ground on 200 elements): with
// loop-iteration merging, `result` after the second loop is a chain of 200 ites
// ite(p[i] != g[i], 0, ...) down to 1. `if (result)` compares it with 0, which the builder
// rewrites as the conjunction p[199] == g[199] ∧ ... ∧ p[0] == g[0]; the path that takes it
// stores the conjuncts, and each check p[x] == g[x] of the last loop is then decided by
// the path's facts, without a query.
// Reasoning: both configurations end two completed paths (result true, result false; the
// checks hold); only the rewriting one counts rewrites, and decides the 200 checks by the
// path's facts.
// sear-configs: --merge-loop-iterations --merge-iteration-max-paths=64 | --merge-loop-iterations --no-ite-compare
// expect-completed: 2
// expect-summary: ite_compare.rewritten > 0 if max-paths
// expect-summary: simplification.decided >= 200 if max-paths
// expect-summary: ite_compare.rewritten == 0 if no-ite-compare
#include "klee/klee.h"

#define N 200

int main(void) {
  int password[N];
  int guess[N];
  int result = 1;
  klee_make_symbolic(password, sizeof password, "password");
  klee_make_symbolic(guess, sizeof guess, "guess");
  for (int i = 0; i < N; i++) {
    if (password[i] != guess[i])
      result = 0;
  }
  if (result) {
    for (int x = 0; x < N; x++)
      klee_assert(password[x] == guess[x]);
  }
  return 0;
}
