// SV-COMP's reachability tasks often put the error after a loop that branches on a fresh
// __VERIFIER_nondet_int() in every iteration, so every path to the error is as long as the
// loop and the states multiply with it (array-industry-pattern's *_single_elem_init: 10^5
// iterations). Random-path and covnew spend their selections near the root of that tree;
// with --sv-comp the default searcher also runs a depth-first dive, which follows one path
// to its end while the other two look elsewhere.
// Reasoning: each iteration forks on q == 0; every path of 3,000 iterations reaches the
// check, and a[1500] is 1 on all of them (set after the loop), so the first path to get
// there calls reach_error. The dive needs about 3,000 forks; the instruction budget stops
// random-path + covnew alone long before any path gets that deep.
// sear-args: --sv-comp --search random-path --search nurs:covnew --max-instructions 400000
// expect-error-paths: 1
// expect-sear-stderr: reach_error() called
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

#define N 3000

int main(void) {
    static int a[N];
    for (int i = 0; i < N; i++) {
        int q = __VERIFIER_nondet_int();
        a[i] = 0;
        if (q == 0)
            a[i] = 1;
    }
    a[N / 2] = 1;
    if (a[N / 2] == 1)
        reach_error(); // expect-error: reach
    return 0;
}
