// Computed goto (GNU labels as values): `&&label` is a `blockaddress` constant, distinct for
// every block and never null; `goto *p` is `indirectbr`, which forks over the targets the
// address may equal. Before, blockaddress evaluated to 0 with a warning and indirectbr was
// refused.
// Reasoning: i < 3 is symbolic and selects one of three labels: three paths, exit statuses
// 1, 2 and 3. The labels' addresses are distinct and not null (checked first).
// expect-completed: 3
// expect-error-paths: 0
// expect-exits: 1 2 3
#include "klee/klee.h"

int main(void) {
    static void *labels[] = {&&one, &&two, &&three};
    if (labels[0] == 0 || labels[0] == labels[1] || labels[1] == labels[2])
        return 9;
    unsigned char i;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_assume(i < 3);
    goto *labels[i];
one:
    return 1;
two:
    return 2;
three:
    return 3;
}
