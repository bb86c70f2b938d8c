// A variable-length array of symbolic length 1 ≤ n ≤ 4 (a stack object of symbolic size),
// filled by a size-dependent loop, then read at n - 1.
//
// fork-lazy, fork-eager: one path per n (4). max: n = 4 only. sm, smopt: the fill loop's 4
// paths merge into one, which then forks on buf[n - 1] == 3 (true only for n = 4): 2 paths.
// mode max: completed_paths == 1
// mode fork-eager: completed_paths == 4
// mode fork-lazy: completed_paths == 4; symbolic_size.symbolic_size_objects == 1
// mode sm: completed_paths == 2; symbolic_size.largest_merge == 4
// mode smopt: completed_paths == 2; symbolic_size.largest_merge == 4
#include "klee/klee.h"

int main(void) {
  unsigned n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= 4);
  char buf[n];
  for (unsigned i = 0; i < n; i++)
    buf[i] = (char)i;
  if (buf[n - 1] == 3)
    return 1;
  return 0;
}
