// Seed 003 §2.8 test 3: context-based resolution. The read in read_first resolves first to
// two objects allocated in make_a, so that allocation site is recorded for it; the second
// call reads through a pointer that may point into an object from make_a or one from
// make_c, whose context is not recorded: the must-point-into check fails and resolution
// falls back to the full scan, which finds both. Same paths as without contexts.
// sear-configs: --use-sym-addr --merge-objects | --use-sym-addr --merge-objects --use-context-resolve --kcontext=0 | --use-sym-addr --merge-objects --use-context-resolve --kcontext=2
// expect-error-paths: 0
// expect-summary: memory.stats.context_fallbacks >= 1 if context
// expect-summary: memory.stats.objects_merged >= 4
#include <stdlib.h>
#include "klee/klee.h"

static char *make_a(char v) {
  char *p = malloc(8);
  p[0] = v;
  return p;
}

static char *make_c(char v) {
  char *p = malloc(8);
  p[0] = v;
  return p;
}

static int read_first(char **ptrs, unsigned i) { return ptrs[i][0]; }

int main(void) {
  char *first[2] = {make_a(1), make_a(2)};
  char *second[2] = {make_a(3), make_c(4)};
  unsigned i = klee_range(0, 2, "i");
  int x = read_first(first, i);
  int y = read_first(second, i);
  if (x + y == 5)
    return 1;
  return 0;
}
