// Struct assignment (llvm.memcpy of an aggregate), copies into an array element and
// through pointers, with symbolic contents.
// Reasoning: the copies preserve every byte, so the asserts never fork; one branch on a
// copied symbolic byte: 2 paths.
// expect-completed: 2
// expect-error-paths: 0
#include "klee/klee.h"

struct S {
    int a;
    char b[6];
    long c;
};

static void copy_out(struct S *dst, const struct S *src) { *dst = *src; }

int main(void) {
    struct S s1, s2, s3;
    struct S arr[2];
    klee_make_symbolic(&s1, sizeof s1, "s1");
    s2 = s1;
    arr[1] = s2;
    copy_out(&s3, &arr[1]);
    klee_assert(s3.a == s1.a);
    klee_assert(s3.c == s1.c);
    klee_assert(s3.b[5] == s1.b[5]);
    klee_assert(arr[1].b[0] == s1.b[0]);
    if (s3.b[3] == 'x')
        return 1;
    return 0;
}
