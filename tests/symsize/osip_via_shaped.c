// A driver shaped like libosip 5.2.0's osip_via_parse (Table 5.1 of the thesis: input
// '/\x01/ ', sizes ≥ 5): after the protocol, extra spaces are skipped and the host is
// searched with strchr(host + 1, ' '), which starts one byte past the terminating NUL
// when the input ends right after the skipped space. The input is a string of symbolic
// length 1 ≤ n ≤ 5 (a NUL in its last byte, earlier NULs allowed); the over-read needs
// n = 5 ('/', any, '/', ' ', NUL).
//
// concretize: sear fixes n to one value, the largest feasible size up to 128 (KLEE takes a
// model's value, halved while feasible, and missed the bug with n = 1): n = 5, found; the
// other sizes end early, unexplored.
// max: n = 5: found. fork-eager, fork-lazy, sm, smopt: every n: found. (A chain of strchr
// calls is where merging builds the largest encodings, the thesis's osip_message_parse:
// at n ≤ 6 SM takes twice SMOpt's time, both far more than forking.)
// sear-args: --capacity=8
// mode concretize: error-in strchr ptr
// mode max: error-in strchr ptr
// mode fork-eager: error-in strchr ptr
// mode fork-lazy: error-in strchr ptr
// mode sm: error-in strchr ptr
// mode smopt: error-in strchr ptr
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

static int via_parse(const char *hvalue) {
  const char *version = strchr(hvalue, '/');
  if (version == NULL)
    return -1;
  const char *protocol = strchr(version + 1, '/');
  if (protocol == NULL || protocol - version < 2)
    return -1;
  const char *host = strchr(protocol + 1, ' ');
  if (host == NULL)
    return -1;
  if (host == protocol + 1) {
    /* extra spaces */
    while (host[0] == ' ') {
      host++;
      if (strlen(host) == 1)
        return -1;
    }
    host = strchr(host + 1, ' ');
  }
  return host == NULL ? -1 : 0;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= 5);
  char *s = malloc(n);
  klee_make_symbolic(s, n, "s");
  s[n - 1] = '\0';
  return via_parse(s) == 0;
}
