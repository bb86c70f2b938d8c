// clock_settime_fails.c as a 32-bit program: the replay runs an i386 executable, whose
// clock calls are i386 system calls (clock_settime64 with glibc's 64-bit time); the
// replay's seccomp filter answers them with EPERM as well (replay/clock_guard.rs).
// Reasoning: under sear both calls fail with EPERM (the runtime's fixed clock), so main
// returns 0 on its one path; natively the filter makes them fail the same way.
// sear-args: --cflags=-m32
// expect-completed: 1
// expect-error-paths: 0
// expect-exits: 0
#include <errno.h>
#include <sys/time.h>
#include <time.h>

int main(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (clock_settime(CLOCK_REALTIME, &ts) != -1 || errno != EPERM)
        return 1;
    struct timeval tv;
    gettimeofday(&tv, 0);
    if (settimeofday(&tv, 0) != -1 || errno != EPERM)
        return 2;
    return 0;
}
