/* Seed 003 Ch. 5 bench: a chain of strchr calls over a string of symbolic length
 * 1 <= n <= SIZE (a NUL in the last byte, earlier NULs allowed), as libosip's
 * osip_via_parse: '/', then '/', then ' '. Character-by-character text code: every scan
 * is a size-dependent loop (strchr's), merged by sm/smopt; the merged pointers make the
 * next scans' encodings grow (the thesis's osip_message_parse). */
#include <stdlib.h>
#include <string.h>
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
  const char *version = strchr(s, '/');
  if (version == NULL)
    return 1;
  const char *protocol = strchr(version + 1, '/');
  if (protocol == NULL)
    return 2;
  const char *host = strchr(protocol + 1, ' ');
  if (host == NULL)
    return 3;
  if (host - s > 4)
    return 4;
  return 0;
}
