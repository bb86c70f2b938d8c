/* Base64 decoder with a 256-entry decode table (coreutils base64 shape, 000 Figure 1).
 * SIZE = number of symbolic input characters (decoded in groups of 4; '=' padding allowed
 * at the end). Paths: one per prefix of valid characters, plus padding cases. */
#include "../bench.h"

#define INV 64
#define PAD 65
static const unsigned char dec[256] = {
    [0 ... 255] = INV,
    ['A'] = 0,  ['B'] = 1,  ['C'] = 2,  ['D'] = 3,  ['E'] = 4,  ['F'] = 5,  ['G'] = 6,
    ['H'] = 7,  ['I'] = 8,  ['J'] = 9,  ['K'] = 10, ['L'] = 11, ['M'] = 12, ['N'] = 13,
    ['O'] = 14, ['P'] = 15, ['Q'] = 16, ['R'] = 17, ['S'] = 18, ['T'] = 19, ['U'] = 20,
    ['V'] = 21, ['W'] = 22, ['X'] = 23, ['Y'] = 24, ['Z'] = 25,
    ['a'] = 26, ['b'] = 27, ['c'] = 28, ['d'] = 29, ['e'] = 30, ['f'] = 31, ['g'] = 32,
    ['h'] = 33, ['i'] = 34, ['j'] = 35, ['k'] = 36, ['l'] = 37, ['m'] = 38, ['n'] = 39,
    ['o'] = 40, ['p'] = 41, ['q'] = 42, ['r'] = 43, ['s'] = 44, ['t'] = 45, ['u'] = 46,
    ['v'] = 47, ['w'] = 48, ['x'] = 49, ['y'] = 50, ['z'] = 51,
    ['0'] = 52, ['1'] = 53, ['2'] = 54, ['3'] = 55, ['4'] = 56, ['5'] = 57, ['6'] = 58,
    ['7'] = 59, ['8'] = 60, ['9'] = 61, ['+'] = 62, ['/'] = 63, ['='] = PAD,
};

int main(void) {
    unsigned char in[SIZE];
    unsigned char out[SIZE];
    klee_make_symbolic(in, sizeof in, "in");
    unsigned acc = 0, bits = 0, n = 0, pads = 0;
    for (int i = 0; i < SIZE; i++) {
        unsigned char v = dec[in[i]];
        if (v == INV)
            return -1;                     /* invalid character */
        if (v == PAD) {
            if (i % 4 < 2)
                return -2;                 /* padding too early in a group */
            pads++;
            continue;
        }
        if (pads)
            return -3;                     /* data after padding */
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (unsigned char)(acc >> bits);
        }
    }
    return n > 0 ? out[0] : 0;
}
