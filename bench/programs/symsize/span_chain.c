/* Seed 003 Ch. 5 bench (and Ch. 6's running example): memspn, the length of the prefix of
 * a buffer of symbolic size n <= SIZE made of two accepted characters (uClibc's strspn
 * shape), twice: the span of "ab", then of "cd" after it. Each span is a size-dependent
 * loop (i < n). */
#include <stdlib.h>
#include "klee/klee.h"

#ifndef SIZE
#define SIZE 10
#endif

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
  klee_assume(n <= SIZE);
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
