// strcmp, memcmp and strncmp against constants: one fork per compared byte (equal or
// not), and the program's test of the sign splits the unequal outcomes once more.
//   strcmp(s, "ab"), s of 3 bytes + NUL: s0 < or > 'a' (2), s1 < or > 'b' (2), s2 > 0 (1),
//   equal (1) = 6; memcmp(b, "xy", 2): 2 + 2 + 1 = 5; strncmp(s, "abc", 2): 2 + 2 + 1 = 5.
// expect-completed: 16
// expect-error-paths: 0
// expect-test-stdout: strcmp =\n
// expect-test-stdout: memcmp <\n
// expect-test-stdout: strncmp >\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>
#include "klee/klee.h"

static void show(const char *what, int r) {
    printf("%s %s\n", what, r < 0 ? "<" : r > 0 ? ">" : "=");
}

int main(void) {
    char s[4];
    klee_make_symbolic(s, sizeof s, "s");
    s[3] = '\0';
    switch (klee_range(0, 3, "which")) {
    case 0:
        show("strcmp", strcmp(s, "ab"));
        break;
    case 1:
        show("memcmp", memcmp(s, "xy", 2));
        break;
    default:
        show("strncmp", strncmp(s, "abc", 2));
        break;
    }
    return 0;
}
