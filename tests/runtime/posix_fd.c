// File descriptors over a symbolic file: open, read, lseek, dup (shared offset), pread,
// stat, access, unlink. One symbolic test (first byte 'x') = 2 paths.
// sear-args: --sym-files 1 3
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: first is x\nend 3\ndup offset 1\npread ok\nstat 3\naccess ok\nunlinked\n
// expect-replay: strict
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    int fd = open("A", O_RDONLY);
    if (fd < 0)
        return 1;
    char c, d;
    if (read(fd, &c, 1) != 1)
        return 2;
    puts(c == 'x' ? "first is x" : "first is not x");
    off_t end = lseek(fd, 0, SEEK_END);
    printf("end %lld\n", (long long)end);
    lseek(fd, 1, SEEK_SET);
    int fd2 = dup(fd);
    printf("dup offset %lld\n", (long long)lseek(fd2, 0, SEEK_CUR));
    if (pread(fd2, &d, 1, 0) == 1 && d == c)
        puts("pread ok");
    close(fd);
    close(fd2);
    struct stat st;
    if (stat("A", &st) == 0)
        printf("stat %lld\n", (long long)st.st_size);
    if (access("A", R_OK) == 0 && access("missing", F_OK) == -1 && errno == ENOENT)
        puts("access ok");
    if (unlink("A") == 0 && open("A", O_RDONLY) == -1)
        puts("unlinked");
    return 0;
}
