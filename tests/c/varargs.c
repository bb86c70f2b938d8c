// A variadic function reading ints and a double with va_arg.
// expect-completed: 2
// expect-error-paths: 0
#include <stdarg.h>
#include "klee/klee.h"

static long total(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long t = 0;
    for (int i = 0; i < n; i++)
        t += va_arg(ap, int);
    double d = va_arg(ap, double);
    va_end(ap);
    return t + (long)d;
}

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    long t = total(3, 1, 2, x, 2.5);
    if (t == 10)
        return 1;
    return 0;
}
