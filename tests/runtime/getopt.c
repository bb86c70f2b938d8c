// getopt with GNU argument permutation and glibc's diagnostics: concrete arguments, and a
// symbolic last argument of up to 2 bytes, which getopt sees as an operand (printed with
// length 0, 1 or 2: 3 paths), "-" (an operand), "--", "-a", "-b" missing its argument,
// "-:" or another invalid option = 9 paths.
// program-args: x -a y --sym-arg 2
// expect-completed: 9
// expect-error-paths: 0
// expect-test-stdout: -a\n-a\noperand x\noperand y\n
// expect-test-stdout: -a\noperand x\noperand y\noperand -\n
// expect-test-stderr: getopt: option requires an argument -- 'b'\n
// expect-replay: strict
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int c;
    while ((c = getopt(argc, argv, "ab:")) != -1) {
        if (c == 'a')
            puts("-a");
        else if (c == 'b')
            printf("-b %s\n", optarg);
        else
            puts("?");
    }
    for (int i = optind; i < argc; i++)
        printf("operand %s\n", argv[i]);
    return 0;
}
