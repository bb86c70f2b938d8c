// The value-based threshold counts byte values over the array's bytes, as KLEE's
// optimiser (which sees byte reads) does: a table of shorts whose elements all differ still
// repeats bytes ({10, 20, 30, -40, 50} is 7 distinct byte values in 10 bytes: 0.7 < 1.0),
// so its reads are transformed. Before, sear counted elements (5 distinct in 5) and left
// them alone.
// Reasoning: k < 5 is symbolic; table[k] == 50 only for k == 4: two paths, in every
// configuration.
// sear-configs: --optimize-array=none | --optimize-array=value | --optimize-array=all
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: array_opt.value_successes >= 1 if value
#include "klee/klee.h"

static const short table[5] = {10, 20, 30, -40, 50};

int main(void) {
    unsigned k;
    klee_make_symbolic(&k, sizeof k, "k");
    klee_assume(k < 5);
    if (table[k] == 50)
        return 1;
    return 0;
}
