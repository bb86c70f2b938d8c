// The runtime's clock is fixed: clock_settime and settimeofday fail with EPERM, as for an
// unprivileged process (coreutils' `date -s` reached clock_settime through gnulib's
// settime, an unsupported external function that ended the path).
// Reasoning: both calls return -1 with errno EPERM, so main returns 0 on its one path.
// Replayed natively, the replay's seccomp filter makes both calls fail with EPERM for root
// too (replay/clock_guard.rs), so the native run exits 0 as well; without the filter, root
// would set the clock (here to the time just read, so a failure of the test moves it by
// less than a second) and the replay would exit 1 or 2.
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
