// bug: abort — std::stoi throws std::invalid_argument on a key without digits, uncaught.
#include <string>
#include "klee/klee.h"
int main() {
  char buf[5];
  klee_make_symbolic(buf, sizeof buf, "buf");
  buf[4] = 0;
  std::string s(buf);
  size_t eq = s.find('=');
  if (eq == std::string::npos) return 1;
  return std::stoi(s.substr(eq + 1)) > 10; // throws for "k=x"
}
