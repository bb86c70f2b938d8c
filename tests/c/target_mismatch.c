// KLEE's Feature/TargetMismatch: a program compiled for i386 (-m32) on an x86-64 host. KLEE
// warns that the module's and the host's target triples differ and runs it; so does sear,
// with the module's 32-bit data layout and its i386 runtime.
// Reasoning: main returns 0 on its one path.
// sear-args: --cflags=-m32
// expect-completed: 1
// expect-exits: 0
// expect-sear-stderr: module and host target triples do not match
int main(void) {}
