// With --sv-comp, a call of reach_error is SV-COMP's error even though the program defines
// it (as a failing assertion, as SV-COMP's tasks do): a `reach` error at the call, not an
// `assert` inside reach_error, and the run stops there. __VERIFIER_assume(0) ends its path
// silently (SV-COMP's assumption), abort() is an ordinary end of the program.
// Reasoning: x == 42 calls reach_error (1 error path); otherwise x < 0 aborts (1 error
// path: abort), x > 100 meets a false assumption (a silent path, no test), the rest returns
// (1 completed path). dfs takes the false side of each branch first, so the run stops at
// the error after the other paths.
// sear-args: --sv-comp
// expect-completed: 1
// expect-error-paths: 2
// expect-tests: 3
// expect-summary: silent_paths == 1
// expect-sear-stderr: reach_error() called
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "svcomp_reach_defined.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 42)
        reach_error(); // expect-error: reach
    if (x < 0)
        abort(); // expect-error: abort
    if (x > 100)
        __VERIFIER_assume(x < 50);
    return 0;
}
