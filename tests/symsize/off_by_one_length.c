// An over-read that needs an input of at least 5 bytes: s[n] is one past the end of the
// n-byte buffer. Accesses of a symbolic-size object are checked against σ = n, so
// fork-lazy finds it with a replayable test; fork-eager finds it at each n ≥ 5 (one
// report per location); max at n = capacity = 8.
// sear-args: --capacity=8
// mode fork-lazy: errors == 1
// mode fork-eager: errors == 1
// mode max: errors == 1
// mode sm: errors == 1
// mode smopt: errors == 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = 0;
  if (n > 4 && s[0] == 'a')
    /* one past the end */
    return s[n]; // expect-error: ptr
  return 0;
}
