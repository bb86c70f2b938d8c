// A std::map / std::string / std::vector program with a one-past-the-end write: words are
// counted in a map, the counts copied into a vector sized by the number of distinct words,
// and a final "total" slot written one past the end when every word is distinct (each of
// the 6 orders of three distinct letters is a path of its own through the map).
// expect-completed: 7
// expect-error-paths: 6
#include <map>
#include <string>
#include <vector>
#include "klee/klee.h"

int main() {
  char in[3];
  klee_make_symbolic(in, sizeof in, "in");
  std::map<std::string, int> counts;
  for (char c : in) {
    klee_assume((c >= 'a') & (c <= 'c'));
    counts[std::string(1, c)]++;
  }
  std::vector<int> v(counts.size());
  size_t i = 0;
  for (const auto &kv : counts)
    v[i++] = kv.second;
  if (counts.size() == 3)
    v.data()[i] = 3; // expect-error: ptr
  return static_cast<int>(v.size());
}
