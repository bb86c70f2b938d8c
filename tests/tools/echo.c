// echo: prints its arguments separated by spaces; -n omits the newline.
// With 0 to 2 symbolic arguments of up to 2 bytes: no argument (1 path); one argument:
// "-n" (1), or printed with length 0, 1 or 2 after failing the "-n" test at byte 0, 1 or
// 2 (strcmp: 1 + 2 + 2 = 5 paths with their lengths); two arguments: the first as
// before, times the second's length (3) = 6 x 3 = 18. Total 1 + 6 + 18 = 25.
// run: --sym-args 0 2 2 ;; ;; 25
// run: ;; -n hello -sym-arg 1 ;; 2
// expect-object: n_args
// expect-object: arg00
// expect-object: arg01
// expect-test-stdout: \n
// expect-test-stdout: \x20\n
// expect-test-stdout: hello\x20
// expect-replay: strict
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int newline = 1, i = 1;
    if (argc > 1 && strcmp(argv[1], "-n") == 0) {
        newline = 0;
        i = 2;
    }
    for (; i < argc; i++) {
        fputs(argv[i], stdout);
        if (i + 1 < argc)
            putchar(' ');
    }
    if (newline)
        putchar('\n');
    return 0;
}
