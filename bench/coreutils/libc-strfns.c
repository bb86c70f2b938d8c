/* bench/coreutils/libc-compare.sh: one libc routine (FN = 1..6) on an 8-byte symbolic string,
 * under sear with its own runtime or with musl's bitcode linked first. */
#include <string.h>
#include <stdlib.h>
#include "klee/klee.h"
/* 7 free bytes and a NUL. */
int main(void) {
  char s[8], t[8];
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(t, sizeof t, "t");
  s[7] = 0; t[7] = 0;
#if FN == 1
  return strlen(s) == 3;
#elif FN == 2
  return strchr(s, 'x') != 0;
#elif FN == 3
  return memchr(s, 'x', 7) != 0;
#elif FN == 4
  return strcmp(s, t) < 0;
#elif FN == 5
  return strtol(s, 0, 10) > 100;
#elif FN == 6
  return strspn(s, "abc") == 2;
#endif
}
