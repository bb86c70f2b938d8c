// A symbolic file is never the file a program creates: stdin's symbolic status (device and
// inode) cannot equal those of "out", which did not exist before (coreutils' split asks
// this before writing "xaa"; natively the two are different files).
// Reasoning: the device comparison forks (stdin's device is symbolic): two paths. On the
// one where the devices are equal, the inodes cannot be, so both print "different". Without
// the inode assumption a third path printed "same", which natively replays differently.
// sear-args: --sym-stdin 2
// expect-completed: 2
// expect-test-stdout: different\n
// expect-replay: strict
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    struct stat in, out;
    if (fstat(0, &in) != 0)
        return 2;
    int fd = open("out", O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || fstat(fd, &out) != 0)
        return 3;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
        puts("same");
        return 1;
    }
    puts("different");
    return 0;
}
