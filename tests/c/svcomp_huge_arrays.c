// SV-COMP's huge arrays: with --sv-comp the stack has no limit of its own (SV-COMP's
// programs assume none), so a 10 GB local array and a 10 GB global cost only the pages the
// path writes. (Before: the local array was a stack overflow, a heap object above 1 GiB
// was NULL.) Not replayed: natively the 10 GB local array overflows the 8 MiB stack.
// Reasoning: one fork on x == 5; the sum is 999 + 999, so the reach_error path is feasible.
// sear-args: --sv-comp --max-memory 500
// expect-completed: 1
// expect-error-paths: 1
// expect-replay: no
// expect-summary: dropped_states == 0
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
#define N 2500000000UL
int g[N];

int main(void) {
    int a[N];
    for (int i = 0; i < 1000; i++) {
        a[i] = i;
        g[N - 1 - i] = i;
    }
    int x = __VERIFIER_nondet_int();
    if (x == 5 && a[999] + g[N - 1000] == 1998)
        reach_error(); // expect-error: reach
    return 0;
}
