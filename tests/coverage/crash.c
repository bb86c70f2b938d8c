/* sear coverage: a test that crashes natively still counts the lines it ran
 * (crates/sear-cli/tests/coverage.rs). With argv[1] "x", p is NULL and the store
 * crashes; the line before it must be counted. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int *p = NULL;
  int zero = 0;
  if (argc > 1 && strcmp(argv[1], "x") == 0) {
    puts("crashing");
    *p = 1;
  }
  int v = zero + 1;
  p = &v;
  return *p - 1;
}
