// bug: ptr — front() of an empty std::queue (over std::deque) after pops that outnumber
// pushes; libc++'s deque reads outside its block map.
#include <queue>
#include "klee/klee.h"
int main() {
  unsigned char ops[4];
  klee_make_symbolic(ops, sizeof ops, "ops");
  std::queue<int> q;
  int last = 0;
  for (unsigned char op : ops) {
    if (op < 128) q.push(op);
    else if (!q.empty()) q.pop();
  }
  last = q.front(); // BUG: q may be empty
  return last;
}
