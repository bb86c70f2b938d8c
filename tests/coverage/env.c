/* sear coverage --env-file: the native runs get the given environment. Under sear the
 * program runs in the environment of its --env-file; whether line 9 or line 11 is counted
 * depends on the environment the replay gives it (crates/sear-cli/tests/coverage.rs). */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  if (getenv("COV_MODE") != NULL)
    puts("mode");
  else
    puts("plain");
  return 0;
}
