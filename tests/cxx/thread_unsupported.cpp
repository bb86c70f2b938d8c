// std::thread is not supported: the path ends with an exec error naming the feature, at
// the library function sear does not have (in libc++'s <thread> header).
// expect-completed: 0
// expect-error-paths: 1
// expect-errors: exec
// expect-sear-stderr: threads (std::thread)
// expect-replay: no
#include <thread>

static int g;

int main() {
  std::thread t([] { g = 1; });
  t.join();
  return g;
}
