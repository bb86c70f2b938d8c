// A driver shaped like libosip 5.2.0's osip_uri_parse_headers (Table 5.1: input '', size
// 1): the next header is searched with strchr(headers + 1, '&'), one byte past the
// terminating NUL of an empty input. The input is a string of symbolic length 1 ≤ n ≤ 6
// (a NUL in its last byte, earlier NULs allowed); the over-read needs n = 1.
//
// max: n = 6, never that short: the bug is missed (the thesis: Base misses libosip bugs
// when the capacity is too high or too low). Every mode exploring n = 1 finds it:
// fork-eager, fork-lazy, sm, smopt (and concretize, which happens to fix n = 1). sm and
// smopt merge the scanning loops of strchr: 5 paths instead of fork-lazy's 55.
// sear-args: --capacity=8
// mode max: errors == 0; completed_paths == 55
// mode fork-eager: error-in strchr ptr
// mode fork-lazy: error-in strchr ptr; completed_paths == 55
// mode sm: error-in strchr ptr; completed_paths == 5
// mode smopt: error-in strchr ptr; completed_paths == 5
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

static int uri_parse_headers(const char *headers) {
  const char *equal = strchr(headers, '=');
  const char *and = strchr(headers + 1, '&');
  if (equal == NULL)
    return -1;
  if (and != NULL && and < equal)
    return -1;
  return 0;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= 6);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = '\0';
  return uri_parse_headers(s) == 0;
}
