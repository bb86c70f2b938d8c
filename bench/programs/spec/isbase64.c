/* 000 §7 T1 (isBase64, the paper's Figure 1): IDXTRANS on a 256-entry constant table.
 * SIZE = number of symbolic bytes checked (SIZE = 1 is T1 itself: one byte k, 2 paths).
 * -D RUNTIME_TABLE fills the table with a loop at run time (variant T1b).
 * Note: clang -O0 lowers T1's `b64[k] >= 0 ? 1 : 0` to a `select`, which does not fork;
 * main branches on the result so that each byte gives the two paths T1 expects. */
#include "../bench.h"

#ifndef RUNTIME_TABLE
static const signed char b64[256] = {
    [0 ... 255] = -1,
    ['A'] = 0,  ['B'] = 1,  ['C'] = 2,  ['D'] = 3,  ['E'] = 4,  ['F'] = 5,  ['G'] = 6,
    ['H'] = 7,  ['I'] = 8,  ['J'] = 9,  ['K'] = 10, ['L'] = 11, ['M'] = 12, ['N'] = 13,
    ['O'] = 14, ['P'] = 15, ['Q'] = 16, ['R'] = 17, ['S'] = 18, ['T'] = 19, ['U'] = 20,
    ['V'] = 21, ['W'] = 22, ['X'] = 23, ['Y'] = 24, ['Z'] = 25,
    ['a'] = 26, ['b'] = 27, ['c'] = 28, ['d'] = 29, ['e'] = 30, ['f'] = 31, ['g'] = 32,
    ['h'] = 33, ['i'] = 34, ['j'] = 35, ['k'] = 36, ['l'] = 37, ['m'] = 38, ['n'] = 39,
    ['o'] = 40, ['p'] = 41, ['q'] = 42, ['r'] = 43, ['s'] = 44, ['t'] = 45, ['u'] = 46,
    ['v'] = 47, ['w'] = 48, ['x'] = 49, ['y'] = 50, ['z'] = 51,
    ['0'] = 52, ['1'] = 53, ['2'] = 54, ['3'] = 55, ['4'] = 56, ['5'] = 57, ['6'] = 58,
    ['7'] = 59, ['8'] = 60, ['9'] = 61, ['+'] = 62, ['/'] = 63,
};
#else
static signed char b64[256];
static void fill_table(void) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < 256; i++)
        b64[i] = -1;
    for (int i = 0; i < 64; i++)
        b64[(unsigned char)alphabet[i]] = (signed char)i;
}
#endif

unsigned isBase64(unsigned char k) { return b64[k] >= 0 ? 1 : 0; }

int main(void) {
#ifdef RUNTIME_TABLE
    fill_table();
#endif
    unsigned char k[SIZE];
    klee_make_symbolic(k, sizeof k, "k");
    for (int i = 0; i < SIZE; i++)
        if (!isBase64(k[i]))
            return 0;
    return 1;
}
