// An exception caught in a handler that asserts: the parse throws std::invalid_argument
// for a bad digit, the handler's assertion fails for the digit '!'.
// expect-completed: 2
// expect-error-paths: 1
// expect-test-stdout: ok 7\n
// expect-test-stdout: bad input\n
#include <cassert>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include "klee/klee.h"

static int digit(char c) {
  if (c < '0' || c > '9')
    throw std::invalid_argument(c == '!' ? "bang" : "not a digit");
  return c - '0';
}

int main() {
  char c;
  klee_make_symbolic(&c, sizeof c, "c");
  klee_assume(c == '7' || c == 'x' || c == '!');
  try {
    std::printf("ok %d\n", digit(c));
  } catch (const std::invalid_argument &e) {
    assert(std::strcmp(e.what(), "bang") != 0); // expect-error: assert
    std::printf("bad input\n");
  }
  return 0;
}
