// main's envp is the environment (KLEE's: the one sear runs in, or --env-file's), sorted
// by name, and getenv agrees with it; sear's and the replay's control variables (SEAR_*,
// ASAN_OPTIONS, ...) are not in it, natively neither (the replay library removes them).
// Reasoning: nothing is symbolic: one path, which prints the three entries.
// sear-args: --env-file tests/runtime/data/env_envp.env
// expect-completed: 1
// expect-test-stdout: A_FIRST=1\nHOME=/home/klee\nPWD=/work\nHOME /home/klee\n
// expect-replay: strict
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    for (char **e = envp; *e != NULL; e++)
        if (strncmp(*e, "SEAR_", 5) != 0 && strncmp(*e, "ASAN_", 5) != 0 &&
            strncmp(*e, "UBSAN_", 6) != 0)
            puts(*e);
    printf("HOME %s\n", getenv("HOME"));
    return 0;
}
