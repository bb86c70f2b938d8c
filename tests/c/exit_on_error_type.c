// --exit-on-error-type KIND (KLEE's option and names, or sear's .err suffixes) stops the
// run at the first error of that kind; errors of other kinds do not stop it.
// Reasoning: the division by zero (div) ends one path and the run goes on; the failed
// assertion stops it while the other path is still in its long loop, which is dumped as
// an early test: 3 tests, 2 error paths, no completed path, few instructions.
// sear-args: --exit-on-error-type Assert --search dfs
// expect-completed: 0
// expect-error-paths: 2
// expect-tests: 3
// expect-summary: instructions <= 100000
#include <assert.h>
#include "klee/klee.h"

int main(void) {
    int d = klee_int("d");
    if (d != 0) {
        int a = klee_int("a");
        if (a) {
            for (volatile long i = 0; i < 100000000; i++)
                ;
            return 0;
        }
        assert(0); // expect-error: assert
    }
    return 10 / d; // expect-error: div
}
