// Seed 003, Fig. 1.8 (spec §5.2): strchr twice on one symbolic-size buffer, capacity 4
// (n + 1 ≤ 4). SMOpt's second merge nests the first one's merged pointer in every select
// (the encoding explosion of Ch. 6); PAT writes each merge as a quantified clause over its
// own bound constant (k1 for the first strchr, k2 for the second, whose reads start at
// s + k1 + 1).
// sear-args: --capacity=4
// mode fork-lazy: error_paths == 0; completed_paths == 13
// mode smopt: error_paths == 0; symbolic_size.merges == 4
// mode pat: error_paths == 0; symbolic_size.pat.pattern_merges >= 2; forall_queries > 0; quantified.quantified_queries > 0
#include <stdlib.h>
#include "klee/klee.h"

static char *my_strchr(char *s, int c) {
  int i = 0;
  while (s[i] != '\0') {
    if (s[i] == c)
      return s + i;
    i++;
  }
  return NULL;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n < 16);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  char *p = s;
  for (int j = 0; j < 2; j++) {
    p = my_strchr(p, 'a');
    if (p != NULL)
      p++;
    else
      break;
  }
  return p != NULL;
}
