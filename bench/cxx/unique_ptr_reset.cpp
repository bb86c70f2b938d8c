// bug: ptr — use after free through a raw pointer kept across unique_ptr::reset.
#include <memory>
#include "klee/klee.h"
struct Node { int value; };
int main() {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  auto p = std::make_unique<Node>(Node{x});
  Node *raw = p.get();
  if (x == 1234)
    p.reset(new Node{0});
  return raw->value; // BUG: freed when x == 1234
}
