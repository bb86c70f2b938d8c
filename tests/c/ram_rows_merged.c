// Seed 003 §2.8 test 1 with DSMM (--merge-objects): the two rows the pointer may point into
// move into one segment (with an internal red zone between them), so the read is one path
// over one array instead of a fork per row; only the branch on the value forks.
// sear-args: --use-sym-addr --merge-objects --optimize-array=none
// expect-completed: 2
// expect-exits: 0 1
// expect-summary: memory.stats.objects_merged == 2
// expect-summary: memory.stats.segments_created == 1
// expect-summary: memory.stats.largest_segment == 544
// expect-summary: forks == 1
#include <stdlib.h>
#include "klee/klee.h"

int main(void) {
  char **array = calloc(2, sizeof(char *));
  for (unsigned int k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  unsigned int i = klee_range(0, 2, "i");
  unsigned int j = klee_range(0, 100, "j");
  array[1][50] = 7;
  if (array[i][j] == 7)
    return 1;
  return 0;
}
