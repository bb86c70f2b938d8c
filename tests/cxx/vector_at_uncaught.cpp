// std::vector::at out of range, left uncaught: the path ends as std::terminate ends the
// process, an abort error naming the exception's type (reported where libc++ throws it, in
// its <stdexcept>). Indices 0..3 print their element, 4..7 throw.
// expect-completed: 1
// expect-error-paths: 1
// expect-errors: abort
// expect-sear-stderr: terminating due to uncaught exception of type std::out_of_range
#include <cstdio>
#include <vector>
#include "klee/klee.h"

int main() {
  std::vector<int> v = {1, 2, 3, 4};
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 8);
  std::printf("%d\n", v.at(i) > 0);
  return 0;
}
