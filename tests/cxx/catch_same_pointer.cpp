// A pointer thrown and caught as the same pointer type: the handler gets the pointer
// itself (libc++abi's __pointer_type_info::can_catch), not the exception object's address,
// so the virtual call through it dispatches to the derived class (KLEE's
// test/CXX/symex/libc++/catch_with_adjusted_exception_pointer.cpp).
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: Derived 42\n
// expect-test-stdout: Derived 7\n
// expect-replay: strict
#include <cstdio>
#include "klee/klee.h"

struct Base {
  int base_int = 42;
  virtual ~Base() = default;
  virtual const char *name() { return "Base"; }
};

struct Derived : Base {
  const char *name() override { return "Derived"; }
};

int main() {
  Base *bd = new Derived();
  if (klee_range(0, 2, "which"))
    bd->base_int = 7;
  try {
    throw bd;
  } catch (Base *b) {
    std::printf("%s %d\n", b->name(), b->base_int);
  }
  delete bd;
  return 0;
}
