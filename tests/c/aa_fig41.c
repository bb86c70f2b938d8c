// Seed 003 §3.2 (thesis Fig. 4.1, Table 4.1): the z > 0 path allocates extra objects first,
// so its table of row pointers and its rows live elsewhere than on the other path. The
// branch at array[i][j] == MAGIC asks, on the second path, the first path's queries up to
// the renaming of the row bases (q7 of q5): the address-aware cache answers both of its
// satisfiability queries (row 1 holds no MAGIC: its read folds to 0 and asks nothing), and
// the paths stay those of the relocatable model without the cache.
// The cache's configurations transform array reads at the branch (--optimize-array-at=branch),
// where the counts below were taken (the thesis's example; with the transformations in the
// chain, the cache sees the untransformed queries and answers 4 of them, same 6 paths).
// sear-configs: --use-sym-addr | --use-aa-cache --optimize-array-at=branch | --use-aa-cache --validate-caching --optimize-array-at=branch
// expect-completed: 6
// expect-error-paths: 0
// expect-summary: solver.aa_cache.hits_c3 == 2 if aa-cache
// expect-summary: solver.aa_cache.hits_renamed == 2 if aa-cache
// expect-summary: solver.aa_cache.validation_failures == 0 if aa-cache
// expect-summary: solver.aa_cache.validated == 2 if validate-caching
#include <stdlib.h>
#include "klee/klee.h"

#define N 2
#define MAGIC 7

int main(void) {
  int z = klee_int("z");
  if (z > 0) {
    /* allocate objects... */
    for (int k = 0; k < 3; k++)
      malloc(8);
  }
  char **array = calloc(N, sizeof(char *));
  for (unsigned int i = 0; i < N; i++)
    array[i] = calloc(N, 1);
  array[0][1] = MAGIC;
  unsigned int i = klee_range(0, N, "i");
  unsigned int j = klee_range(0, N, "j");
  if (array[i][j] == MAGIC)
    return 1;
  return 0;
}
