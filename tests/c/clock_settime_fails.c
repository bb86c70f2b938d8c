// The runtime's clock is fixed: clock_settime and settimeofday fail with EPERM, as for an
// unprivileged process (coreutils' `date -s` reached clock_settime through gnulib's
// settime, an unsupported external function that ended the path).
// Reasoning: both calls return -1 with errno EPERM, so main returns 0 on its one path.
// Not replayed natively: run as root, the replay could set the machine's clock.
// expect-completed: 1
// expect-error-paths: 0
// expect-exits: 0
// expect-replay: no
#include <errno.h>
#include <sys/time.h>
#include <time.h>

int main(void) {
    struct timespec ts = {0, 0};
    if (clock_settime(CLOCK_REALTIME, &ts) != -1 || errno != EPERM)
        return 1;
    struct timeval tv = {0, 0};
    if (settimeofday(&tv, 0) != -1 || errno != EPERM)
        return 2;
    return 0;
}
