// A symbolic index far beyond a table must be reported as out of bounds of that table, as
// ASan reports it natively (global-buffer-overflow), never resolved into whichever other
// object lies at that address.
// Reasoning: table has 16 bytes and other objects (other, buf) lie after it. x < 4096: x
// in [0, 16) reads the table (1 completed path); every other x is out of bounds of table:
// 1 ptr error. Before the fix, large x resolved into other/buf as extra completed paths
// whose tests natively hit a global-buffer-overflow.
// expect-completed: 1
// expect-error-paths: 1
#include "klee/klee.h"

static char table[16] = "0123456789abcdef";
static char other[64] = "other";
static char buf[1024];

int main(void) {
    unsigned x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x < 4096);
    buf[0] = other[0];
    return table[x]; // expect-error: ptr
}
