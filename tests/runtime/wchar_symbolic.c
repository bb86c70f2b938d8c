// mbrtowc and iswprint on a symbolic byte in the C locale: the byte is invalid (>= 0x80),
// the NUL, printable (0x20..0x7e) or a control character (1..0x1f, 0x7f): 4 paths, each
// replaying with glibc's answer.
// expect-completed: 4
// expect-error-paths: 0
// expect-test-stdout: invalid\n
// expect-test-stdout: nul\n
// expect-test-stdout: print\n
// expect-test-stdout: control\n
// expect-replay: strict
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "klee/klee.h"

int main(void) {
    char c;
    klee_make_symbolic(&c, sizeof c, "c");
    mbstate_t st;
    memset(&st, 0, sizeof st);
    wchar_t w;
    size_t r = mbrtowc(&w, &c, 1, &st);
    if (r == (size_t)-1)
        puts("invalid");
    else if (r == 0)
        puts("nul");
    else if (iswprint((wint_t)w))
        puts("print");
    else
        puts("control");
    return 0;
}
