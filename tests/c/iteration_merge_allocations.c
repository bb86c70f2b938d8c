// Loop-iteration merging with an allocation on one side of the fork (sv-benchmarks'
// array_of_struct_ptr_cond_init): each iteration mallocs a record, and where the input
// says so a second object that the record points to. The two sides hold different objects;
// with --merge-iteration-allocations (on by default) they merge all the same: the merged
// path keeps the object (its contents from the side that allocated it) and the record's
// pointer is ite(c_i, &obj, 0). The check loop reads the pointers back and finds them
// non-null exactly where the input said so, so no error is reported; the second check (an
// off-by-one bug: the last record's flag is asked for the wrong answer) is still found.
// Reasoning: 20 iterations with one fork each merge into one path (20 objects kept from one
// side); the check loop forks per element and merges too; the bug's branch is one error.
// (iteration_merge_refused.c has the same pattern with the objects' merge switched off.)
// run: --merge-loop-iterations ;; ;; 1
// expect-summary: errors == 1
// expect-summary: loop_iteration_merging.one_sided_objects >= 20
// expect-summary: loop_iteration_merging.refused.allocations == 0
// expect-summary: loop_iteration_merging.released_unmerged == 0
#include <stdlib.h>
#include "klee/klee.h"

#define N 20

struct record {
  int *p;
  int n;
};

struct record *a[N];

int main(void) {
  int in[N];
  klee_make_symbolic(in, sizeof in, "in");
  for (int i = 0; i < N; i++) {
    struct record *r = malloc(sizeof *r);
    r->n = in[i];
    if (r->n == 1) {
      r->p = malloc(sizeof(int));
      *r->p = i;
    } else {
      r->p = 0;
    }
    a[i] = r;
  }
  for (int i = 0; i < N; i++) {
    struct record *r = a[i];
    if (r->n == 1) {
      klee_assert(r->p != 0);
      klee_assert(*r->p == i);
    } else {
      klee_assert(r->p == 0);
    }
  }
  if (a[N - 1]->p != 0 && a[N - 1]->n == 1)
    klee_assert(*a[N - 1]->p == 0); // expect-error: assert
  return 0;
}
