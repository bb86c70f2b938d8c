// Symbolic floating point (issue 34): absorption, a + b == a although |b| > 1e-3. Needs a
// large a (|a| ≥ 2^43 or so for b near 1e-3) or an infinite one: the FP theory finds one.
// Reasoning: the fabs test forks (2), and under it the equality forks: the error path and
// two completed ones.


#include <math.h>
#include "../bench.h"

int main(void) {
    double a, b;
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    if (fabs(b) > 1e-3) {
        if (a + b == a)
            klee_assert(0); 
    }
    return 0;
}
