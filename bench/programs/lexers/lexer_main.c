/* Driver of the flex-generated benchmark scanners: scans a symbolic buffer of SIZE bytes.
 * The harness compiles a wrapper that includes this file and the generated scanner.
 * -D PREFIX='"..."' makes the first bytes of the buffer concrete (a partially concrete input,
 * as in the bc experiments of 000 §6.4). */
#include "../bench.h"
#include <stddef.h>

const unsigned char *bench_input;
size_t bench_len, bench_pos;

void bench_fatal(const char *msg) {
    (void)msg;
    klee_silent_exit(1);
}

int yylex(void);

int main(void) {
    static unsigned char buf[SIZE];
    klee_make_symbolic(buf, sizeof buf, "input");
#ifdef PREFIX
    static const char prefix[] = PREFIX;
    for (size_t i = 0; i + 1 < sizeof prefix && i < SIZE; i++)
        klee_assume(buf[i] == (unsigned char)prefix[i]);
#endif
    bench_input = buf;
    bench_len = SIZE;
    bench_pos = 0;
    int tokens = 0;
    while (yylex() != 0)
        tokens++;
    return tokens;
}
