/* A long path of independent symbolic branches, the shape of SV-COMP's array tasks (a loop
 * of 10^5 iterations branching on a fresh __VERIFIER_nondet_int() value before the error).
 * SIZE counts loop iterations. Each iteration makes a fresh 4-byte input and branches on it;
 * the side with v > 1000 ends at once (klee_assume(0) under --silent-klee-assume), so one
 * path carries SIZE constraints, each over its own input, and SIZE short paths end beside
 * it. Every branch query is about an input no earlier constraint reads: what it costs
 * shows how the per-branch cost grows with the path (issue 20).
 * Paths: SIZE silent ends, plus 2 completed (last < -5 or not). */
#include "../bench.h"

int main(void) {
    int last = 0;
    for (int i = 0; i < SIZE; i++) {
        int v = klee_int("v");
        if (v > 1000)
            klee_assume(0);
        last = v;
    }
    if (last < -5)
        return 1;
    return 0;
}
