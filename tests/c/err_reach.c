// SV-COMP's reach_error (declared, not defined) ends the path with a reach error.
// Reasoning: x == 42 forks: the reach_error path (1 error), the other returns (1 completed).
// expect-completed: 1
// expect-error-paths: 1
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x == 42)
        reach_error(); // expect-error: reach
    return 0;
}
