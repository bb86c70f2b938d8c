// --host-file: a read-only copy of a host file, visible under the path given. (Opening
// it for writing fails under sear; natively it may not, e.g. as root, so the program
// does not try.)
// sear-args: --host-file tests/runtime/data/hello.txt
// expect-completed: 1
// expect-test-stdout: 1: hello from the host\n2: second line\n
// expect-replay: strict
#include <stdio.h>

int main(void) {
    FILE *f = fopen("tests/runtime/data/hello.txt", "r");
    if (!f)
        return 1;
    char line[64];
    int n = 0;
    while (fgets(line, sizeof line, f))
        printf("%d: %s", ++n, line);
    fclose(f);
    return 0;
}
