// A constant getelementptr whose index is itself a constant expression: the address of a
// global reached from NULL, &((char *)0)[(long)&a], is &a (KLEE's test of the same shape).
// Before, the index was not folded and the pointer compared unequal.
// Reasoning: no symbolic input: 1 completed path, the assertions hold, the store lands in a.
// expect-completed: 1
// expect-error-paths: 0
#include <assert.h>

int a;

int main(void) {
    char *p = &((char *)0)[(long)&a];
    assert(p == (char *)&a);
    *(int *)p = 5;
    assert(a == 5);
    return 0;
}
