// With _FORTIFY_SOURCE=2 at -O2, glibc's headers call the checking entry points
// (__printf_chk, __sprintf_chk, __memcpy_chk, __strcpy_chk, ...), which the runtime provides.
// sear-args: -O 2 --cflags -D_FORTIFY_SOURCE=2
// expect-completed: 1
// expect-test-stdout: abcde 5 [x=7]\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    char buf[16], out[32];
    strcpy(buf, "abc");
    memcpy(buf + 3, "de", 3);
    snprintf(out, sizeof out, "[x=%d]", argc + 6);
    printf("%s %zu %s\n", buf, strlen(buf), out);
    return 0;
}
