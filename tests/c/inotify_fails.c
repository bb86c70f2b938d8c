// The runtime has no inotify: inotify_init, inotify_init1 and inotify_add_watch fail with
// ENOSYS, as on a kernel built without it, so a program falls back to polling (coreutils'
// `tail -f` had ended its path on the unsupported external function inotify_init).
// Reasoning: every call returns -1 with errno ENOSYS, so main returns 0 on its one path.
// Not replayed natively: the host kernel has inotify, so the replay's calls succeed.
// expect-completed: 1
// expect-error-paths: 0
// expect-exits: 0
// expect-replay: no
#include <errno.h>
#include <sys/inotify.h>

int main(void) {
    if (inotify_init() != -1 || errno != ENOSYS)
        return 1;
    if (inotify_init1(IN_CLOEXEC) != -1 || errno != ENOSYS)
        return 2;
    if (inotify_add_watch(3, "f", IN_MODIFY) != -1 || errno != ENOSYS)
        return 3;
    return 0;
}
