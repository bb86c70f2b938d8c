// Destructors run while an exception unwinds through two frames, innermost first, and the
// handler sees the value thrown; the other path returns normally (destructors at scope end).
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: ~inner ~outer caught 3\n
// expect-test-stdout: ~inner ~outer done\n
#include <cstdio>
#include "klee/klee.h"

struct Noisy {
  const char *name;
  ~Noisy() { std::printf("~%s ", name); }
};

static void inner(int x) {
  Noisy n{"inner"};
  if (x == 3)
    throw x;
}

static void outer(int x) {
  Noisy n{"outer"};
  inner(x);
}

int main() {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  try {
    outer(x);
    std::printf("done\n");
  } catch (int v) {
    std::printf("caught %d\n", v);
  }
  return 0;
}
