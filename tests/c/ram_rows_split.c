// Seed 003 §2.8 test 1 with splitting: each 256-byte row accessed at a symbolic offset is
// split into four 64-byte chunks; j < 100 reaches two chunks of each of the two rows, so
// the read forks four ways, each over a 64-byte array (crates/sear-cli/tests/relocatable.rs
// checks the query log).
// sear-args: --use-sym-addr --split-objects --split-threshold=100 --partition-size=64 --optimize-array=none
// expect-completed: 4
// expect-error-paths: 0
// expect-summary: memory.stats.splits == 2
// expect-summary: memory.stats.chunks == 8
// expect-summary: memory.stats.largest_split_object == 256
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  char **array = calloc(2, sizeof(char *));
  for (unsigned int k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  unsigned int i = klee_range(0, 2, "i");
  unsigned int j = klee_range(0, 100, "j");
  if (array[i][j] == 7)
    return 1;
  return 0;
}
