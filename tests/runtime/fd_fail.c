// --fd-fail: the first read, the second read or the write may fail with EIO (at most one
// failure per path): read 1 fails; read 2 fails; the write fails; nothing fails = 4.
// read() and write() are called directly, so the native replay's interposed read/write
// see the same calls.
// sear-args: --fd-fail --sym-stdin 2
// expect-completed: 4
// expect-error-paths: 0
// expect-object: read_fail
// expect-object: write_fail
// expect-object: getcwd_fail
// expect-replay: strict
#include <errno.h>
#include <unistd.h>

int main(void) {
    char buf[2];
    if (read(0, buf, 1) != 1)
        return errno == EIO ? 10 : 1;
    if (read(0, buf + 1, 1) != 1)
        return errno == EIO ? 11 : 1;
    if (write(1, "ok\n", 3) != 3)
        return errno == EIO ? 12 : 1;
    return 0;
}
