// base64 -d: decodes stdin, ignoring newlines; '=' ends the data; other bytes outside
// the alphabet are an error (exit 1). The alphabet test is one table read per byte, so a
// byte is a newline or a letter of the alphabet (the loop goes on), '=' or invalid (it
// ends): over n bytes 2 x (2^0 + ... + 2^(n-1)) + 2^n = 3 x 2^n - 2 paths. The decoded
// bytes are printed as symbolic expressions of the input.
// run: --sym-stdin 4 ;; ;; 46
// run: --sym-stdin 2 ;; ;; 10
// expect-test-stderr: base64: invalid input\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>

static signed char value[256];

static void init(void) {
    const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    memset(value, -1, sizeof value);
    for (int i = 0; i < 64; i++)
        value[(unsigned char)alphabet[i]] = (signed char)i;
}

int main(void) {
    init();
    unsigned acc = 0;
    int bits = 0, c;
    while ((c = getchar()) != EOF) {
        if (c == '\n')
            continue;
        if (c == '=')
            break;
        int v = value[c];
        if (v < 0) {
            fputs("base64: invalid input\n", stderr);
            return 1;
        }
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            putchar((int)((acc >> bits) & 0xff));
        }
    }
    return 0;
}
