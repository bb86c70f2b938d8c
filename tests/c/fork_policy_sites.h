// Fork sites of every kind, for tests/c/fork_policy_*.c: each forks into two paths (none of
// them an error) unless a fork policy refuses.
#include <stdlib.h>
#include <string.h>
#include "klee/klee.h"

static int a[4], b[4];
static int f(void) { return 1; }
static int g(void) { return 2; }

// A two-way branch.
static int site_branch(int x) {
    if (x > 10)
        return f();
    return g();
}

// A switch with two feasible targets.
static int site_switch(int x) {
    switch (x & 1) {
    case 0: return 1;
    default: return 2;
    }
}

// A symbolic pointer into one of two objects.
static int site_pointer(int x) {
    int *ptrs[2] = {a, b};
    int *p = ptrs[x & 1];
    *p = 7;
    return 1;
}

// A call through a symbolic function pointer with two targets.
static int site_function_pointer(int x) {
    int (*fs[2])(void) = {f, g};
    return fs[x & 1]();
}

// A symbolic allocation size (KLEE's concretisation: one size, then the others).
static int site_size(int x) {
    char *p = malloc((size_t)(x & 1) + 1);
    if (p)
        p[0] = 1;
    return 1;
}

// memcpy from a symbolic pointer: a whole operation that forks inside.
static int site_memcpy(int x) {
    int *ptrs[2] = {a, b};
    int dst[4];
    memcpy(dst, ptrs[x & 1], sizeof dst);
    return dst[0] + 1;
}
