// --sym-files 1 2: fopen/fgetc/fstat on the symbolic file A, a missing file B, and a
// file the program creates, writes and reads back. A's file type is symbolic (KLEE's
// model): the path where it is no regular file exits with 2; on the other, counting 'a'
// bytes in A: 2^2 = 4. 5 paths.
// sear-args: --sym-files 1 2
// expect-completed: 5
// expect-error-paths: 0
// expect-object: A-data
// expect-object: A-data-stat
// expect-test-stderr: B: No such file or directory\n
// expect-test-stdout: size 2\ncount 2\nout: count=2\n
// expect-replay: strict
#include <stdio.h>
#include <sys/stat.h>

int main(void) {
    FILE *f = fopen("A", "r");
    if (!f)
        return 1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        return 2;
    printf("size %lld\n", (long long)st.st_size);
    int c, count = 0;
    while ((c = fgetc(f)) != EOF)
        if (c == 'a')
            count++;
    fclose(f);
    printf("count %d\n", count);
    if (fopen("B", "r") == NULL)
        perror("B");
    FILE *o = fopen("out.txt", "w");
    fprintf(o, "count=%d\n", count);
    fclose(o);
    char line[32];
    o = fopen("out.txt", "r");
    if (!o || !fgets(line, sizeof line, o))
        return 3;
    printf("out: %s", line);
    fclose(o);
    return 0;
}
