// strcasecmp folds case without forking: per byte the (folded) bytes differ, by sign
// (2), or are equal. strcasecmp(s, "Ab") with s of 2 bytes + NUL: 2 + 2 + 1 = 5.
// expect-completed: 5
// expect-error-paths: 0
// expect-test-stdout: equal\n
// expect-test-stdout: less\n
// expect-test-stdout: greater\n
// expect-replay: strict
#include <stdio.h>
#include <strings.h>
#include "klee/klee.h"

int main(void) {
    char s[3];
    klee_make_symbolic(s, sizeof s, "s");
    s[2] = '\0';
    int r = strcasecmp(s, "Ab");
    puts(r < 0 ? "less" : r > 0 ? "greater" : "equal");
    return 0;
}
