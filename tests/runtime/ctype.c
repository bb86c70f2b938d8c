// ctype.h: glibc's macros read the runtime's tables (one read per test, no fork inside);
// the program's own tests branch: digit, letter (printed upper-cased, a symbolic byte
// passed through printf's %c), space, other = 4 paths. (isalpha) calls the function.
// expect-completed: 4
// expect-error-paths: 0
// expect-test-stdout: digit\n
// expect-test-stdout: space\n
// expect-replay: strict
#include <ctype.h>
#include <stdio.h>
#include "klee/klee.h"

int main(void) {
    unsigned char c;
    klee_make_symbolic(&c, sizeof c, "c");
    if (isdigit(c))
        puts("digit");
    else if ((isalpha)(c))
        printf("letter %c%c\n", toupper(c), (tolower)(c));
    else if (isspace(c))
        puts("space");
    else
        puts("other");
    return 0;
}
