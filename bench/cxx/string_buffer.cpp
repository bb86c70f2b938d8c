// bug: ptr — copying a std::string into a fixed buffer without room for the terminator.
#include <cstring>
#include <string>
#include "klee/klee.h"
int main() {
  char in[9];
  klee_make_symbolic(in, sizeof in, "in");
  in[8] = 0;
  std::string s(in);
  char *out = new char[8];
  if (s.size() <= 8)
    std::memcpy(out, s.c_str(), s.size() + 1); // BUG: 9 bytes when size is 8
  int r = out[0];
  delete[] out;
  return r;
}
