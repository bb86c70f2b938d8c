// --max-fail: close() is a failure point too (close_fail), and stdio's writes to stdout are
// not (KLEE's uclibc buffers stdout and writes it at exit), so printf between the calls
// does not multiply the paths. (KLEE's FD_Fail2: 4 tests, not 6.)
// Reasoning: the read may fail or not, the close may fail or not, at most two failures:
// 2 * 2 = 4 paths, whatever the printf calls.
// sear-args: --search dfs
// program-args: --sym-files 1 10 --max-fail 2
// expect-completed: 4
// expect-error-paths: 0
// expect-object: close_fail
// expect-test-stdout: read ok\nclose failed\n
// expect-replay: strict
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char buf[8];
    int fd = open("A", O_RDONLY);
    if (fd < 0)
        return 9;
    if (read(fd, buf, 5) >= 0)
        printf("read ok\n");
    else
        printf("read failed\n");
    if (close(fd) == 0)
        printf("close ok\n");
    else
        printf("close failed\n");
    return 0;
}
