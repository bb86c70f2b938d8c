/* Prologue of every benchmark scanner (included from the grammar's %{ %} block).
 *
 * The scanner reads the symbolic buffer set up by lexer_main.c through a custom YY_INPUT, and
 * needs nothing from libc beyond what sear provides today (malloc/realloc/free, memset,
 * memcpy): errors end the path silently, ECHO prints nothing, and errno/stdin/stdout are
 * replaced by local stand-ins (the scanner only stores them). */
#ifndef SEAR_BENCH_LEX_H
#define SEAR_BENCH_LEX_H
#include <stddef.h>
#include <stdio.h>
#include <errno.h>

extern const unsigned char *bench_input;
extern size_t bench_len, bench_pos;
void bench_fatal(const char *msg);

#define YY_INPUT(buf, result, max_size)                                          \
    {                                                                            \
        size_t n_ = bench_len - bench_pos;                                       \
        if (n_ > (size_t)(max_size))                                             \
            n_ = (size_t)(max_size);                                             \
        for (size_t i_ = 0; i_ < n_; i_++)                                       \
            (buf)[i_] = (char)bench_input[bench_pos + i_];                       \
        bench_pos += n_;                                                         \
        (result) = n_;                                                           \
    }
#define ECHO do { } while (0)
#define YY_FATAL_ERROR(msg) bench_fatal(msg)

#undef errno
#define errno bench_errno
static int bench_errno;
#undef stdin
#define stdin ((FILE *)0)
#undef stdout
#define stdout ((FILE *)0)
#endif
