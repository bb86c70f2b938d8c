// Seed 003, Fig. 1.7 (spec §4.3): as Fig. 5.3, with the write guarded by i > 0; capacity 3.
//
// fork-lazy: 5 paths: k = 0..3 iterations ending at the loop condition, and the break in
// the first iteration. fork-eager: 1 + 3 * 2 = 7. max: n = 3, 2 paths.
// sm, smopt: one path per loop exit (the break, and the loop condition with 4 paths merged).
// sear-args: --capacity=3
// mode fork-lazy: completed_paths == 5; error_paths == 0
// mode fork-eager: completed_paths == 7; error_paths == 0
// mode max: completed_paths == 2; error_paths == 0
// mode sm: completed_paths == 2; error_paths == 0; symbolic_size.largest_merge == 4
// mode smopt: completed_paths == 2; error_paths == 0; symbolic_size.largest_merge == 4
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  size_t n;
  int z;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(&z, sizeof z, "z");
  char *p = malloc(n);
  for (int i = 0; i < n; i++) {
    if (z == 0) {
      break;
    }
    if (i > 0) {
      p[i] = i;
    }
  }
  return 0;
}
