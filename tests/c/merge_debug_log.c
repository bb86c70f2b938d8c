// --debug-log-merge (KLEE's option) reports every klee_open_merge and klee_close_merge; a
// close outside any merge warns with KLEE's wording and is ignored. The three values of x
// meet at the inner close and merge into one path, which then closes once more.
// sear-args: --use-merge --debug-log-merge
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: merged_states == 2
// expect-sear-stderr: open merge: 0
// expect-sear-stderr: close merge: 0
// expect-sear-stderr: ran into a close at
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  int foo;
  klee_open_merge();
  if (x == 1)
    foo = 5;
  else if (x == 2)
    foo = 6;
  else
    foo = 7;
  klee_close_merge();
  klee_close_merge();
  return foo > 4 ? 0 : 1;
}
