// A std::istringstream parses two symbolic bytes as an int (libc++'s num_get over the C
// locale: a path per digit value), the first a digit or '-', the second a digit, a space
// or the end; the value 42 fails the assertion, a lone '-' is no number. std::ostringstream,
// std::to_string and std::stoi on the parsed value. Every test replays natively with the
// same output.
// expect-completed: 131
// expect-error-paths: 1
// expect-errors: assert
// expect-test-stdout: parsed 7 -> "7" 8\n
// expect-test-stdout: no number\n
#include <cassert>
#include <iostream>
#include <sstream>
#include <string>
#include "klee/klee.h"

int main() {
  char text[3];
  klee_make_symbolic(text, sizeof text, "text");
  klee_assume(((text[0] >= '0' & text[0] <= '9') | text[0] == '-') &
              ((text[1] >= '0' & text[1] <= '9') | text[1] == ' ' | text[1] == '\0') &
              text[2] == '\0');
  std::istringstream in(text);
  int v;
  if (!(in >> v)) {
    std::cout << "no number\n";
    return 1;
  }
  assert(v != 42); // expect-error: assert
  std::ostringstream out;
  out << "parsed " << v << " -> \"" << std::to_string(v) << "\" " << std::stoi(std::to_string(v + 1));
  std::cout << out.str() << std::endl;
  return 0;
}
