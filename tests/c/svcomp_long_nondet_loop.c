// A long path of independent symbolic branches (SV-COMP's array tasks branch on a
// __VERIFIER_nondet_int() value in loops of 10^5 iterations before the error): 2,000
// iterations each fork on a fresh input; the side with v > 1000 ends silently, so the one
// path that goes on carries 2,000 constraints, each over its own input. Every branch's
// query is about a fresh input whose factor of the path condition is empty: its cost must
// not grow with the path (the path condition is persistent and indexed by factors). The
// error needs the last input below -5.
// Reasoning: dfs takes the false side first: the path with every v <= 1000 reaches the
// end; last >= -5 returns (1 completed path), last < -5 calls reach_error (1 error path).
// With --sv-comp the run stops at the error; the 2,000 silent sides left are not run.
// sear-args: --sv-comp
// expect-completed: 1
// expect-error-paths: 1
// expect-tests: 2
// expect-summary: forks >= 2000
// expect-sear-stderr: reach_error() called
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

#define N 2000

int main(void) {
    int last = 0;
    for (int i = 0; i < N; i++) {
        int v = __VERIFIER_nondet_int();
        if (v > 1000)
            __VERIFIER_assume(0);
        last = v;
    }
    if (last < -5)
        reach_error(); // expect-error: reach
    return 0;
}
