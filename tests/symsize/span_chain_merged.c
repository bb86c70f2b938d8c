// Two size-dependent loops in a row (memspn of "ab", then of "cd" after it; n ≤ 3): the
// second loop runs on the values the first loop's merge produced. Its forks read those
// merged values, written differently by SM (ite over the paths' suffixes) and SMOpt (ite
// over the execution tree's conditions); the input bytes of the first loop's fork
// conditions are tainted at the merge, so both open the same contexts and end the same 4
// paths (spec §4.7: SM and SMOpt explore identical path counts).
//
// fork-lazy: 66 paths. sm, smopt: the first loop's paths merge per exit (all accepted,
// or a break), the second's likewise: 4 paths, every exit status of fork-lazy's reached.
// sear-args: --capacity=8
// mode fork-lazy: completed_paths == 66
// mode sm: completed_paths == 4; symbolic_size.contexts == 2; symbolic_size.merges == 4
// mode smopt: completed_paths == 4; symbolic_size.contexts == 2; symbolic_size.merges == 4
// mode smopt+inc: completed_paths == 4; symbolic_size.incremental.merges > 0
#include <stdlib.h>
#include "klee/klee.h"

static size_t memspn(const char *s, size_t n, const char *accept) {
  size_t i = 0;
  for (; i < n; i++) {
    if (s[i] != accept[0] && s[i] != accept[1])
      break;
  }
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 3);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  size_t a = memspn(s, n, "ab");
  size_t c = memspn(s + a, n - a, "cd");
  if (a + c == n)
    return 1;
  if (a > c)
    return 2;
  return 0;
}
