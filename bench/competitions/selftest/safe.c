// sear's own task (not from sv-benchmarks): reach_error is unreachable.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 10 && x < 20 && x * 2 == 5)
    reach_error();
  return 0;
}
