// sysinfo and sched_getaffinity fail with ENOSYS under the model (programs fall back to
// sysconf, as coreutils' physmem and nproc do); mkostemp fails like mkstemp (no temporary
// files). Natively they may succeed: the program prints only what holds either way, and a
// missing function would end the path with an exec error instead. One path.
// expect-completed: 1
// expect-error-paths: 0
// expect-test-stdout: pages 1 processors 1\n
// expect-replay: strict
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <unistd.h>

int main(void) {
    struct sysinfo info;
    long pages = sysinfo(&info) == 0 ? (long)info.totalram : sysconf(_SC_PHYS_PAGES);
    cpu_set_t set;
    long cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                            : sysconf(_SC_NPROCESSORS_ONLN);
    char name[] = "tmpXXXXXX";
    int fd = mkostemp(name, 0);
    if (fd >= 0) {
        close(fd);
        unlink(name);
    }
    printf("pages %d processors %d\n", pages > 0, cpus > 0);
    return 0;
}
