// With --sv-comp, a symbolic allocation size is concretised as KLEE does (the smallest
// halving of a feasible size down to 128 bytes) and the smallest feasible size gets a path
// of its own: SV-COMP's errors sit at the boundaries, and here only one element fails
// (as in sv-benchmarks' array-fpi/modsf: (1 + sum) % sum is 0 only when sum == 1).
// Reasoning: n > 0 and 4 * n bytes: the concretised size 128 (n == 32: a[i] == 1), the
// smallest size 4 (n == 1: a[0] == 0, the reach error), and the rest ends early (n up to
// 2^29 - 1). The run stops at the reach error (--sv-comp), so which other paths completed
// depends on the search order; without the smallest size there was no error at all.
// sear-args: --sv-comp
// expect-error-paths: 1
// expect-summary: early_paths >= 1
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n <= 0 || n >= (1 << 29))
        return 0;
    int *a = malloc(sizeof(int) * (unsigned long)n);
    if (!a)
        return 0;
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += 1;
    for (int i = 0; i < n; i++)
        a[i] = (1 + sum) % sum;
    for (int i = 0; i < n; i++)
        if (a[i] != 1)
            reach_error(); // expect-error: reach
    return 0;
}
