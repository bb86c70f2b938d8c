// A symbolic file's permissions are symbolic, as in KLEE: opening it for writing fails
// with EACCES on the path where its mode grants no write (for O_RDWR: or no read)
// permission; a read-only open is not checked (KLEE's model); replay applies the same rule
// to the recorded A-data-stat.
// Reasoning: open(O_RDWR) forks once (allowed / EACCES); open(O_RDONLY) does not fork:
// 2 paths.
// sear-args: --sym-files 1 4
// expect-completed: 2
// expect-test-stdout: read-only ok\nread-write ok\n
// expect-test-stdout: read-only ok\nread-write denied 13\n
// expect-replay: strict
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int fd = open("A", O_RDONLY);
    if (fd < 0)
        return 1;
    puts("read-only ok");
    close(fd);
    fd = open("A", O_RDWR);
    if (fd < 0) {
        printf("read-write denied %d\n", errno);
        return 0;
    }
    puts("read-write ok");
    close(fd);
    return 0;
}
