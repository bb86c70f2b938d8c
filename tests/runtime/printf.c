// The printf family formats concrete values exactly as glibc (compared by sear replay);
// a symbolic int is printed as one feasible value with a warning, while a symbolic
// string or character is copied as it is: x > 10 (then %.2s of the 2-byte symbolic name
// forks on its length: 0, 1 or 2) or not = 4 paths.
// expect-completed: 4
// expect-error-paths: 0
// expect-warning: printf: symbolic value concretized
// expect-replay: strict
#include <stdio.h>
#include <string.h>
#include "klee/klee.h"

int main(void) {
    char buf[16];
    printf("[%5d|%-5d|%05d|%+d|% d|%x|%#X|%o|%#o]\n", 42, 42, 42, 42, 42, 255, 255, 8, 8);
    printf("[%s|%10s|%-10s|%.2s|%c|%%|%p|%p]\n", "abc", "abc", "abc", "abc", 'z', (void *)0, (void *)0x1234);
    printf("[%f|%.2f|%e|%g|%g|%.3g|%a]\n", 3.14159, 2.675, 123456.789, 0.0001, 1e20, 2.0 / 3, 1.0);
    printf("[%ld|%lld|%lu|%hhd|%zu|%jd]\n", -1L, 1LL << 40, (unsigned long)-1, 300, sizeof buf, (long long)-7);
    int n = snprintf(buf, 5, "%s", "truncated");
    printf("snprintf %d [%s]\n", n, buf);
    sprintf(buf, "%03d-%c", 7, 'q');
    puts(buf);
    fprintf(stderr, "to stderr %d\n", 1);

    char name[3];
    klee_make_symbolic(name, sizeof name, "name");
    name[2] = '\0';
    int x = klee_int("x");
    char c;
    klee_make_symbolic(&c, 1, "c");
    if (x > 10)
        printf("big %d [%.2s] <%c>\n", x, name, c);
    else
        printf("small %d <%c>\n", x, c);
    return 0;
}
