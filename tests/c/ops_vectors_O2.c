// sear-args: -O 2
// Vectors produced by -O2 from simple loops: element-wise xor/add on <16 x i8> (into a
// global, so that the stores stay), a vectorised sum (llvm.vector.reduce.add) and vector
// loads and stores.
// Reasoning: the element-wise results are checked by asserts valid on every input (no
// fork). The only branch is sum == 0, true only when all 16 bytes are zero: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

unsigned char out[16];

int main(void) {
    unsigned char in[16];
    klee_make_symbolic(in, sizeof in, "in");
    for (int i = 0; i < 16; i++)
        out[i] = in[i] ^ 0x5a;
    for (int i = 0; i < 16; i++)
        out[i] += 1;
    klee_assert(out[5] == (unsigned char)((in[5] ^ 0x5a) + 1));
    klee_assert(out[15] == (unsigned char)((in[15] ^ 0x5a) + 1));
    unsigned sum = 0;
    for (int i = 0; i < 16; i++)
        sum += in[i];
    if (sum == 0)
        exit(1);
    return 0;
}
