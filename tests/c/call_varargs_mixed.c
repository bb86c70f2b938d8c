// Variadic functions reading ints, longs, doubles and pointers (driven by a format string),
// structs passed by value (a large one is a byval argument, copied into the argument area),
// a long double, and va_copy to read the arguments twice.
// Reasoning: values are checked with asserts that hold; the only symbolic value is x,
// passed as a long: total == 10 forks: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include <stdarg.h>
#include "klee/klee.h"

static double mix(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    double t = 0;
    for (const char *f = fmt; *f; f++) {
        switch (*f) {
        case 'i': t += va_arg(ap, int); break;
        case 'l': t += (double)va_arg(ap, long); break;
        case 'd': t += va_arg(ap, double); break;
        case 'p': t += *va_arg(ap, int *); break;
        }
    }
    va_end(ap);
    return t;
}

static long twice_sum(int n, ...) {
    va_list ap, copy;
    va_start(ap, n);
    va_copy(copy, ap);
    long a = 0, b = 0;
    for (int i = 0; i < n; i++)
        a += va_arg(ap, long);
    for (int i = 0; i < n; i++)
        b += va_arg(copy, long);
    va_end(copy);
    va_end(ap);
    return a + b;
}

struct Big {
    long x[4];
};
struct Small {
    int a;
    char b;
};

static long structs(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long d = va_arg(ap, long);
    struct Big b = va_arg(ap, struct Big);
    struct Small s = va_arg(ap, struct Small);
    long double q = va_arg(ap, long double);
    long e = va_arg(ap, long);
    va_end(ap);
    return d + b.x[0] + b.x[3] + s.a + s.b + (long)q + e;
}

int main(void) {
    struct Big big = {{1, 2, 3, 4}};
    struct Small small = {10, 20};
    klee_assert(structs(0, 100L, big, small, 0.5L + 1000, 7L) == 1142);
    int seven = 7;
    klee_assert(mix("idlp", 1, 2.5, 3L, &seven) == 13.5);
    klee_assert(mix("ddddddddd", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0) == 9.0);
    klee_assert(mix("iiiiiiii", 1, 2, 3, 4, 5, 6, 7, 8) == 36.0);
    long x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume((x > -100) & (x < 100));
    long total = twice_sum(3, 1L, x, 2L);
    klee_assert(total == 2 * (3 + x));
    if (total == 10)
        return 1;
    return 0;
}
