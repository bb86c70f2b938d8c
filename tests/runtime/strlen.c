// strlen of a 4-byte symbolic string with a terminating NUL: one path per length.
// expect-completed: 5
// expect-error-paths: 0
// expect-test-stdout: 0\n
// expect-test-stdout: 4\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char s[5];
    klee_make_symbolic(s, sizeof s, "s");
    s[4] = '\0';
    printf("%zu\n", strlen(s));
    return 0;
}
