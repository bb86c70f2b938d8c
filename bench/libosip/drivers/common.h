// The input of every libosip driver: a string of symbolic length 1 <= n <= SIZE (bytes,
// its NUL included), malloc'd at its length so that reading past it is an out-of-bounds
// access, symbolic bytes with a NUL in the last one (earlier NULs allowed): the shape of
// the thesis's Chapter 5 drivers. SIZE is set with -D SIZE=N (bench/libosip/run.sh).
#ifndef SEAR_LIBOSIP_DRIVER_H
#define SEAR_LIBOSIP_DRIVER_H
#include <stdlib.h>
#include "klee/klee.h"

#ifndef SIZE
#define SIZE 8
#endif

static char *symbolic_string(const char *name) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= SIZE);
  char *s = malloc(n);
  klee_make_symbolic(s, n, name);
  s[n - 1] = '\0';
  return s;
}
#endif
