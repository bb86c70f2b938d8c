/* Address-aware caching (seed 003 Ch. 4, thesis Fig. 4.1 scaled up): SIZE symbolic flags each
 * decide whether a scratch object is allocated first, so the 2^SIZE paths place the same
 * table of row pointers and the same rows at different addresses. Each path then reads
 * rows[i][j] at symbolic i, j and branches on the value: the same queries up to the row
 * bases, which the exact cache misses and the address-aware cache answers. */
#include <stdlib.h>
#include "../bench.h"

#define ROWS 4
#define WIDTH 16

int main(void) {
  unsigned char skew[SIZE];
  klee_make_symbolic(skew, sizeof skew, "skew");
  for (int k = 0; k < SIZE; k++)
    if (skew[k] > 127)
      malloc(24);
  char **rows = calloc(ROWS, sizeof(char *));
  for (int r = 0; r < ROWS; r++) {
    rows[r] = calloc(WIDTH, 1);
    rows[r][r + 1] = 7;
    rows[r][WIDTH - 1 - r] = 9;
  }
  unsigned i = klee_range(0, ROWS, "i");
  unsigned j = klee_range(0, WIDTH, "j");
  char v = rows[i][j];
  int score = 0;
  if (v == 7)
    score += 1;
  if (v == 9)
    score += 2;
  if (v == 0 && j > i)
    score += 4;
  return score;
}
