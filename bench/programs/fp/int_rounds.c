// Symbolic floating point (issue 34): an int → float conversion that rounds. (float)n loses
// bits for |n| > 2^24 (e.g. 2^24 + 1); converting back then gives another int. A float
// → int conversion out of range gives x86-64's integer indefinite INT_MIN natively, which
// sear's FP semantics reproduce (the replay checks it).
// Reasoning: the round trip check forks (error / not); the out-of-range check forks too: 1
// error, 2 completed paths (in range, and out of range giving INT_MIN).


#include <limits.h>
#include "../bench.h"

int main(void) {
    int n;
    float g;
    klee_make_symbolic(&n, sizeof n, "n");
    klee_make_symbolic(&g, sizeof g, "g");
    float f = (float)n;
    if ((int)f != n)
        klee_assert(0); 
    if (g >= 3e9f)
        return (int)g == INT_MIN ? 3 : 4;
    return 0;
}
