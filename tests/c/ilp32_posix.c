// A 32-bit program with the POSIX model: the i386 runtime's structures follow the i386 ABI
// (struct stat, off_t and long of 4 bytes; stat64 converted), printf formats its longs, and
// the tests replay natively as a 32-bit executable.
// Reasoning: fstat of the symbolic stdin succeeds with a 4-byte size (no exit 4); read gets
// its 4 bytes (no exit 3); buf[0] == 'a' prints and exits 1, else exit 0. The stat64 of a
// missing file fails (no exit 5). 2 paths.
// sear-args: --cflags=-m32 --cflags=-D_FILE_OFFSET_BITS=64 --sym-stdin 4
// expect-completed: 2
// expect-exits: 0 1
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
    struct stat st;
    if (fstat(0, &st) != 0 || st.st_size != 4 || sizeof(st.st_size) != 8)
        return 4;
    if (stat("/no/such/file", &st) == 0)
        return 5;
    char buf[4];
    if (read(0, buf, sizeof buf) != 4 || lseek(0, 0, SEEK_CUR) != 4)
        return 3;
    if (buf[0] == 'a') {
        printf("%ld %zu %d\n", (long)sizeof(long), sizeof(void *), (int)buf[0]);
        return 1;
    }
    return 0;
}
