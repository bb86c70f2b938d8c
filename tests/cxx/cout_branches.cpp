// std::cout, std::cerr and std::endl on symbolic branches (libc++'s iostreams over sear's
// C runtime): each path's output is what the program prints natively, interleaved with
// C's stdio in program order; a symbolic number printed is concretised as printf does
// (with its warning), and the test's input is the value printed. Every test replays
// natively with the same stdout and stderr.
// expect-completed: 4
// expect-error-paths: 0
// expect-exits: 0 0 0 3
// expect-test-stdout: small 3\n
// expect-test-stdout: c-stdio then cout: ff 1.5 true\n
// expect-test-stderr: medium\n
// expect-test-stderr: warning: -7 is negative\n
// expect-warning: printf: symbolic value concretized
// expect-replay: strict
#include <cstdio>
#include <iomanip>
#include <iostream>
#include "klee/klee.h"

int main() {
  int x = klee_range(-10, 100, "x");
  if (x < 0) {
    std::cerr << "warning: " << -7 << " is negative" << std::endl;
    return 3;
  }
  if (x < 10) {
    std::cout << "small " << 3 << std::endl;
  } else if (x < 50) {
    std::cerr << "medium" << '\n';
    std::printf("c-stdio then cout: ");
    std::cout << std::hex << 255 << std::dec << ' ' << 1.5 << ' ' << std::boolalpha << true
              << std::endl;
  } else {
    std::cout << "big" << std::endl;
    std::cout << "x = " << std::setw(4) << x << '\n'; // symbolic: concretised
  }
  return 0;
}
