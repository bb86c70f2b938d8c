// A driver shaped like libosip 5.2.0's osip_uri_parse_params (Table 5.1: input '', size
// 1): the first parameter's '=' and the next ';' are searched from params + 1, one byte
// past the terminating NUL of an empty input (the '=' search through a helper that stops
// at the next ';', as libosip's next_separator does). The input is a string of symbolic
// length 1 <= n <= 6 (a NUL in its last byte, earlier NULs allowed); the over-read needs
// n = 1. libosip 5.2.1 fixed it by rejecting input that does not start with ';'.
//
// max: n = 6, never that short: the bug is missed. fork-eager, fork-lazy, sm, smopt
// explore n = 1 and find it (concretize too: it happens to fix n = 1).
// sear-args: --capacity=8
// mode max: errors == 0
// mode fork-eager: error-in strchr ptr
// mode fork-lazy: error-in strchr ptr
// mode sm: error-in strchr ptr
// mode smopt: error-in strchr ptr
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

static const char *next_separator(const char *ch, int to_find, int before) {
  const char *found = strchr(ch, to_find);
  if (found == NULL)
    return NULL;
  const char *stop = strchr(ch, before);
  if (stop != NULL && stop < found)
    return NULL;
  return found;
}

static int uri_parse_params(const char *params) {
  const char *equal = next_separator(params + 1, '=', ';');
  const char *comma = strchr(params + 1, ';');
  int count = 0;
  while (comma != NULL) {
    if (equal == NULL || equal > comma)
      equal = comma;
    count++;
    params = comma;
    equal = next_separator(params + 1, '=', ';');
    comma = strchr(params + 1, ';');
  }
  return count;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= 6);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = '\0';
  return uri_parse_params(s) > 0;
}
