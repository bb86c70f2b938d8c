// Aggregates passed and returned by value: a small struct (in registers), a large struct
// (byval/sret in memory) and a struct mixing a double and an int.
// Reasoning: the callee results are checked by asserts that hold on every input (no fork);
// one branch on a field derived from the symbolic input: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

struct Small {
    int a, b;
};
struct Big {
    long x[5];
};
struct Mixed {
    double d;
    int i;
};

static struct Small make_small(int a, int b) {
    struct Small s = {a, b};
    return s;
}

static struct Big twice(struct Big in) {
    for (int i = 0; i < 5; i++)
        in.x[i] *= 2;
    return in;
}

static long sum(struct Big b) {
    long t = 0;
    for (int i = 0; i < 5; i++)
        t += b.x[i];
    return t;
}

static struct Mixed bump(struct Mixed m) {
    m.d += 1.5;
    m.i += 1;
    return m;
}

int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x > -1000);
    klee_assume(x < 1000);
    struct Small s = make_small(x, 7);
    klee_assert(s.a == x);
    klee_assert(s.b == 7);
    struct Big b = {{1, 2, 3, 4, x}};
    struct Big d = twice(b);
    klee_assert(b.x[4] == x);
    klee_assert(d.x[4] == 2L * x);
    klee_assert(sum(d) == 20 + 2L * x);
    struct Mixed m = {2.0, x};
    struct Mixed n = bump(m);
    klee_assert(n.d == 3.5);
    klee_assert(n.i == x + 1);
    if (d.x[4] == 84)
        return 1;
    return 0;
}
