// Nested merge groups, and a path that ends with an error inside a group: the group does
// not wait for it, and the other paths merge (inner group first, then the outer one).
// sear-args: --use-merge
// expect-completed: 1
// expect-error-paths: 1
// expect-summary: merged_states == 2
#include <assert.h>
#include "klee/klee.h"

int main(void) {
  int x = klee_int("x");
  int y = klee_int("y");
  int r = 0;
  klee_open_merge();
  if (x == 3)
    assert(0 && "x is 3"); // expect-error: assert
  klee_open_merge();
  if (y > 0)
    r = 1;
  klee_close_merge();
  if (x > 100)
    r += 10;
  klee_close_merge();
  return r >= 0 ? 0 : 1;
}
