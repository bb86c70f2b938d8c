/* Run-length decoder (PackBits-style) where the header byte's meaning comes from a 256-entry
 * table: literal run of n bytes, repeat run of n copies, or no-op. SIZE = number of symbolic
 * input bytes; the output buffer holds 2 * SIZE bytes and overflowing it is rejected. */
#include "../bench.h"

/* run[h]: > 0 literal run length, < 0 repeat count (negated), 0 no-op */
static signed char run[256];

int main(void) {
    for (int h = 0; h < 128; h++)
        run[h] = (signed char)(h % 8 + 1);       /* literal 1..8 */
    for (int h = 129; h < 256; h++)
        run[h] = (signed char)-(h % 8 + 2);      /* repeat 2..9 */
    run[128] = 0;
    unsigned char in[SIZE], out[2 * SIZE];
    klee_make_symbolic(in, sizeof in, "in");
    int i = 0, n = 0;
    while (i < SIZE) {
        signed char r = run[in[i++]];
        if (r > 0) {
            if (i + r > SIZE || n + r > 2 * SIZE)
                return -1;
            for (int k = 0; k < r; k++)
                out[n++] = in[i++];
        } else if (r < 0) {
            if (i >= SIZE || n - r > 2 * SIZE)
                return -2;
            unsigned char v = in[i++];
            for (int k = 0; k < -r; k++)
                out[n++] = v;
        }
    }
    return n > 0 ? out[n - 1] : 0;
}
