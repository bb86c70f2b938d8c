// Float bench (issue 34): an int -> float conversion that rounds. A throughput monitor gets
// two millisecond timestamps (uint32) and a byte count, rejects a clock that did not advance,
// and computes the elapsed time in float: (float)t1 - (float)t0. Above 2^24 consecutive
// integers round to the same float (2^24 + 1 becomes 2^24), so the elapsed time can be 0
// although t1 > t0, and the rate division by it would be infinite: the assertion fails.
// Reasoning: t1 <= t0 and bytes == 0 fork (2 completed); dt > 0 forks (the error); the rate
// class (> 1e6 bytes/s) forks: 4 completed + 1 error.
// SIZE is unused.
#include <stdint.h>
#include "../bench.h"

int main(void) {
    uint32_t t0, t1, bytes;
    klee_make_symbolic(&t0, sizeof t0, "t0");
    klee_make_symbolic(&t1, sizeof t1, "t1");
    klee_make_symbolic(&bytes, sizeof bytes, "bytes");
    if (t1 <= t0)
        return 1; // the clock did not advance
    if (bytes == 0)
        return 2;
    float dt = ((float)t1 - (float)t0) / 1000.0f;
    klee_assert(dt > 0.0f);
    float rate = (float)bytes / dt;
    if (rate > 1e6f)
        return 3;
    return 0;
}
