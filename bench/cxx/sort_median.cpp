// bug: div — the average of the values above the median divides by their count, which is
// zero when all values are equal.
#include <algorithm>
#include <vector>
#include "klee/klee.h"
int main() {
  std::vector<int> v(4);
  klee_make_symbolic(v.data(), v.size() * sizeof(int), "v");
  for (int &x : v) klee_assume((x >= 0) & (x < 4));
  std::sort(v.begin(), v.end());
  int median = v[v.size() / 2];
  int count = 0, sum = 0;
  for (int x : v)
    if (x > median) { count++; sum += x; }
  return count ? sum / count : sum / (count - count); // BUG
}
