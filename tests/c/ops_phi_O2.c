// sear-args: -O 2
// Phi nodes at -O2: values merged from two arms that call opaque functions, and a loop
// counter carried by a phi.
// Reasoning: x > 0 forks (2); each arm calls a noinline function and the result reaches
// the join through a phi. The loop has a concrete trip count (4) and its count of matching
// bytes is computed without branches at -O2 (zext/add), so only r == 8 forks: on the x > 0
// side r = x * 2 + count can be 8 or not (2); on the other side r = 3 - x + count is 8 for
// x == count - 5 <= 0, also feasible both ways (2). 4 paths.
// expect-completed: 4
// expect-error-paths: 0
#include <stdlib.h>
#include "klee/klee.h"

__attribute__((noinline)) int twice(int x) { return x * 2; }
__attribute__((noinline)) int three_minus(int x) { return 3 - x; }

int main(void) {
    int x;
    unsigned char buf[4];
    klee_make_symbolic(&x, sizeof x, "x");
    klee_make_symbolic(buf, sizeof buf, "buf");
    klee_assume(x > -1000);
    klee_assume(x < 1000);
    int r;
    if (x > 0)
        r = twice(x);
    else
        r = three_minus(x);
    int count = 0;
    for (int i = 0; i < 4; i++)
        count += buf[i] == 'a';
    r += count;
    if (r == 8)
        exit(1);
    return 0;
}
