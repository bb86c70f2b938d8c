// --sym-stdout: stdout gets a symbolic status (objects stdout, stdout-stat), as in KLEE;
// what the program prints is still recorded and compared natively.
// sear-args: --sym-stdout
// expect-completed: 1
// expect-object: stdout
// expect-object: stdout-stat
// expect-stdout: regular file\n
#include <stdio.h>
#include <sys/stat.h>

int main(void) {
    struct stat st;
    if (fstat(1, &st) != 0)
        return 1;
    puts(S_ISREG(st.st_mode) ? "regular file" : "not a regular file");
    return 0;
}
