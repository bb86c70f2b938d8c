// Without --use-merge, klee_open_merge/klee_close_merge are ignored (with a warning, as
// KLEE): the branch keeps its two paths.
// expect-completed: 2
// expect-exits: 1 2
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
  return r;
}
