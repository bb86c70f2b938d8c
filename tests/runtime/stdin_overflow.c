// An error driven by the POSIX model: a line longer than the buffer overflows it. A newline
// at byte 0, 1, 2, 3 or 4 ends the line in time (5 paths); five other bytes overflow at the
// fifth (a ptr error, reproduced natively by sear replay from the stdin object).
// sear-args: --sym-stdin 5
// expect-completed: 5
// expect-error-paths: 1
// expect-errors: ptr
// expect-replay: strict
#include <stdio.h>

int main(void) {
    char buf[4];
    int c, i = 0;
    while ((c = getchar()) != EOF && c != '\n')
        buf[i++] = (char)c;
    printf("%d bytes\n", i);
    return buf[0] == 'x';
}
