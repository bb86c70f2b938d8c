// bug: ptr — a bounded stack over std::vector whose capacity check is off by one.
#include <vector>
#include "klee/klee.h"
class Stack {
  std::vector<int> items_ = std::vector<int>(4);
  size_t top_ = 0;
public:
  bool push(int v) {
    if (top_ > items_.size()) return false; // BUG: should be >=
    items_.data()[top_++] = v;
    return true;
  }
};
int main() {
  unsigned char ops[6];
  klee_make_symbolic(ops, sizeof ops, "ops");
  Stack s;
  for (unsigned char op : ops)
    if (op & 1) s.push(op);
  return 0;
}
