/* sear coverage: the tests it lists because their native runs differ from sear's
 * (crates/sear-cli/tests/coverage.rs). With --sym-args 0 1 1 there are three paths:
 * an argument starting with 's' sleeps, at once under sear but for 30 s natively, so its
 * replay with --timeout 1 times out (and, exiting under sear, counts as an output that
 * differs); any other argument, and none, print the pids, which are 42 and 1 under sear
 * while natively the parent is the replaying process, so the output differs from the one
 * sear recorded. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 's') {
    sleep(30);
    return 0;
  }
  printf("%d %d\n", (int)getpid(), (int)getppid());
  return 0;
}
