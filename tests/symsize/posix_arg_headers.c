// Symbolic-size inputs in the POSIX model (--sym-size-inputs): argv[1] is a string of
// symbolic length 0..4 (object arg00-size, then arg00 of that length plus its NUL). The
// program copies it to the heap (strdup: strlen's loop, a malloc of symbolic size, a copy
// of symbolic length, none concretised in the symbolic-size modes) and scans the copy like
// osip_uri_parse_headers, with strchr(headers + 1, '&'): an over-read when the argument is
// empty (the copy is then 1 byte).
//
// Every mode finds it: with the NUL in the last byte and earlier NULs allowed, a fixed
// length (concretize: 2, max: 4) still holds the empty string, and strdup's copy is exact
// (spec §4.7: this modelling lets Base cover a range of logical lengths). The merging
// modes merge strlen's and strchr's loops.
// sear-args: --capacity=8 --sym-arg 4 --sym-size-inputs
// mode concretize: error-in strchr ptr
// mode max: error-in strchr ptr
// mode fork-eager: error-in strchr ptr
// mode fork-lazy: error-in strchr ptr
// mode sm: error-in strchr ptr; symbolic_size.merges > 0
// mode smopt: error-in strchr ptr; symbolic_size.merges > 0
#include <stdlib.h>
#include <string.h>

static int uri_parse_headers(const char *headers) {
  const char *equal = strchr(headers, '=');
  const char *and = strchr(headers + 1, '&');
  if (equal == NULL)
    return -1;
  if (and != NULL && and < equal)
    return -1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  char *copy = strdup(argv[1]);
  int r = uri_parse_headers(copy);
  free(copy);
  return r == 0 ? 0 : 1;
}
