// bug: abort — std::map::at on a key that was never inserted (std::out_of_range).
#include <map>
#include "klee/klee.h"
int main() {
  int keys[3];
  klee_make_symbolic(keys, sizeof keys, "keys");
  std::map<int, int> m;
  for (int k : keys)
    if (k >= 0 && k < 4) m[k] = k * 2;
  int sum = 0;
  for (int k = 0; k < 2; k++)
    sum += m.at(k); // BUG: 0 and 1 may be missing
  return sum;
}
