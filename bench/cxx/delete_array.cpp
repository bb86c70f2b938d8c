// bug: free — an array made with new[] released with delete (alloc-dealloc-mismatch) on
// one branch of a small matrix class.
#include "klee/klee.h"
struct Matrix {
  int n;
  int *cells;
  explicit Matrix(int n) : n(n), cells(new int[n * n]()) {}
  ~Matrix() {
    if (n > 2) delete cells; // BUG: should be delete[]
    else delete[] cells;
  }
};
int main() {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume((n > 0) & (n < 4));
  Matrix m(n);
  m.cells[0] = 1;
  return m.cells[0];
}
