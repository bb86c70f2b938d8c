// Directory listing (KLEE's DirSeek, DirConsistency): the current directory lists ".",
// "..", then its files in name order (sorted natively too, by the replay library); rewinddir
// lists again (a file created meanwhile appears), telldir/seekdir return to a position,
// dirfd works with the *at functions, a missing directory is ENOENT.
// Reasoning: nothing the program branches on is symbolic: one path.
// sear-args: --sym-files 2 2
// expect-completed: 1
// expect-test-stdout: . .. A B \n. .. A B c.txt \nagain B\nfstatat 2\nmissing 2\n
// expect-replay: strict
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void list(DIR *d) {
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        printf("%s ", e->d_name);
    printf("\n");
}

int main(void) {
    DIR *d = opendir(".");
    if (d == NULL)
        return 1;
    list(d);
    int fd = open("c.txt", O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return 2;
    close(fd);
    rewinddir(d);
    list(d);
    rewinddir(d);
    readdir(d);
    readdir(d);
    readdir(d);
    long pos = telldir(d);
    struct dirent *e = readdir(d);
    seekdir(d, pos);
    struct dirent *again = readdir(d);
    if (e == NULL || again == NULL || strcmp(again->d_name, "B") != 0)
        return 3;
    printf("again %s\n", again->d_name);
    struct stat st;
    if (fstatat(dirfd(d), "A", &st, 0) != 0)
        return 4;
    printf("fstatat %lld\n", (long long)st.st_size);
    closedir(d);
    if (opendir("missing") == NULL)
        printf("missing %d\n", errno);
    return 0;
}
