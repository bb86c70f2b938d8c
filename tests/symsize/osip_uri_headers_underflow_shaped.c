// A driver shaped like libosip 5.2.0's osip_uri_parse_headers on input '=' (Table 5.1:
// sizes >= 2, the integer underflow): the header name is copied with
// osip_strncpy(hname, headers + 1, equal - headers - 1) into hname = malloc(equal -
// headers); when the '=' is the first character the length is (size_t)-1 and the copy
// writes past the empty hname. The input is a string of symbolic length 2 <= n <= 6 (a NUL
// in its last byte, earlier NULs allowed; n = 1 is the '' over-read of
// osip_uri_headers_shaped.c). Every length of the range has the bug, so every mode finds
// it, max and concretize included (the thesis's range "≥ 2"). libosip 5.2.1 fixed it by
// rejecting input that does not start with '?'.
//
// A regression test too: with sm and smopt, the merged pointer of strncpy's writes into
// the empty hname must be out of bounds, and the path used to go on under an unsatisfiable
// path condition (covering 3 instructions more than fork-eager, and an error path without
// a test); the resolution now ends it with the error (memory::model::fork_over). The
// harness checks that sm and smopt cover what fork-eager and fork-lazy cover.
// sear-args: --capacity=8
// mode concretize: error-in strncpy ptr
// mode max: error-in strncpy ptr
// mode fork-eager: error-in strncpy ptr
// mode fork-lazy: error-in strncpy ptr; completed_paths == 46
// mode sm: error-in strncpy ptr; completed_paths == 5
// mode smopt: error-in strncpy ptr; completed_paths == 5
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

static char *copy_name(const char *src, size_t length) {
  char *dest = malloc(length + 1);
  strncpy(dest, src, length);
  dest[length] = '\0';
  return dest;
}

static int uri_parse_headers(const char *headers) {
  const char *equal = strchr(headers, '=');
  const char *and = strchr(headers + 1, '&');
  if (equal == NULL)
    return -1;
  if (and != NULL && and < equal)
    return -1;
  char *hname = copy_name(headers + 1, equal - headers - 1);
  int ok = hname[0] != '\0';
  free(hname);
  return ok;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 2);
  klee_assume(n <= 6);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = '\0';
  return uri_parse_headers(s) == 1;
}
