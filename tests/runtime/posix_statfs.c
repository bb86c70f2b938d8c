// statfs/fstatfs/statvfs on the model's file system: they succeed for the model's files and
// descriptors (fixed numbers: an ext4 file system with 4 KiB blocks), fail with ENOENT for a
// missing file and EBADF for a closed descriptor; posix_fadvise accepts open descriptors.
// Only what holds natively too is printed, so the test replays identically.
// expect-completed: 1
// expect-error-paths: 0
// expect-test-stdout: statfs / 0 blocks 1 | missing -1 ENOENT 1 | fstatfs 0 | bad -1 EBADF 1 | statvfs 0 names 1 | fadvise 0 bad 1\n
// expect-replay: strict
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

int main(void) {
    struct statfs s;
    struct statvfs v;
    int r = statfs("/", &s);
    printf("statfs / %d blocks %d | ", r, s.f_bsize > 0 && s.f_blocks >= s.f_bfree);
    errno = 0;
    r = statfs("/no/such/file", &s);
    printf("missing %d ENOENT %d | ", r, errno == ENOENT);
    printf("fstatfs %d | ", fstatfs(1, &s));
    errno = 0;
    r = fstatfs(99, &s);
    printf("bad %d EBADF %d | ", r, errno == EBADF);
    r = statvfs("/", &v);
    printf("statvfs %d names %d | ", r, v.f_namemax >= 14);
    printf("fadvise %d bad %d\n", posix_fadvise(1, 0, 0, POSIX_FADV_SEQUENTIAL),
           posix_fadvise(99, 0, 0, POSIX_FADV_SEQUENTIAL) == EBADF);
    return 0;
}
