// Memory accesses through merged pointers simplified by the path's facts (sv-benchmarks'
// array_ptr_single_elem_init on 40 elements): with loop-iteration merging, a[i] is
// ite(c_i, &obj_i, 0) (obj_i kept from the side that allocated it). The check loop's
// `s1 != 0` is c_i (ite lifting), and on the path that took it the pointer `s1` rewritten
// by the path's facts is &obj_i: s1->n and s1->p resolve to that one object at a constant
// offset instead of as a symbolic pointer over both sides.
// Reasoning: the first loop merges into one path; the check loop's branches on c_i and on
// s1->n (fixed to 0 where the object exists) merge too, and the check holds, so one path
// completes without error; the accesses through s1 count as pointers the path decided.
// run: --merge-loop-iterations ;; ;; 1
// expect-summary: errors == 0
// expect-summary: simplification.pointers > 0
#include <stdlib.h>
#include "klee/klee.h"

#define N 40

struct S {
  int *p;
  int n;
};

struct S *a[N];

int main(void) {
  int in[N];
  klee_make_symbolic(in, sizeof in, "in");
  for (int i = 0; i < N; i++) {
    int q = in[i];
    struct S *s = 0;
    if (q == 0) {
      s = malloc(sizeof(struct S));
      s->n = q % 2;
    }
    if (s != 0) {
      if (s->n == 0)
        s->p = malloc(sizeof(int));
      else
        s->p = 0;
    }
    a[i] = s;
  }
  a[3] = malloc(sizeof(struct S));
  for (int i = 0; i < N; i++) {
    struct S *s1 = a[i];
    if (i != 3 && s1 != 0 && s1->n == 0)
      klee_assert(s1->p != 0);
  }
  return 0;
}
