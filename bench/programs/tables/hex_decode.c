/* Hex decoder with a 256-entry digit table. SIZE = number of symbolic hex digits; each pair
 * gives a byte, and the decoded bytes must match a magic prefix "\xde\xad\xbe\xef". */
#include "../bench.h"

static const signed char hexval[256] = {
    [0 ... 255] = -1,
    ['0'] = 0, ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7,
    ['8'] = 8, ['9'] = 9, ['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14,
    ['f'] = 15, ['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
};
static const unsigned char magic[4] = {0xde, 0xad, 0xbe, 0xef};

int main(void) {
    unsigned char in[SIZE];
    klee_make_symbolic(in, sizeof in, "in");
    int matched = 0;
    for (int i = 0; i + 1 < SIZE; i += 2) {
        signed char hi = hexval[in[i]], lo = hexval[in[i + 1]];
        if (hi < 0 || lo < 0)
            return -1;
        unsigned char byte = (unsigned char)(hi << 4 | lo);
        if (byte != magic[(i / 2) % 4])
            return matched;
        matched++;
    }
    return matched;
}
