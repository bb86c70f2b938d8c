// sscanf on concrete strings, then "%d" on one symbolic byte (then NUL), which is not a
// space or a sign: the end of the input (EOF), a digit, or another byte = 3 paths.
// expect-completed: 3
// expect-test-stdout: 12 -7 word x 255 3\nparsed 1\n
// expect-test-stdout: 12 -7 word x 255 3\nparsed 0\n
// expect-test-stdout: 12 -7 word x 255 3\nparsed -1\n
// expect-replay: strict
#include <stdio.h>
#include "klee/klee.h"

int main(void) {
    int a, b, n, h;
    char w[8], c;
    sscanf("12 -7 word x ff", "%d %d %7s %c %x%n", &a, &b, w, &c, &h, &n);
    printf("%d %d %s %c %d %d\n", a, b, w, c, h, n > 0 ? 3 : 0);
    char s[2];
    klee_make_symbolic(s, sizeof s, "s");
    s[1] = '\0';
    klee_assume((unsigned char)(s[0] - '\t') > 4); /* not \t \n \v \f \r */
    klee_assume(s[0] != ' ');
    klee_assume(s[0] != '-');
    klee_assume(s[0] != '+');
    int v;
    printf("parsed %d\n", sscanf(s, "%d", &v));
    return 0;
}
