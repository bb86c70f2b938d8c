// Inline assembly sear cannot run ends the path with an exec error naming it.
// expect-completed: 0
// expect-error-paths: 1
// expect-replay: no
int main() {
  int x = 1;
  asm volatile("xgetbv" : "+a"(x)::"edx", "ecx"); // expect-error: exec
  return x;
}
