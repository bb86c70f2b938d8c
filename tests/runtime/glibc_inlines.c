// Compiled at -O2, glibc's headers expand getc_unlocked/putc_unlocked into reads of the
// FILE's buffer pointers (empty in the runtime, so they call __uflow/__overflow),
// toupper/isalpha into table reads, feof_unlocked into a flag test. Over 2 symbolic stdin
// bytes, each letter is upper-cased and every other byte copied: 2^2 = 4 paths.
// sear-args: -O 2 --sym-stdin 2
// expect-completed: 4
// expect-error-paths: 0
// expect-replay: strict
#include <ctype.h>
#include <stdio.h>

int main(void) {
    int c, letters = 0;
    while ((c = getc_unlocked(stdin)) != EOF) {
        if (isalpha(c)) {
            letters++;
            putc_unlocked(toupper(c), stdout);
        } else {
            putchar(c);
        }
    }
    printf("\n%d letters%s\n", letters, feof_unlocked(stdin) ? "" : " (no EOF?)");
    return 0;
}
