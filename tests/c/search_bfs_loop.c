// Breadth-first search must not let a loop's continuing path starve the others: the state
// that forks moves behind its new siblings (KLEE's BFS). Here every iteration forks on a
// fresh symbolic value; the path that leaves the loop reaches the failing assertion. Before
// the fix, BFS kept running the looping state, which stayed at the head of the queue, and
// the instruction budget ran out with no error found.
// sear-args: --search bfs --max-instructions 3000
// expect-completed: 0
// The state still looping at the budget has an early test whose native run asks for more
// inputs than it recorded: no replay.
// expect-replay: no
#include "klee/klee.h"

static int nd(void) {
    int r;
    klee_make_symbolic(&r, sizeof r, "r");
    return r;
}

int main(void) {
    int x = 1;
    while (nd() != 0)
        x *= 2;
    klee_assert(0); // expect-error: assert
    return x;
}
