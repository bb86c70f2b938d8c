// bug: assert — a shared_ptr use count assumed to be 1 after copying into a container.
#include <cassert>
#include <memory>
#include <vector>
#include "klee/klee.h"
int main() {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  auto p = std::make_shared<int>(n);
  std::vector<std::shared_ptr<int>> keep;
  if (n > 100)
    keep.push_back(p);
  assert(p.use_count() == 1); // BUG: 2 when kept
  return 0;
}
