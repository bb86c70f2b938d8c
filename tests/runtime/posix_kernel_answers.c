// What the POSIX model answers where KLEE's does: F_GETLK reports no conflicting lock
// (F_UNLCK), utimes() sets the times stat() then reports (now, for NULL), and read() into
// a NULL buffer fails with EFAULT instead of crashing (a count of 0 reads nothing).
// Reasoning: opening A for writing forks on its symbolic permissions (KLEE's model): the
// path where they deny it exits with status 1; on the other everything the program checks
// is concrete: 2 paths.
// program-args: --sym-files 1 4
// expect-completed: 2
// expect-error-paths: 0
// expect-test-stdout: ok\n
// expect-replay: strict
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

int main(void) {
    int fd = open("A", O_RDWR);
    if (fd < 0)
        return 1;
    struct flock lck = {.l_type = F_WRLCK};
    if (fcntl(fd, F_GETLK, &lck) != 0 || lck.l_type != F_UNLCK)
        return 2;
    struct timeval times[2] = {{1000, 0}, {2000, 0}};
    struct stat sb;
    if (utimes("A", times) != 0 || stat("A", &sb) != 0)
        return 3;
    if (sb.st_atim.tv_sec != 1000 || sb.st_mtim.tv_sec != 2000)
        return 4;
    struct timeval before, after;
    gettimeofday(&before, NULL);
    utimes("A", NULL);
    gettimeofday(&after, NULL);
    stat("A", &sb);
    if (sb.st_mtim.tv_sec < before.tv_sec || sb.st_mtim.tv_sec > after.tv_sec)
        return 5;
    if (read(fd, NULL, 0) != 0)
        return 6;
    if (read(fd, NULL, 1) != -1 || errno != EFAULT)
        return 7;
    printf("ok\n");
    return 0;
}
