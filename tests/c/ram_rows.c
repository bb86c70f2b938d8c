// Seed 003 §2.8 test 1 (thesis Fig. 3.2): a table of two rows of 256 bytes read at
// array[i][j]. The row pointer resolves to both rows: two paths in the standard model, the
// same two with symbolic base addresses (relocatable model without merging or splitting:
// the path condition never names an address, and the same paths run).
// sear-configs: --optimize-array=none | --optimize-array=none --use-sym-addr | --optimize-array=none --use-sym-addr --sym-addr-stack
// expect-completed: 3
// expect-error-paths: 0
// expect-summary: memory.stats.symbolic_bases >= 3 if sym-addr
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
