// 000 T1b: isBase64 with the table filled at run time by a loop (see array_base64.c).
// sear-configs: --optimize-array=none --no-array-folding | --optimize-array=none | --optimize-array=index --validate-array-opt | --optimize-array=value --validate-array-opt | --optimize-array=all --validate-array-opt
// sear-args: -D RUNTIME_TABLE --no-byte-search
// expect-completed: 2
// expect-error-paths: 0
// expect-summary: array_opt.index_successes >= 1 if index
// expect-summary: array_opt.index_successes >= 1 if all
// expect-summary: array_opt.value_successes >= 1 if value
// expect-summary: array_opt.core_queries_with_arrays == 0 if index
// expect-summary: array_opt.core_queries_with_arrays == 0 if value
// expect-summary: array_opt.core_queries_with_arrays == 0 if all
// expect-summary: array_opt.core_queries_with_arrays >= 1 if none
// expect-summary: array_opt.validation.failures == 0
#include "klee/klee.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
#ifdef RUNTIME_TABLE
static signed char b64[256];
#else
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
#endif

static unsigned is_base64(unsigned char k) { return b64[k] >= 0 ? 1 : 0; }

int main(void) {
#ifdef RUNTIME_TABLE
    for (int i = 0; i < 256; i++)
        b64[i] = -1;
    for (int i = 0; alphabet[i]; i++)
        b64[(unsigned char)alphabet[i]] = (signed char)i;
#endif
    unsigned char k;
    klee_make_symbolic(&k, 1, "k");
    if (is_base64(k)) {
        // The test input must really be in the alphabet.
        int found = 0;
        for (int i = 0; alphabet[i]; i++)
            found |= alphabet[i] == (char)k;
        klee_assert(found);
        return 1;
    }
    for (int i = 0; alphabet[i]; i++)
        klee_assert(alphabet[i] != (char)k);
    return 0;
}
