// GEPs over arrays of structs and nested arrays with symbolic indices.
// Reasoning: i < 4, j < 3, a < 3, b < 5 keep every access in bounds (one object each, no
// error fork). items[i].vals[j] == 21 holds only for i == 2, j == 1 (values are unique):
// 2 ways; grid[a][b] == 7 only for a == 1, b == 2: 2 ways; independent: 4 paths.
// expect-completed: 4
// expect-error-paths: 0
#include "klee/klee.h"

struct item {
    char tag;
    int vals[3];
    short s;
};

struct item items[4];
int grid[3][5];

int main(void) {
    for (int i = 0; i < 4; i++) {
        items[i].tag = 'a' + i;
        for (int j = 0; j < 3; j++)
            items[i].vals[j] = i * 10 + j;
        items[i].s = (short)(100 + i);
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 5; b++)
            grid[a][b] = a * 5 + b;
    unsigned i, j, a, b;
    klee_make_symbolic(&i, sizeof i, "i");
    klee_make_symbolic(&j, sizeof j, "j");
    klee_make_symbolic(&a, sizeof a, "a");
    klee_make_symbolic(&b, sizeof b, "b");
    klee_assume(i < 4);
    klee_assume(j < 3);
    klee_assume(a < 3);
    klee_assume(b < 5);
    klee_assert(items[i].tag == 'a' + (int)i);
    klee_assert(items[i].s == 100 + (int)i);
    int r = 0;
    if (items[i].vals[j] == 21)
        r |= 1;
    if (grid[a][b] == 7)
        r |= 2;
    return r;
}
