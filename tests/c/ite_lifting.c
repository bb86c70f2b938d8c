// ite lifting (--no-ite-lifting switches it off): after loop-iteration merging, the fields of
// a[i] are ite(c_i, k_i, i) and ite(c_i, k_i * k_i, i) (sv-benchmarks'
// array_of_struct_ptr_mul_init), each read back as the concatenation of four merged bytes.
// The builder lifts the concatenations and the comparisons of ites on one condition, so the
// check's comparisons become ¬c_i ∨ k_i == k_i * k_i and c_i ∨ i == i * i: the side that
// did not write is decided by its condition, without a query over both products.
// Reasoning: both configurations end the same one completed path (the check holds on every
// element); only the lifting one counts lifts.
// sear-configs: --merge-loop-iterations --merge-iteration-max-paths=64 | --merge-loop-iterations --no-ite-lifting
// expect-completed: 1
// expect-summary: ite_lifting.lifted > 0 if max-paths
// expect-summary: ite_lifting.lifted == 0 if no-ite-lifting
#include "klee/klee.h"

#define N 30

struct cell {
  int p;
  int q;
};

struct cell a[N];

int main(void) {
  short c[N];
  unsigned char k[N];
  klee_make_symbolic(c, sizeof c, "c");
  klee_make_symbolic(k, sizeof k, "k");
  for (int i = 0; i < N; i++) {
    a[i].p = i;
    a[i].q = i;
  }
  for (int i = 0; i < N; i++) {
    if (c[i]) {
      a[i].p = k[i];
      a[i].q = k[i] * k[i];
    }
  }
  for (int i = 0; i < N; i++)
    klee_assert(a[i].p == a[i].q || a[i].q == a[i].p * a[i].p);
  return 0;
}
