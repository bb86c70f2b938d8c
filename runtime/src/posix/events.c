/*
 * poll and the processor set. The model's descriptors never block: poll reports every open
 * descriptor ready for what it asks (POLLIN, POLLOUT), a closed one as POLLNVAL, and returns
 * at once. sched_getaffinity and sysinfo fail with ENOSYS, so programs count processors and
 * memory with sysconf (misc.c). The model has no inotify either: its calls fail with ENOSYS,
 * as on a kernel built without it, so a program falls back to polling (coreutils' tail -f).
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <sys/inotify.h>
#include <sys/sysinfo.h>

#include "sear_rt.h"

int poll(struct pollfd *fds, nfds_t n, int timeout) {
  (void)timeout;
  int ready = 0;
  for (nfds_t i = 0; i < n; i++) {
    fds[i].revents = 0;
    if (fds[i].fd < 0)
      continue;
    int saved = errno;
    if (__sear_get_desc(fds[i].fd) == NULL) {
      errno = saved;
      fds[i].revents = POLLNVAL;
    } else {
      fds[i].revents = fds[i].events & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
    }
    if (fds[i].revents != 0)
      ready++;
  }
  return ready;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
  (void)pid;
  (void)size;
  (void)set;
  errno = ENOSYS;
  return -1;
}

int sysinfo(struct sysinfo *info) {
  (void)info;
  errno = ENOSYS;
  return -1;
}

int inotify_init(void) {
  errno = ENOSYS;
  return -1;
}

int inotify_init1(int flags) {
  (void)flags;
  errno = ENOSYS;
  return -1;
}

int inotify_add_watch(int fd, const char *path, uint32_t mask) {
  (void)fd;
  (void)path;
  (void)mask;
  errno = ENOSYS;
  return -1;
}

int inotify_rm_watch(int fd, int wd) {
  (void)fd;
  (void)wd;
  errno = ENOSYS;
  return -1;
}
