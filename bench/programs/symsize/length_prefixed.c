/* Seed 003 Ch. 5 bench: a decoder of length-prefixed records (one length byte, then that
 * many payload bytes) over a buffer of symbolic size 0 <= n <= SIZE: binary-format code,
 * where a record's length decides where the next one starts. The record loop is
 * size-dependent (off < n); a truncated record is rejected. */
#include <stdlib.h>
#include "klee/klee.h"

#ifndef SIZE
#define SIZE 10
#endif

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= SIZE);
  unsigned char *buf = malloc(n);
  klee_make_symbolic(buf, n, "buf");
  size_t off = 0;
  unsigned records = 0, marked = 0;
  while (off < n) {
    size_t len = buf[off];
    if (len > n - off - 1)
      return 1; /* truncated record */
    if (len > 0 && buf[off + 1] == 0xFF)
      marked++;
    off += 1 + len;
    records++;
  }
  if (records == 2 && marked == 1)
    return 5;
  if (records > 2)
    return 6;
  return 0;
}
