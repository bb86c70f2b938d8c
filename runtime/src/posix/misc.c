/*
 * The rest of the POSIX surface. Names, directories: the current directory
 * is SEAR_CWD and holds every modelled file; unlink and rename work on the model,
 * directories cannot be created (listing it: dir.c). Processes, pipes, sockets,
 * memory mappings are not modelled: they fail with ENOSYS (or the
 * error a sandbox would give) and never touch the host. Signals are
 * recorded but never delivered. Identity queries return fixed values.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sear_rt.h"

#define FAIL(err)                                                              \
  do {                                                                         \
    errno = (err);                                                             \
    return -1;                                                                 \
  } while (0)

/* ---- Names and directories ------------------------------------------------------ */

char *getcwd(char *buf, size_t size) {
  size_t need = sizeof SEAR_CWD;
  if (buf == NULL) {
    size = size > need ? size : need;
    buf = malloc(size);
    if (buf == NULL) {
      errno = ENOMEM;
      return NULL;
    }
  }
  if (size < need) {
    errno = ERANGE;
    return NULL;
  }
  memcpy(buf, SEAR_CWD, need);
  return buf;
}

char *get_current_dir_name(void) { return getcwd(NULL, 0); }

int chdir(const char *path) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL)
    FAIL(ENOENT);
  if (!(n->flags & SEAR_NODE_DIR))
    FAIL(ENOTDIR);
  return 0;
}

int fchdir(int fd) {
  if (__sear_get_desc(fd) == NULL)
    return -1;
  FAIL(ENOTDIR);
}

int unlink(const char *path) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL)
    FAIL(ENOENT);
  if (n->flags & SEAR_NODE_DIR)
    FAIL(EISDIR);
  if (n->flags & (SEAR_NODE_HOST | SEAR_NODE_NULL))
    FAIL(EACCES);
  n->name = NULL; /* open descriptors keep the contents */
  return 0;
}

int unlinkat(int dirfd, const char *path, int flags) {
  if (!__sear_names_cwd(dirfd) && path[0] != '/')
    FAIL(ENOSYS);
  if (flags & AT_REMOVEDIR)
    return rmdir(path);
  return unlink(path);
}

int rmdir(const char *path) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL)
    FAIL(ENOENT);
  FAIL((n->flags & SEAR_NODE_DIR) ? EBUSY : ENOTDIR);
}

int mkdir(const char *path, mode_t mode) {
  (void)mode;
  FAIL(__sear_find_node(path) != NULL ? EEXIST : EACCES);
}

int rename(const char *from, const char *to) {
  struct sear_node *n = __sear_find_node(from);
  if (n == NULL)
    FAIL(ENOENT);
  if (n->flags & (SEAR_NODE_HOST | SEAR_NODE_NULL | SEAR_NODE_DIR))
    FAIL(EACCES);
  const char *name = __sear_cwd_name(to);
  if (strchr(name, '/') != NULL)
    FAIL(EACCES);
  struct sear_node *old = __sear_find_node(to);
  if (old == n)
    return 0;
  if (old != NULL) {
    if (old->flags & (SEAR_NODE_HOST | SEAR_NODE_NULL | SEAR_NODE_DIR))
      FAIL(EACCES);
    old->name = NULL;
  }
  char *copy = strdup(name);
  if (copy == NULL)
    FAIL(ENOMEM);
  n->name = copy;
  return 0;
}

int chmod(const char *path, mode_t mode) {
  (void)mode;
  return __sear_find_node(path) != NULL ? 0 : (errno = ENOENT, -1);
}
int fchmod(int fd, mode_t mode) {
  (void)mode;
  return __sear_get_desc(fd) != NULL ? 0 : -1;
}
int chown(const char *path, uid_t uid, gid_t gid) {
  (void)uid;
  (void)gid;
  return __sear_find_node(path) != NULL ? 0 : (errno = ENOENT, -1);
}
int fchown(int fd, uid_t uid, gid_t gid) {
  (void)uid;
  (void)gid;
  return __sear_get_desc(fd) != NULL ? 0 : -1;
}
int lchown(const char *path, uid_t uid, gid_t gid) { return chown(path, uid, gid); }

/* Sets the access and modification times (both to now when times is NULL). */
int utimes(const char *path, const struct timeval times[2]) {
  struct sear_node *n = __sear_find_node(path);
  if (n == NULL) {
    errno = ENOENT;
    return -1;
  }
  struct timeval now[2];
  if (times == NULL) {
    gettimeofday(&now[0], NULL);
    now[1] = now[0];
    times = now;
  }
  if (n->st != NULL) {
    n->st->st_atim.tv_sec = times[0].tv_sec;
    n->st->st_atim.tv_nsec = times[0].tv_usec * 1000;
    n->st->st_mtim.tv_sec = times[1].tv_sec;
    n->st->st_mtim.tv_nsec = times[1].tv_usec * 1000;
  }
  return 0;
}

/* futimesat(dirfd, path, times): sear's one directory is "/", so the path names the file
 * whatever the directory descriptor. */
int futimesat(int dirfd, const char *path, const struct timeval times[2]) {
  (void)dirfd;
  return utimes(path, times);
}

int link(const char *from, const char *to) {
  (void)from;
  (void)to;
  FAIL(EPERM);
}
int symlink(const char *from, const char *to) {
  (void)from;
  (void)to;
  FAIL(EPERM);
}
ssize_t readlink(const char *path, char *buf, size_t size) {
  (void)buf;
  (void)size;
  FAIL(__sear_find_node(path) != NULL ? EINVAL : ENOENT);
}

mode_t umask(mode_t mask) {
  (void)mask;
  return 022;
}

/* ---- Processes -------------------------------------------------------------------- */

pid_t getpid(void) { return 42; }
pid_t getppid(void) { return 1; }
pid_t getpgrp(void) { return 42; }
pid_t getsid(pid_t pid) {
  (void)pid;
  return 42;
}
pid_t setsid(void) { FAIL(EPERM); }
uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
int setuid(uid_t uid) { return uid == 0 ? 0 : (errno = EPERM, -1); }
int setgid(gid_t gid) { return gid == 0 ? 0 : (errno = EPERM, -1); }
int getgroups(int size, gid_t list[]) {
  (void)size;
  (void)list;
  return 0;
}

pid_t fork(void) { FAIL(ENOSYS); }
pid_t vfork(void) { FAIL(ENOSYS); }
int execv(const char *path, char *const argv[]) {
  (void)path;
  (void)argv;
  FAIL(ENOSYS);
}
int execvp(const char *file, char *const argv[]) {
  (void)file;
  (void)argv;
  FAIL(ENOSYS);
}
int execve(const char *path, char *const argv[], char *const envp[]) {
  (void)path;
  (void)argv;
  (void)envp;
  FAIL(ENOSYS);
}
int execl(const char *path, const char *arg, ...) {
  (void)path;
  (void)arg;
  FAIL(ENOSYS);
}
int execlp(const char *file, const char *arg, ...) {
  (void)file;
  (void)arg;
  FAIL(ENOSYS);
}
pid_t wait(int *status) {
  (void)status;
  FAIL(ECHILD);
}
pid_t waitpid(pid_t pid, int *status, int options) {
  (void)pid;
  (void)status;
  (void)options;
  FAIL(ECHILD);
}
int pipe(int fds[2]) {
  (void)fds;
  FAIL(ENOSYS);
}
int pipe2(int fds[2], int flags) {
  (void)fds;
  (void)flags;
  FAIL(ENOSYS);
}

/* ---- Signals: recorded, never delivered ------------------------------------------------ */

static __sighandler_t handlers[65];

__sighandler_t signal(int sig, __sighandler_t handler) {
  if (sig < 1 || sig > 64 || sig == SIGKILL || sig == SIGSTOP) {
    errno = EINVAL;
    return SIG_ERR;
  }
  __sighandler_t old = handlers[sig];
  handlers[sig] = handler;
  return old;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig < 1 || sig > 64 || sig == SIGKILL || sig == SIGSTOP)
    FAIL(EINVAL);
  if (old != NULL) {
    memset(old, 0, sizeof *old);
    old->sa_handler = handlers[sig];
  }
  if (act != NULL)
    handlers[sig] = act->sa_handler;
  return 0;
}

int sigemptyset(sigset_t *set) {
  memset(set, 0, sizeof *set);
  return 0;
}
int sigfillset(sigset_t *set) {
  memset(set, 0xff, sizeof *set);
  return 0;
}
int sigaddset(sigset_t *set, int sig) {
  if (sig < 1 || sig > 64)
    FAIL(EINVAL);
  set->__val[(sig - 1) / 64] |= 1ul << ((sig - 1) % 64);
  return 0;
}
int sigdelset(sigset_t *set, int sig) {
  if (sig < 1 || sig > 64)
    FAIL(EINVAL);
  set->__val[(sig - 1) / 64] &= ~(1ul << ((sig - 1) % 64));
  return 0;
}
int sigismember(const sigset_t *set, int sig) {
  if (sig < 1 || sig > 64)
    FAIL(EINVAL);
  return (set->__val[(sig - 1) / 64] >> ((sig - 1) % 64)) & 1;
}
int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  (void)how;
  (void)set;
  if (old != NULL)
    memset(old, 0, sizeof *old);
  return 0;
}
unsigned alarm(unsigned seconds) {
  (void)seconds;
  return 0;
}
int pause(void) { FAIL(EINTR); }

int raise(int sig) {
  if (sig == SIGABRT)
    abort();
  return 0;
}

int kill(pid_t pid, int sig) {
  if (pid == 42 || pid == 0)
    return raise(sig);
  FAIL(EPERM);
}

/* ---- System information --------------------------------------------------------------- */

long sysconf(int name) {
  switch (name) {
  case _SC_PAGESIZE:
    return 4096;
  case _SC_CLK_TCK:
    return 100;
  case _SC_OPEN_MAX:
    return SEAR_MAX_FDS;
  case _SC_NPROCESSORS_CONF:
  case _SC_NPROCESSORS_ONLN:
    return 1;
  case _SC_LINE_MAX:
    return 2048;
  case _SC_PHYS_PAGES: /* 1 GiB of memory, half of it available */
    return 262144;
  case _SC_AVPHYS_PAGES:
    return 131072;
  default:
    errno = EINVAL;
    return -1;
  }
}

int getpagesize(void) { return 4096; }

int gethostname(char *name, size_t len) {
  if (len < 5)
    FAIL(ENAMETOOLONG);
  memcpy(name, "sear", 5);
  return 0;
}

int uname(struct utsname *u) {
  memset(u, 0, sizeof *u);
  strcpy(u->sysname, "Linux");
  strcpy(u->nodename, "sear");
  strcpy(u->release, "6.1.0");
  strcpy(u->version, "#1 SMP");
  strcpy(u->machine, "x86_64");
  return 0;
}

int getrlimit(__rlimit_resource_t resource, struct rlimit *r) {
  (void)resource;
  r->rlim_cur = r->rlim_max = RLIM_INFINITY;
  return 0;
}

int setrlimit(__rlimit_resource_t resource, const struct rlimit *r) {
  (void)resource;
  (void)r;
  return 0;
}

int getrusage(int who, struct rusage *u) {
  (void)who;
  memset(u, 0, sizeof *u);
  return 0;
}

/* ---- Not modelled ------------------------------------------------------------------------ */

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  (void)addr;
  (void)len;
  (void)prot;
  (void)flags;
  (void)fd;
  (void)off;
  errno = ENOSYS;
  return MAP_FAILED;
}

int munmap(void *addr, size_t len) {
  (void)addr;
  (void)len;
  FAIL(EINVAL);
}

int socket(int domain, int type, int protocol) {
  (void)domain;
  (void)type;
  (void)protocol;
  FAIL(ENOSYS);
}

int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t) {
  (void)n;
  (void)r;
  (void)w;
  (void)e;
  (void)t;
  FAIL(ENOSYS);
}
