// strchr and strspn over 3 symbolic bytes (then NUL).
//   strchr(s, 'x'): found at 0, 1 or 2, or NUL at 0, 1, 2, or the final NUL = 7;
//   strspn(s, "ab"): membership is one table read, so each byte forks once (in the set or
//   not): stopping at position 0, 1 or 2, or all three in the set = 4.
// expect-completed: 11
// expect-error-paths: 0
// expect-test-stdout: strchr 1\n
// expect-test-stdout: strchr -1\n
// expect-test-stdout: strspn 3\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char s[4];
    klee_make_symbolic(s, sizeof s, "s");
    s[3] = '\0';
    if (klee_range(0, 2, "which") == 0) {
        char *p = strchr(s, 'x');
        printf("strchr %d\n", p ? (int)(p - s) : -1);
    } else {
        printf("strspn %zu\n", strspn(s, "ab"));
    }
    return 0;
}
