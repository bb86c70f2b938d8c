// --sym-stdout: stdout gets a symbolic file status (objects stdout, stdout-stat), as in
// KLEE; what the program prints is still recorded and compared natively.
// Reasoning: the status's type is symbolic (the test prefers a regular file): fstat then
// S_ISREG forks, 2 paths; the replay answers fstat(1) from the test's stdout-stat.
// sear-args: --sym-stdout
// expect-completed: 2
// expect-object: stdout
// expect-object: stdout-stat
// expect-test-stdout: regular file\n
// expect-test-stdout: not a regular file\n
// expect-replay: strict
#include <stdio.h>
#include <sys/stat.h>

int main(void) {
    struct stat st;
    if (fstat(1, &st) != 0)
        return 1;
    puts(S_ISREG(st.st_mode) ? "regular file" : "not a regular file");
    return 0;
}
