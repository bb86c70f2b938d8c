// With --sv-comp the stack has no limit of its own, so a variable-length array of a huge
// nondet size is no stack overflow: the sizes sear does not explore (a symbolic size is
// concretised as KLEE does) end their paths early, never as an error, and the verdict is
// UNKNOWN, not a false alarm. (Before: the sizes above 2^31 bytes were a `ptr` stack
// overflow even though the stack held 1 TiB.)
// Reasoning: n > 0 and the size 4n is concretised to 128 (n == 32, which completes), the
// smallest size gets its own path (n == 1, which completes), the other sizes end early
// (2 early paths: the huge ones and the rest); n <= 0 returns (completed). Not replayed:
// natively the huge sizes overflow the 8 MiB stack.
// sear-args: --sv-comp
// expect-replay: no
// expect-completed: 3
// expect-error-paths: 0
// expect-summary: early_paths == 2
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n > 0) {
        int a[n];
        for (int i = 0; i < n; i++)
            a[i] = i;
        if (a[n - 1] != n - 1)
            reach_error();
    }
    return 0;
}
