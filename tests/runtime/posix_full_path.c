// A symbolic file is found by its name ("A") and by its full path built from getcwd()
// (under sear the current directory is "/home/sear", so the path is "/home/sear/A";
// natively it is the test's directory). KLEE's SymFileConsistency.
// Reasoning: both stat calls find the same file: one path, exit status 0.
// program-args: --sym-files 1 3
// expect-completed: 1
// expect-error-paths: 0
// expect-replay: strict
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    struct stat a, b;
    char cwd[256], full[300];
    if (getcwd(cwd, sizeof cwd) == NULL)
        return 1;
    snprintf(full, sizeof full, "%s/%s", cwd, "A");
    if (stat("A", &a) != 0 || stat(full, &b) != 0)
        return 2;
    return a.st_size == b.st_size && a.st_size == 3 ? 0 : 3;
}
