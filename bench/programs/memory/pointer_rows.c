/* Relocatable memory (seed 003 Ch. 3, thesis Fig. 3.2 at scale): a table of SIZE pointers
 * to rows of ROW bytes, filled at run time, read at rows[i][j] with symbolic i and j. The
 * row pointer resolves to every row: the standard model forks per row, DSMM merges the
 * rows, splitting makes each row's array ROW/partition times smaller. */
#include <stdlib.h>
#include "../bench.h"

#ifndef ROW
#define ROW 512
#endif

int main(void) {
  char **rows = malloc(SIZE * sizeof(char *));
  for (int r = 0; r < SIZE; r++) {
    rows[r] = malloc(ROW);
    for (int c = 0; c < ROW; c++)
      rows[r][c] = (char)((r * 31 + c * 7) & 0x7f);
  }
  unsigned i = klee_range(0, SIZE, "i");
  unsigned j = klee_range(0, ROW, "j");
  char v = rows[i][j];
  if (v == 42)
    return 1;
  if (v > 100)
    return 2;
  return 0;
}
