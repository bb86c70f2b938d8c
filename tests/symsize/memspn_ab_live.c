// Example 6.3.1's memspn with chars = "ab", but p is read at line 5 before it is
// overwritten (`which += p - chars`): the 'a' and 'b' leaves reach line 5 with different
// live values of p, so incremental merging compares their stores and merges nothing
// (the liveness decides, not the place). The paths are those without it.
// sear-args: --capacity=3
// mode fork-lazy: completed_paths == 22
// mode pat: completed_paths == 16
// mode pat+inc: completed_paths == 16; symbolic_size.incremental.merges == 0; symbolic_size.incremental.store_mismatches > 0; symbolic_size.incremental.snapshots > 0
#include <stdlib.h>
#include "klee/klee.h"

int memspn(char *s, size_t n, char *chars, int *which) {
  char *p = chars;
  int count = 0;
  while (*p && count < n) {
    if (*p == s[count]) {
      *which += p - chars;
      count++;
      p = chars;
    } else
      p++;
  }
  return count;
}

int main(void) {
  size_t n;
  int which = 0;
  klee_make_symbolic(&n, sizeof n, "n");
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  int c = memspn(s, n, "ab", &which);
  if (c == 2 && which == 1)
    return 1;
  return 0;
}
