// std::cin >> int reads the POSIX model's symbolic stdin (--sym-stdin): one byte, each
// digit its own path (libc++'s num_get), and bytes that are no number set failbit.
// Every test replays natively, stdin rebuilt from the test's `stdin` object.
// sear-args: --sym-stdin 1
// expect-test-stdout: seven\n
// expect-test-stdout: digit 3\n
// expect-test-stderr: not a number\n
// expect-object: stdin
#include <iostream>

int main() {
  int x;
  if (!(std::cin >> x)) {
    std::cerr << "not a number" << std::endl;
    return 1;
  }
  if (x == 7)
    std::cout << "seven" << std::endl;
  else
    std::cout << "digit " << x << std::endl;
  return 0;
}
