// --sym-stdin 3: getchar over three symbolic bytes, counting newlines: 2^3 = 8 paths.
// sear-args: --sym-stdin 3
// expect-completed: 8
// expect-error-paths: 0
// expect-object: stdin
// expect-object: stdin-stat
// expect-object: model_version
// expect-test-stdout: 3 lines\n
// expect-test-stdout: 0 lines\n
// expect-replay: strict
#include <stdio.h>

int main(void) {
    int c, lines = 0;
    while ((c = getchar()) != EOF)
        if (c == '\n')
            lines++;
    printf("%d lines\n", lines);
    return feof(stdin) ? 0 : 1;
}
