// Global constructors and destructors (llvm.global_ctors, __cxa_atexit) run around main;
// dynamic_cast and typeid work on polymorphic classes; a static local is initialised once.
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: ctor main B B count=1 dtor\n
// expect-test-stdout: ctor main A A count=1 dtor\n
#include <cstdio>
#include <typeinfo>
#include "klee/klee.h"

struct Logger {
  Logger() { std::printf("ctor "); }
  ~Logger() { std::printf("dtor\n"); }
};
static Logger logger;

struct A { virtual ~A() {} };
struct B : A {};

static int counter() {
  static int calls = 0;
  return ++calls;
}

int main() {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  std::printf("main ");
  A *p = x ? static_cast<A *>(new B) : new A;
  std::printf("%s ", dynamic_cast<B *>(p) ? "B" : "A");
  std::printf("%s ", typeid(*p) == typeid(B) ? "B" : "A");
  std::printf("count=%d ", counter());
  delete p;
  return 0;
}
