// Virtual dispatch through a base pointer to a division by zero in one override.
// expect-completed: 2
// expect-error-paths: 1
#include "klee/klee.h"

struct Shape {
  virtual int scale(int x) = 0;
  virtual ~Shape() {}
};
struct Ratio : Shape {
  int scale(int x) override { return 100 / x; } // expect-error: div
};
struct Same : Shape {
  int scale(int x) override { return x; }
};

int main() {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  Shape *s = x > 5 ? static_cast<Shape *>(new Same) : static_cast<Shape *>(new Ratio);
  int r = s->scale(x);
  delete s;
  return r > 0;
}
