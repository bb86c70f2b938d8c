// A loop inside klee_open_merge/klee_close_merge: its 16 paths merge into one at the close
// (memory and locals as if-then-else values), which forks only on the branch after it.
// sear-args: --use-merge
// expect-completed: 2
// expect-exits: 0 1
// expect-summary: merged_states == 15
#include "klee/klee.h"

int main(void) {
  unsigned char a[4];
  klee_make_symbolic(a, sizeof a, "a");
  int count = 0;
  klee_open_merge();
  for (int i = 0; i < 4; i++)
    if (a[i] == 'x')
      count++;
  klee_close_merge();
  if (count == 4)
    return 1;
  return 0;
}
