// klee_open_merge/klee_close_merge with --use-merge (KLEE's MergeHandler): the two paths of
// the branch wait at the close and become one, with r = ite(x > 10, 1, 2) (r > 0 then
// holds on the one path, without a fork).
// sear-args: --use-merge
// expect-completed: 1
// expect-error-paths: 0
// expect-summary: merged_states == 1
// expect-summary: forks == 1
#include <assert.h>
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  int r;
  klee_open_merge();
  if (x > 10)
    r = 1;
  else
    r = 2;
  klee_close_merge();
  return r > 0 ? 0 : 1;
}
