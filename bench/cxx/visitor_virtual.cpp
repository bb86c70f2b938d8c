// bug: div — one class of a polymorphic hierarchy divides by a field that can be zero.
#include <memory>
#include <vector>
#include "klee/klee.h"
struct Expr { virtual ~Expr() = default; virtual int eval() const = 0; };
struct Lit : Expr { int v; explicit Lit(int v) : v(v) {} int eval() const override { return v; } };
struct Div : Expr {
  std::unique_ptr<Expr> a, b;
  Div(std::unique_ptr<Expr> a, std::unique_ptr<Expr> b) : a(std::move(a)), b(std::move(b)) {}
  int eval() const override { return a->eval() / b->eval(); } // BUG: b may be 0
};
int main() {
  int x, y;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_assume(y != -1);
  Div d(std::make_unique<Lit>(x), std::make_unique<Lit>(y));
  return d.eval();
}
