// delete of an array made by new[] (ASan's alloc-dealloc-mismatch), on one path; the other
// frees it properly.
// expect-completed: 1
// expect-error-paths: 1
// expect-sear-stderr: alloc-dealloc-mismatch (operator new [] vs operator delete)
#include "klee/klee.h"

int main() {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  int *a = new int[4];
  a[0] = n;
  if (n == 42)
    delete a; // expect-error: free
  else
    delete[] a;
  return 0;
}
