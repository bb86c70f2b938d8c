/* Seed 003 Ch. 5 bench: a tokenizer (a one-loop state machine counting words separated by
 * spaces) over a string of symbolic length 1 <= n <= SIZE (a NUL in the last byte, earlier
 * NULs allowed). The loop's condition reads bytes whose position depends on n: a
 * size-dependent loop. */
#include <stdlib.h>
#include "klee/klee.h"

#ifndef SIZE
#define SIZE 10
#endif

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= SIZE);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = '\0';
  unsigned words = 0;
  int in_word = 0;
  for (size_t i = 0; s[i] != '\0'; i++) {
    int space = s[i] == ' ';
    if (!space && !in_word)
      words++;
    in_word = !space;
  }
  if (words == 3)
    return 3;
  if (words > 3)
    return 4;
  return 0;
}
