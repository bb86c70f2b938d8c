/* URL (percent) decoder: a 256-entry character-class table (unreserved / reserved / '%' /
 * '+' / invalid) and a hex-digit table for %XX escapes. SIZE = number of symbolic input
 * bytes. */
#include "../bench.h"

enum { C_INVALID, C_UNRESERVED, C_RESERVED, C_PERCENT, C_PLUS };
static unsigned char cls[256];
static const signed char hexval[256] = {
    [0 ... 255] = -1,
    ['0'] = 0, ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7,
    ['8'] = 8, ['9'] = 9, ['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14,
    ['f'] = 15, ['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
};

static void init_classes(void) {
    /* built at run time: the transformations must see it as constant on the path (T1b) */
    for (int c = 'a'; c <= 'z'; c++)
        cls[c] = C_UNRESERVED;
    for (int c = 'A'; c <= 'Z'; c++)
        cls[c] = C_UNRESERVED;
    for (int c = '0'; c <= '9'; c++)
        cls[c] = C_UNRESERVED;
    const char *unres = "-._~", *res = "!*'();:@&=$,/?#[]";
    for (; *unres; unres++)
        cls[(unsigned char)*unres] = C_UNRESERVED;
    for (; *res; res++)
        cls[(unsigned char)*res] = C_RESERVED;
    cls['%'] = C_PERCENT;
    cls['+'] = C_PLUS;
}

int main(void) {
    init_classes();
    unsigned char in[SIZE], out[SIZE];
    klee_make_symbolic(in, sizeof in, "in");
    int n = 0, reserved = 0;
    for (int i = 0; i < SIZE; i++) {
        switch (cls[in[i]]) {
        case C_UNRESERVED:
            out[n++] = in[i];
            break;
        case C_RESERVED:
            reserved++;
            out[n++] = in[i];
            break;
        case C_PLUS:
            out[n++] = ' ';
            break;
        case C_PERCENT: {
            if (i + 2 >= SIZE)
                return -1;
            signed char hi = hexval[in[i + 1]], lo = hexval[in[i + 2]];
            if (hi < 0 || lo < 0)
                return -2;
            out[n++] = (unsigned char)(hi << 4 | lo);
            i += 2;
            break;
        }
        default:
            return -3;
        }
    }
    return n > 0 ? out[n - 1] + reserved : reserved;
}
