// Handlers matched by type: a derived class caught by its base (single and multiple
// inheritance, with the base at a non-zero offset), a std::exception subclass by
// std::exception, a pointer to a derived class by a pointer to its base, anything else by
// catch (...); a rethrow reaches the outer handler. The same paths under the relocatable
// memory model and the Bitwuzla core.
// sear-configs: --core-solver=z3 | --memory-model=relocatable | --core-solver=bitwuzla
// expect-completed: 6
// expect-error-paths: 0
// expect-test-stdout: Base 1\n
// expect-test-stdout: Second 22\n
// expect-test-stdout: std::exception range\n
// expect-test-stdout: Base* 1\n
// expect-test-stdout: ...\n
// expect-test-stdout: rethrown 5\n
#include <cstdio>
#include <stdexcept>
#include "klee/klee.h"

struct Base { int b = 1; virtual ~Base() {} };
struct Derived : Base {};
struct First { int f = 11; virtual ~First() {} };
struct Second { int s = 22; virtual ~Second() {} };
struct Both : First, Second {};

static Derived shared;

static void thrower(int k) {
  switch (k) {
  case 0: throw Derived();
  case 1: throw Both();
  case 2: throw std::out_of_range("range");
  case 3: throw &shared;
  case 4: throw 2.5;
  default:
    try {
      throw k;
    } catch (int) {
      throw; // rethrow to main's handler
    }
  }
}

int main() {
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume((k >= 0) & (k <= 5));
  try {
    thrower(k);
  } catch (const Base &e) {
    std::printf("Base %d\n", e.b);
  } catch (const Second &e) {
    std::printf("Second %d\n", e.s);
  } catch (const std::exception &e) {
    std::printf("std::exception %s\n", e.what());
  } catch (Base *p) {
    std::printf("Base* %d\n", p->b);
  } catch (int v) {
    std::printf("rethrown %d\n", v);
  } catch (...) {
    std::printf("...\n");
  }
  return 0;
}
