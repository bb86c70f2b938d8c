/*
 * poll and the processor set. The model's descriptors never block: poll reports every open
 * descriptor ready for what it asks (POLLIN, POLLOUT), a closed one as POLLNVAL, and returns
 * at once. sched_getaffinity and sysinfo fail with ENOSYS, so programs count processors and
 * memory with sysconf (misc.c).
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
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
