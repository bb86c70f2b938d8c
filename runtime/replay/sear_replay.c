/*
 * sear_replay.c — native implementation of the klee.h / sear.h API for
 * replaying sear test cases.
 *
 * `sear replay` compiles this file together with the program under test
 * (natively, with sanitizers) and runs the result once per .ktest file. Every
 * function that makes something symbolic under sear instead consumes the next
 * object of the .ktest file named by the environment variable SEAR_KTEST (or
 * KTEST_FILE, KLEE's klee-replay convention), in order.
 *
 * Observable outcomes (see SEAR_REPLAY_EXIT_* below; all messages go to
 * stderr and start with "sear-replay: "):
 *   79  setup error: no .ktest named, or it cannot be read or parsed
 *   80  input mismatch: the program asks for an object the test does not
 *       have, or of another size
 *   81  assumption violated: klee_assume / __VERIFIER_assume / klee_range /
 *       klee_choose got a value outside its constraint (the test does not
 *       follow this path)
 *   82  klee_report_error: "sear-replay: ERROR: <file>:<line>: <message>
 *       [<suffix>]"
 *   SIGABRT  klee_abort ("sear-replay: klee_abort called"), a failed
 *       klee_assert (glibc-style "Assertion `expr' failed." line), reach_error
 *       and __VERIFIER_error ("sear-replay: reach_error reached")
 *   klee_silent_exit(status) exits with status, as KLEE's replay library does.
 *
 * Object names are checked for klee_make_symbolic / klee_int / klee_range: a
 * different name is only a warning, since it does not change the values.
 *
 * Tests of the POSIX environment model (--sym-arg, --sym-stdin, ...) start
 * with the model's objects; `sear replay` rebuilds argv, stdin and files from
 * them and sets SEAR_KTEST_SKIP to their number, so that the program's own
 * requests start after them. Built with -DSEAR_REPLAY_FD_FAIL, this file also
 * interposes read() and write() to replay --fd-fail: the n-th call on an open
 * descriptor fails with EIO when n is SEAR_READ_FAIL (SEAR_WRITE_FAIL), at
 * most SEAR_MAX_FAIL times. Built with -DSEAR_REPLAY_POSIX (tests of the POSIX
 * model), it interposes the calls that depend on the recorded file statuses
 * (stat, isatty, ioctl, open; see "The POSIX model's file statuses").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sear.h"

#define SEAR_REPLAY_EXIT_SETUP 79
#define SEAR_REPLAY_EXIT_MISMATCH 80
#define SEAR_REPLAY_EXIT_ASSUME 81
#define SEAR_REPLAY_EXIT_REPORT_ERROR 82

/* ---- The replay's control variables -------------------------------------- */

/* `sear replay` passes the test and its settings in SEAR_* variables, next to the
 * program's own environment (the one it had under sear). Their values are taken before
 * main and every SEAR_* variable is removed, with the sanitizers' ASAN_OPTIONS,
 * UBSAN_OPTIONS and ASAN_SYMBOLIZER_PATH (read by their runtimes at start-up), so the
 * program sees exactly its own environment (sear_runtime::environment::is_replay_control
 * is the same set). */
static const char *const control_names[] = {
    "SEAR_KTEST", "SEAR_KTEST_SKIP", "SEAR_MAX_FAIL",
    "SEAR_READ_FAIL", "SEAR_WRITE_FAIL", "SEAR_CLOSE_FAIL",
};
static char *control_values[sizeof control_names / sizeof control_names[0]];
static int control_taken;

static int is_control_entry(const char *entry) {
  static const char *const sanitizer[] = {"ASAN_OPTIONS=", "UBSAN_OPTIONS=",
                                          "ASAN_SYMBOLIZER_PATH="};
  if (strncmp(entry, "SEAR_", 5) == 0)
    return 1;
  for (size_t i = 0; i < sizeof sanitizer / sizeof sanitizer[0]; i++)
    if (strncmp(entry, sanitizer[i], strlen(sanitizer[i])) == 0)
      return 1;
  return 0;
}

__attribute__((constructor(101))) static void take_control_variables(void) {
  if (control_taken)
    return;
  control_taken = 1;
  for (size_t i = 0; i < sizeof control_names / sizeof control_names[0]; i++) {
    const char *v = getenv(control_names[i]);
    control_values[i] = v ? strdup(v) : NULL;
  }
  extern char **environ;
  for (int found = 1; found && environ;) {
    found = 0;
    for (char **e = environ; *e; e++) {
      if (is_control_entry(*e)) {
        char *name = strndup(*e, strcspn(*e, "="));
        if (name == NULL || unsetenv(name) != 0) {
          free(name);
          return;
        }
        free(name);
        found = 1;
        break;
      }
    }
  }
}

/* The value of a control variable (NULL when unset). */
static const char *control(const char *name) {
  take_control_variables();
  for (size_t i = 0; i < sizeof control_names / sizeof control_names[0]; i++)
    if (strcmp(control_names[i], name) == 0)
      return control_values[i];
  return NULL;
}

/* The system's definition of a function this file interposes. */
#define REAL(name, type) ((type)dlsym(RTLD_NEXT, name))

/* sear's runtime has only the C locale: setlocale accepts "", "C" and "POSIX" (all meaning
 * C) and fails for any other name, whatever the environment says. The native run does the
 * same, so that a program calling setlocale(LC_ALL, "") behaves as under sear. */
char *setlocale(int category, const char *name) {
  char *(*real)(int, const char *) = REAL("setlocale", char *(*)(int, const char *));
  if (name == NULL)
    return real(category, NULL);
  if (name[0] == '\0' || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
    return real(category, "C");
  return NULL;
}

/* ---- The .ktest file ------------------------------------------------------- */

struct replay_object {
  char *name;
  unsigned char *bytes;
  uint32_t size;
};

static struct {
  int loaded;
  const char *path;
  struct replay_object *objects;
  uint32_t num_objects;
  uint32_t next;
  uint32_t model_objects; /* the POSIX model's objects come first (SEAR_KTEST_SKIP) */
} replay;

SEAR_NORETURN static void setup_error(const char *fmt, ...) {
  va_list ap;
  fputs("sear-replay: setup error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(SEAR_REPLAY_EXIT_SETUP);
}

/* A bounded cursor over the file contents. */
struct cursor {
  const unsigned char *data;
  size_t len;
  size_t pos;
};

static uint32_t read_u32(struct cursor *c, const char *what) {
  if (c->len - c->pos < 4)
    setup_error("%s: truncated file (reading %s)", replay.path, what);
  const unsigned char *p = c->data + c->pos;
  c->pos += 4;
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
         ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* Reads a length-prefixed field into a fresh NUL-terminated buffer. */
static unsigned char *read_sized(struct cursor *c, uint32_t *size_out,
                                 const char *what) {
  uint32_t size = read_u32(c, what);
  if (c->len - c->pos < size)
    setup_error("%s: truncated file (reading %s of %" PRIu32 " bytes)",
                replay.path, what, size);
  unsigned char *buf = malloc((size_t)size + 1);
  if (!buf)
    setup_error("out of memory");
  memcpy(buf, c->data + c->pos, size);
  buf[size] = 0;
  c->pos += size;
  if (size_out)
    *size_out = size;
  return buf;
}

static unsigned char *read_whole_file(const char *path, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f)
    setup_error("cannot open %s: %s", path, strerror(errno));
  size_t cap = 4096, len = 0;
  unsigned char *data = malloc(cap);
  if (!data)
    setup_error("out of memory");
  for (;;) {
    size_t n = fread(data + len, 1, cap - len, f);
    len += n;
    if (len < cap) {
      if (ferror(f))
        setup_error("cannot read %s", path);
      break;
    }
    cap *= 2;
    data = realloc(data, cap);
    if (!data)
      setup_error("out of memory");
  }
  fclose(f);
  *len_out = len;
  return data;
}

static void load_ktest(void) {
  if (replay.loaded)
    return;
  replay.loaded = 1;
  const char *path = control("SEAR_KTEST");
  if (!path || !*path)
    path = getenv("KTEST_FILE");
  if (!path || !*path)
    setup_error("no test to replay: set SEAR_KTEST (or KTEST_FILE) to a "
                ".ktest file");
  replay.path = path;

  struct cursor c = {0};
  c.data = read_whole_file(path, &c.len);
  if (c.len < 5 || (memcmp(c.data, "KTEST", 5) && memcmp(c.data, "BOUT\n", 5)))
    setup_error("%s: not a .ktest file", path);
  c.pos = 5;
  uint32_t version = read_u32(&c, "version");
  if (version > 3)
    setup_error("%s: unsupported .ktest version %" PRIu32, path, version);
  uint32_t num_args = read_u32(&c, "argument count");
  for (uint32_t i = 0; i < num_args; i++)
    free(read_sized(&c, NULL, "argument"));
  if (version >= 2) {
    (void)read_u32(&c, "symArgvs");
    (void)read_u32(&c, "symArgvLen");
  }
  uint32_t num_objects = read_u32(&c, "object count");
  /* Every object takes at least 8 bytes, which bounds the allocation. */
  if (num_objects > (c.len - c.pos) / 8)
    setup_error("%s: truncated file (%" PRIu32 " objects announced)", path,
                num_objects);
  replay.objects = calloc(num_objects ? num_objects : 1, sizeof *replay.objects);
  if (!replay.objects)
    setup_error("out of memory");
  for (uint32_t i = 0; i < num_objects; i++) {
    struct replay_object *o = &replay.objects[i];
    o->name = (char *)read_sized(&c, NULL, "object name");
    o->bytes = read_sized(&c, &o->size, "object bytes");
  }
  replay.num_objects = num_objects;
  free((void *)c.data);
  const char *skip = control("SEAR_KTEST_SKIP");
  if (skip && *skip) {
    char *end;
    unsigned long n = strtoul(skip, &end, 10);
    if (*end != '\0' || n > num_objects)
      setup_error("SEAR_KTEST_SKIP=%s: not a count of objects in %s", skip, path);
    replay.next = (uint32_t)n;
    replay.model_objects = (uint32_t)n;
  }
}

/* Returns the next object, which must have exactly nbytes bytes. A name
 * mismatch is reported as a warning when name is not NULL. */
static const struct replay_object *next_object(size_t nbytes, const char *name,
                                               const char *caller) {
  load_ktest();
  if (replay.next >= replay.num_objects) {
    fprintf(stderr,
            "sear-replay: input mismatch: %s asks for object %" PRIu32
            " ('%s', %zu bytes) but %s has only %" PRIu32 " objects\n",
            caller, replay.next, name ? name : "?", nbytes, replay.path,
            replay.num_objects);
    exit(SEAR_REPLAY_EXIT_MISMATCH);
  }
  const struct replay_object *o = &replay.objects[replay.next];
  if (o->size != nbytes) {
    fprintf(stderr,
            "sear-replay: input mismatch: %s asks for object %" PRIu32
            " ('%s') of %zu bytes but the test's object '%s' has %" PRIu32
            " bytes\n",
            caller, replay.next, name ? name : "?", nbytes, o->name, o->size);
    exit(SEAR_REPLAY_EXIT_MISMATCH);
  }
  if (name && strcmp(name, o->name) != 0)
    fprintf(stderr,
            "sear-replay: warning: object %" PRIu32
            " is named '%s' in the test but '%s' in the program\n",
            replay.next, o->name, name);
  replay.next++;
  return o;
}

static void fill_next(void *addr, size_t nbytes, const char *name,
                      const char *caller) {
  const struct replay_object *o = next_object(nbytes, name, caller);
  memcpy(addr, o->bytes, nbytes);
}

SEAR_NORETURN static void assumption_violated(const char *what) {
  fprintf(stderr, "sear-replay: assumption violated (%s)\n", what);
  exit(SEAR_REPLAY_EXIT_ASSUME);
}

/* ---- --fd-fail: injected read/write failures ---------------------------- */

#ifdef SEAR_REPLAY_FD_FAIL
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static long env_number(const char *name) {
  const char *v = control(name);
  return v ? strtol(v, NULL, 10) : 0;
}

/* Counts calls on open descriptors, as sear's model does. */
static int injected_failure(int fd, const char *target_var, unsigned *calls) {
  static long failures_left = -1;
  if (failures_left < 0)
    failures_left = env_number("SEAR_MAX_FAIL");
  if (failures_left == 0 || fcntl(fd, F_GETFD) < 0)
    return 0;
  ++*calls;
  if (env_number(target_var) == (long)*calls) {
    failures_left--;
    errno = EIO;
    return 1;
  }
  return 0;
}

ssize_t read(int fd, void *buf, size_t n) {
  static unsigned calls;
  if (injected_failure(fd, "SEAR_READ_FAIL", &calls))
    return -1;
  return syscall(SYS_read, fd, buf, n);
}

/* Only the program's own write() calls come here: glibc's stdio writes through its
 * internal __write, which this interposer does not see, as sear's stdio writes to stdout
 * and stderr are no failure points (__sear_stdio_write). */
ssize_t write(int fd, const void *buf, size_t n) {
  static unsigned calls;
  if (injected_failure(fd, "SEAR_WRITE_FAIL", &calls))
    return -1;
  return syscall(SYS_write, fd, buf, n);
}

int close(int fd) {
  static unsigned calls;
  if (injected_failure(fd, "SEAR_CLOSE_FAIL", &calls))
    return -1;
  return syscall(SYS_close, fd);
}
#endif

/* ---- The POSIX model's file statuses ------------------------------------ */

#ifdef SEAR_REPLAY_POSIX
/* Under sear, the symbolic files (A, B, ... of --sym-files), a symbolic stdin and a
 * --sym-stdout stdout have the status recorded in the test (A-data-stat, stdin-stat,
 * stdout-stat): its file type and permissions decide fstat, isatty, the terminal ioctls
 * and whether open for writing is allowed. Natively the files `sear replay` creates are
 * regular files, so these calls are interposed: for a descriptor or path naming one of
 * those files (found by device and inode), they answer from the recorded status as
 * sear's model does (runtime/src/posix); for everything else they are the system's. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <termios.h>
#include <unistd.h>

struct model_file {
  dev_t dev;
  ino_t ino;
  struct stat st; /* the recorded status (times follow utimes) */
};

static struct model_file model_files[28];
static int num_model_files = -1;

/* Copies the fields struct stat and struct stat64 share, in either direction (on i386 their
 * layouts differ: 64-bit inode, size and block fields in stat64). */
#define COPY_STAT_FIELDS(dst, src)                                                          \
  do {                                                                                     \
    (dst)->st_dev = (src)->st_dev;                                                         \
    (dst)->st_ino = (src)->st_ino;                                                         \
    (dst)->st_mode = (src)->st_mode;                                                       \
    (dst)->st_nlink = (src)->st_nlink;                                                     \
    (dst)->st_uid = (src)->st_uid;                                                         \
    (dst)->st_gid = (src)->st_gid;                                                         \
    (dst)->st_rdev = (src)->st_rdev;                                                       \
    (dst)->st_size = (src)->st_size;                                                       \
    (dst)->st_blksize = (src)->st_blksize;                                                 \
    (dst)->st_blocks = (src)->st_blocks;                                                   \
    (dst)->st_atim = (src)->st_atim;                                                       \
    (dst)->st_mtim = (src)->st_mtim;                                                       \
    (dst)->st_ctim = (src)->st_ctim;                                                       \
  } while (0)

#ifdef SYS_newfstatat
static int raw_stat_at(int dirfd, const char *path, struct stat *st, int flags) {
  return (int)syscall(SYS_newfstatat, dirfd, path, st, flags);
}

static int raw_fstat(int fd, struct stat *st) { return (int)syscall(SYS_fstat, fd, st); }
#else
/* i386 (-m32): the kernel's stat64 calls, converted to the program's struct stat. */
static int from_stat64(int result, const struct stat64 *s, struct stat *st) {
  if (result != 0)
    return result;
  memset(st, 0, sizeof *st);
  COPY_STAT_FIELDS(st, s);
  return 0;
}

static int raw_stat_at(int dirfd, const char *path, struct stat *st, int flags) {
  struct stat64 s;
  return from_stat64((int)syscall(SYS_fstatat64, dirfd, path, &s, flags), &s, st);
}

static int raw_fstat(int fd, struct stat *st) {
  struct stat64 s;
  return from_stat64((int)syscall(SYS_fstat64, fd, &s), &s, st);
}
#endif

/* Finds the model's status objects among the test's first SEAR_KTEST_SKIP objects. */
static void load_model_files(void) {
  if (num_model_files >= 0)
    return;
  num_model_files = 0;
  load_ktest();
  for (uint32_t i = 0; i < replay.model_objects && num_model_files < 28; i++) {
    const struct replay_object *o = &replay.objects[i];
    size_t len = strlen(o->name);
    /* sear's and KLEE 2's names use '-' (A-data-stat), KLEE 3's '_' (A_data_stat). */
    char name[16];
    if (o->size != sizeof(struct stat) || len < 5 || len >= sizeof name)
      continue;
    for (size_t k = 0; k <= len; k++)
      name[k] = o->name[k] == '_' ? '-' : o->name[k];
    if (strcmp(name + len - 5, "-stat"))
      continue;
    struct stat native;
    int r;
    if (strcmp(name, "stdin-stat") == 0)
      r = raw_fstat(0, &native);
    else if (strcmp(name, "stdout-stat") == 0)
      r = raw_fstat(1, &native);
    else if (len == 11 && strcmp(name + 1, "-data-stat") == 0) {
      char file[2] = {o->name[0], 0};
      r = raw_stat_at(AT_FDCWD, file, &native, 0);
    } else
      continue;
    if (r != 0)
      continue;
    struct model_file *m = &model_files[num_model_files++];
    m->dev = native.st_dev;
    m->ino = native.st_ino;
    memcpy(&m->st, o->bytes, sizeof m->st);
  }
}

static struct model_file *model_of(const struct stat *native) {
  load_model_files();
  for (int i = 0; i < num_model_files; i++)
    if (model_files[i].dev == native->st_dev && model_files[i].ino == native->st_ino)
      return &model_files[i];
  return NULL;
}

static struct model_file *model_of_fd(int fd) {
  struct stat native;
  return raw_fstat(fd, &native) == 0 ? model_of(&native) : NULL;
}

static struct model_file *model_of_path(const char *path) {
  struct stat native;
  return raw_stat_at(AT_FDCWD, path, &native, 0) == 0 ? model_of(&native) : NULL;
}

/* A native status with the recorded fields; the size is the file's (as in the model). */
static int overlay(int r, struct stat *st) {
  struct model_file *m = r == 0 ? model_of(st) : NULL;
  if (m != NULL) {
    off_t size = st->st_size;
    *st = m->st;
    st->st_size = size;
    st->st_blocks = (size + 511) / 512;
  }
  return r;
}

int stat(const char *path, struct stat *st) {
  return overlay(raw_stat_at(AT_FDCWD, path, st, 0), st);
}
int lstat(const char *path, struct stat *st) {
  return overlay(raw_stat_at(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW), st);
}
int fstat(int fd, struct stat *st) { return overlay(raw_fstat(fd, st), st); }
int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
  return overlay(raw_stat_at(dirfd, path, st, flags), st);
}
#if __SIZEOF_POINTER__ == 8
/* On x86-64, struct stat64 has the layout of struct stat. */
int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }
int lstat64(const char *path, struct stat64 *st) { return lstat(path, (struct stat *)st); }
int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
  return fstatat(dirfd, path, (struct stat *)st, flags);
}
#else
/* On i386 (a -D_FILE_OFFSET_BITS=64 program), struct stat64 is wider: copied field by
 * field, as sear's i386 runtime does (runtime/src/posix/stat.c). */
static int to_stat64(int result, const struct stat *s, struct stat64 *st) {
  if (result != 0)
    return result;
  memset(st, 0, sizeof *st);
  COPY_STAT_FIELDS(st, s);
  return 0;
}
int stat64(const char *path, struct stat64 *st) {
  struct stat s;
  return to_stat64(stat(path, &s), &s, st);
}
int lstat64(const char *path, struct stat64 *st) {
  struct stat s;
  return to_stat64(lstat(path, &s), &s, st);
}
int fstat64(int fd, struct stat64 *st) {
  struct stat s;
  return to_stat64(fstat(fd, &s), &s, st);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
  struct stat s;
  return to_stat64(fstatat(dirfd, path, &s, flags), &s, st);
}
#endif

static int model_is_tty(const struct model_file *m) { return S_ISCHR(m->st.st_mode); }

/* The model's terminal settings (runtime/src/posix/stat.c). */
static void model_termios(struct termios *t) {
  static const unsigned char cc[19] = {0x03, 0x1c, 0x7f, 0x15, 0x04, 0x00, 0x01,
                                       0xff, 0x11, 0x13, 0x1a, 0xff, 0x12, 0x0f,
                                       0x17, 0x16, 0xff, 0x00, 0x00};
  t->c_iflag = 27906;
  t->c_oflag = 5;
  t->c_cflag = 1215;
  t->c_lflag = 35287;
  t->c_line = 0;
  memcpy(t->c_cc, cc, sizeof cc);
}

int isatty(int fd) {
  struct model_file *m = model_of_fd(fd);
  if (m == NULL)
    return REAL("isatty", int (*)(int))(fd);
  if (model_is_tty(m))
    return 1;
  errno = ENOTTY;
  return 0;
}

int tcgetattr(int fd, struct termios *t) {
  struct model_file *m = model_of_fd(fd);
  if (m == NULL)
    return REAL("tcgetattr", int (*)(int, struct termios *))(fd, t);
  if (!model_is_tty(m)) {
    errno = ENOTTY;
    return -1;
  }
  memset(t, 0, sizeof *t);
  model_termios(t);
  t->c_ispeed = B38400;
  t->c_ospeed = B38400;
  return 0;
}

int tcsetattr(int fd, int actions, const struct termios *t) {
  struct model_file *m = model_of_fd(fd);
  if (m == NULL)
    return REAL("tcsetattr", int (*)(int, int, const struct termios *))(fd, actions, t);
  if (!model_is_tty(m)) {
    errno = ENOTTY;
    return -1;
  }
  return 0;
}

int ioctl(int fd, unsigned long request, ...) {
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  struct model_file *m = model_of_fd(fd);
  if (m != NULL) {
    switch (request) {
    case TCGETS:
      if (!model_is_tty(m))
        break;
      model_termios((struct termios *)arg);
      return 0;
    case TCSETS:
    case TCSETSW:
    case TCSETSF:
    case TIOCSWINSZ:
      if (!model_is_tty(m))
        break;
      return 0;
    case TIOCGWINSZ: {
      if (!model_is_tty(m))
        break;
      struct winsize *ws = arg;
      memset(ws, 0, sizeof *ws);
      ws->ws_row = 24;
      ws->ws_col = 80;
      return 0;
    }
    case FIONREAD:
      return (int)syscall(SYS_ioctl, fd, request, arg);
    default:
      break;
    }
    errno = ENOTTY;
    return -1;
  }
  return (int)syscall(SYS_ioctl, fd, request, arg);
}

/* The model's permission check for a write request (runtime/src/posix/fd.c). */
static int model_denies(const char *path, int flags) {
  struct model_file *m = model_of_path(path);
  if (m == NULL)
    return 0;
  mode_t mode = m->st.st_mode;
  int read_request = (flags & O_RDWR) != 0;
  int write_request = (flags & (O_WRONLY | O_RDWR)) != 0;
  if ((read_request && (mode & 0444) == 0) || (write_request && (mode & 0222) == 0)) {
    errno = EACCES;
    return 1;
  }
  return 0;
}

static int open_mode(int flags, va_list ap) {
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = open_mode(flags, ap);
  va_end(ap);
  if (model_denies(path, flags))
    return -1;
  return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}
int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = open_mode(flags, ap);
  va_end(ap);
  return open(path, flags, mode);
}
int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = open_mode(flags, ap);
  va_end(ap);
  if (dirfd == AT_FDCWD && model_denies(path, flags))
    return -1;
  return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  int mode = open_mode(flags, ap);
  va_end(ap);
  return openat(dirfd, path, flags, mode);
}

/* The open flags of an fopen mode ("r", "w+", "a", ...). */
static int fopen_flags(const char *mode) {
  int plus = strchr(mode, '+') != NULL;
  switch (mode[0]) {
  case 'r':
    return plus ? O_RDWR : O_RDONLY;
  case 'w':
  case 'a':
    return plus ? O_RDWR : O_WRONLY;
  default:
    return O_RDONLY;
  }
}

FILE *fopen(const char *path, const char *mode) {
  if (model_denies(path, fopen_flags(mode)))
    return NULL;
  return REAL("fopen", FILE *(*)(const char *, const char *))(path, mode);
}
FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

/* utimes and futimesat change the times the model reports. */
static void model_set_times(const char *path, const struct timeval times[2]) {
  struct model_file *m = model_of_path(path);
  if (m == NULL)
    return;
  struct timeval now[2];
  if (times == NULL) {
    gettimeofday(&now[0], NULL);
    now[1] = now[0];
    times = now;
  }
  m->st.st_atim.tv_sec = times[0].tv_sec;
  m->st.st_atim.tv_nsec = times[0].tv_usec * 1000;
  m->st.st_mtim.tv_sec = times[1].tv_sec;
  m->st.st_mtim.tv_nsec = times[1].tv_usec * 1000;
}

int utimes(const char *path, const struct timeval times[2]) {
  int r = REAL("utimes", int (*)(const char *, const struct timeval *))(path, times);
  if (r == 0)
    model_set_times(path, times);
  return r;
}

int futimesat(int dirfd, const char *path, const struct timeval times[2]) {
  int r = REAL("futimesat", int (*)(int, const char *, const struct timeval *))(dirfd, path,
                                                                               times);
  if (r == 0 && dirfd == AT_FDCWD)
    model_set_times(path, times);
  return r;
}
/* Directory listings as sear's model gives them (runtime/src/posix/dir.c): ".", "..",
 * then the names in strcmp order (the native order is the file system's); entries of the
 * model's files get the recorded inode and type. A listing is read whole by opendir /
 * fdopendir and again by rewinddir. */
struct replay_dir {
  DIR *real;
  long pos;
  int count;
  struct dirent *entries;
  struct dirent ent;
};

static int dirent_order(const void *a, const void *b) {
  const char *x = ((const struct dirent *)a)->d_name, *y = ((const struct dirent *)b)->d_name;
  int rx = strcmp(x, ".") == 0 ? 0 : strcmp(x, "..") == 0 ? 1 : 2;
  int ry = strcmp(y, ".") == 0 ? 0 : strcmp(y, "..") == 0 ? 1 : 2;
  return rx != ry ? rx - ry : strcmp(x, y);
}

static int replay_dir_read(struct replay_dir *d) {
  struct dirent *(*real_readdir)(DIR *) = REAL("readdir", struct dirent *(*)(DIR *));
  REAL("rewinddir", void (*)(DIR *))(d->real);
  free(d->entries);
  d->entries = NULL;
  d->count = 0;
  d->pos = 0;
  int cap = 0;
  struct dirent *e;
  while ((e = real_readdir(d->real)) != NULL) {
    if (d->count == cap) {
      cap = cap ? 2 * cap : 32;
      struct dirent *grown = realloc(d->entries, (size_t)cap * sizeof *grown);
      if (grown == NULL)
        return -1;
      d->entries = grown;
    }
    struct dirent *copy = &d->entries[d->count++];
    memcpy(copy, e, sizeof *copy);
    struct stat native;
    int fd = REAL("dirfd", int (*)(DIR *))(d->real);
    struct model_file *m = raw_stat_at(fd, copy->d_name, &native, AT_SYMLINK_NOFOLLOW) == 0
                               ? model_of(&native)
                               : NULL;
    if (m != NULL) {
      copy->d_ino = m->st.st_ino;
      copy->d_type = (unsigned char)((m->st.st_mode >> 12) & 15);
    }
  }
  qsort(d->entries, (size_t)d->count, sizeof *d->entries, dirent_order);
  return 0;
}

static DIR *replay_dir_wrap(DIR *real) {
  if (real == NULL)
    return NULL;
  struct replay_dir *d = calloc(1, sizeof *d);
  if (d == NULL || (d->real = real, replay_dir_read(d)) != 0) {
    REAL("closedir", int (*)(DIR *))(real);
    free(d);
    errno = ENOMEM;
    return NULL;
  }
  return (DIR *)d;
}

DIR *opendir(const char *path) {
  return replay_dir_wrap(REAL("opendir", DIR *(*)(const char *))(path));
}
DIR *fdopendir(int fd) { return replay_dir_wrap(REAL("fdopendir", DIR *(*)(int))(fd)); }

int closedir(DIR *dir) {
  struct replay_dir *d = (struct replay_dir *)dir;
  int r = REAL("closedir", int (*)(DIR *))(d->real);
  free(d->entries);
  free(d);
  return r;
}

struct dirent *readdir(DIR *dir) {
  struct replay_dir *d = (struct replay_dir *)dir;
  if (d->pos < 0 || d->pos >= d->count)
    return NULL;
  d->ent = d->entries[d->pos++];
  d->ent.d_off = d->pos;
  return &d->ent;
}
#if __SIZEOF_POINTER__ == 8 /* on i386 struct dirent64 differs (sear's i386 runtime lacks it) */
struct dirent64 *readdir64(DIR *dir) { return (struct dirent64 *)readdir(dir); }
#endif
int readdir_r(DIR *dir, struct dirent *entry, struct dirent **result) {
  struct dirent *e = readdir(dir);
  if (e != NULL)
    memcpy(entry, e, sizeof *entry);
  *result = e != NULL ? entry : NULL;
  return 0;
}
void rewinddir(DIR *dir) { (void)replay_dir_read((struct replay_dir *)dir); }
long telldir(DIR *dir) { return ((struct replay_dir *)dir)->pos; }
void seekdir(DIR *dir, long pos) { ((struct replay_dir *)dir)->pos = pos; }
int dirfd(DIR *dir) {
  return REAL("dirfd", int (*)(DIR *))(((struct replay_dir *)dir)->real);
}

int scandir(const char *path, struct dirent ***list, int (*filter)(const struct dirent *),
            int (*compare)(const struct dirent **, const struct dirent **)) {
  DIR *dir = opendir(path);
  if (dir == NULL)
    return -1;
  struct replay_dir *d = (struct replay_dir *)dir;
  struct dirent **out = malloc((size_t)(d->count + 1) * sizeof *out);
  int n = 0;
  struct dirent *e;
  while (out != NULL && (e = readdir(dir)) != NULL) {
    if (filter != NULL && !filter(e))
      continue;
    out[n] = malloc(sizeof *e);
    if (out[n] == NULL)
      break;
    memcpy(out[n++], e, sizeof *e);
  }
  closedir(dir);
  if (out == NULL) {
    errno = ENOMEM;
    return -1;
  }
  if (compare != NULL)
    qsort(out, (size_t)n, sizeof *out, (int (*)(const void *, const void *))compare);
  *list = out;
  return n;
}
#if __SIZEOF_POINTER__ == 8
int scandir64(const char *path, struct dirent64 ***list,
              int (*filter)(const struct dirent64 *),
              int (*compare)(const struct dirent64 **, const struct dirent64 **)) {
  return scandir(path, (struct dirent ***)list, (int (*)(const struct dirent *))filter,
                 (int (*)(const struct dirent **, const struct dirent **))compare);
}
#endif
#endif

/* ---- klee.h: symbolic inputs ------------------------------------------- */

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  fill_next(addr, nbytes, name, "klee_make_symbolic");
}

int klee_range(int begin, int end, const char *name) {
  if (begin >= end)
    klee_report_error(__FILE__, __LINE__, "invalid klee_range", "user");
  if (begin + 1 == end)
    return begin;
  int x;
  fill_next(&x, sizeof x, name, "klee_range");
  if (x < begin || x >= end)
    assumption_violated("klee_range value out of range");
  return x;
}

int klee_int(const char *name) {
  int x;
  fill_next(&x, sizeof x, name, "klee_int");
  return x;
}

uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  fill_next(&x, sizeof x, "klee_choose", "klee_choose");
  if (x >= n)
    assumption_violated("klee_choose value out of range");
  return x;
}

void klee_define_fixed_object(void *addr, size_t nbytes) {
  /* Natively: map zeroed pages over [addr, addr + nbytes), never over existing ones. */
  uintptr_t page = 4096, start = (uintptr_t)addr & ~(page - 1);
  size_t len = ((uintptr_t)addr + nbytes - start + page - 1) & ~(page - 1);
  void *p = mmap((void *)start, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED || p != (void *)start)
    fprintf(stderr,
            "sear-replay: warning: klee_define_fixed_object(%p, %zu): cannot map "
            "it natively\n",
            addr, nbytes);
}

/* ---- klee.h: path constraints ------------------------------------------ */

void klee_assume(uintptr_t condition) {
  if (!condition)
    assumption_violated("klee_assume");
}

void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

void klee_posix_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

/* ---- klee.h: termination and errors ------------------------------------ */

void klee_silent_exit(int status) { exit(status); }

void klee_abort(void) {
  fputs("sear-replay: klee_abort called\n", stderr);
  abort();
}

void klee_report_error(const char *file, int line, const char *message,
                       const char *suffix) {
  fprintf(stderr, "sear-replay: ERROR: %s:%d: %s [%s]\n", file, line, message,
          suffix);
  exit(SEAR_REPLAY_EXIT_REPORT_ERROR);
}

void klee_assert_fail(const char *expr, const char *file, unsigned int line,
                      const char *function) {
  fprintf(stderr, "sear-replay: %s:%u: %s: Assertion `%s' failed.\n", file,
          line, function, expr);
  abort();
}

/* ---- klee.h: diagnostics ------------------------------------------------- */

extern int __asan_address_is_poisoned(void const volatile *addr)
    __attribute__((weak));

/* The length of a klee.h message: up to its NUL, or (as sear and KLEE read it) up to
 * the end of its object when it has none, which ASan tells by the poisoned byte after. */
static int message_length(const char *message) {
  int n = 0;
  while (!(__asan_address_is_poisoned && __asan_address_is_poisoned(message + n)) &&
         message[n])
    n++;
  return n;
}

void klee_warning(const char *message) {
  fprintf(stderr, "sear-replay: WARNING: %.*s\n", message_length(message), message);
}

void klee_warning_once(const char *message) {
  static const char *seen[64];
  static unsigned num_seen;
  int len = message_length(message);
  for (unsigned i = 0; i < num_seen; i++)
    if (seen[i] == message ||
        (strncmp(seen[i], message, len) == 0 && seen[i][len] == 0))
      return;
  if (num_seen < sizeof seen / sizeof seen[0])
    seen[num_seen++] = strndup(message, len);
  fprintf(stderr, "sear-replay: WARNING ONCE: %.*s\n", len, message);
}

/* The type of the variadic argument is unknown natively, so only the message
 * is printed. */
void klee_print_expr(const char *msg, ...) {
  fprintf(stderr, "sear-replay: %s: (concrete value not shown)\n", msg);
}

void klee_print_range(const char *name, int value) {
  fprintf(stderr, "sear-replay: %s: %d\n", name, value);
}

/* Provided by the sanitizer runtimes when they are linked in. */
extern void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out,
                                     size_t out_size) __attribute__((weak));
extern int __sanitizer_get_ownership(const volatile void *p)
    __attribute__((weak));
extern size_t __sanitizer_get_allocated_size(const volatile void *p)
    __attribute__((weak));

/* Every line starts with "sear-replay:", so that the trace is not taken for the
 * program's own stderr (under sear, klee_stack_trace writes to messages.txt). */
void klee_stack_trace(void) {
  void *frames[64];
  int n = backtrace(frames, 64);
  for (int i = 1; i < n; i++) {
    char where[512] = "?";
    if (__sanitizer_symbolize_pc)
      __sanitizer_symbolize_pc((char *)frames[i] - 1, "%f %L", where,
                               sizeof where);
    fprintf(stderr, "sear-replay: klee_stack_trace: #%d %p %s\n", i - 1,
            frames[i], where);
  }
}

/* ---- klee.h: queries on values ----------------------------------------- */

unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}

float klee_get_valuef(float expr) { return expr; }
double klee_get_valued(double expr) { return expr; }
long klee_get_valuel(long expr) { return expr; }
long long klee_get_valuell(long long expr) { return expr; }
uint32_t klee_get_value_i32(uint32_t expr) { return expr; }
uint64_t klee_get_value_i64(uint64_t expr) { return expr; }

/* Exact for heap objects when ASan is linked in; 0 (with a warning) otherwise. */
size_t klee_get_obj_size(void *ptr) {
  if (__sanitizer_get_ownership && __sanitizer_get_allocated_size &&
      __sanitizer_get_ownership(ptr))
    return __sanitizer_get_allocated_size(ptr);
  fprintf(stderr, "sear-replay: warning: klee_get_obj_size(%p): size unknown\n",
          ptr);
  return 0;
}

/* Touches every byte, so that the sanitizers report an invalid access. */
void klee_check_memory_access(const void *address, size_t size) {
  const volatile unsigned char *p = address;
  for (size_t i = 0; i < size; i++)
    (void)p[i];
}

int klee_get_errno(void) { return errno; }

unsigned klee_is_replay(void) { return 1; }

/* ---- klee.h: engine control ---------------------------------------------- */

void klee_set_forking(unsigned enable) { (void)enable; }
void klee_open_merge(void) {}
void klee_close_merge(void) {}
void klee_mark_global(void *object) { (void)object; }

/* ---- SV-COMP --------------------------------------------------------------- */

/* Each nondet function consumes the next object, which must have the size of
 * its type; the object's name is not checked. */
#define SEAR_NONDET(suffix, type)                                              \
  type __VERIFIER_nondet_##suffix(void) {                                      \
    type x;                                                                    \
    fill_next(&x, sizeof x, NULL, "__VERIFIER_nondet_" #suffix);               \
    return x;                                                                  \
  }

SEAR_NONDET(bool, _Bool)
SEAR_NONDET(_Bool, _Bool)
SEAR_NONDET(char, char)
SEAR_NONDET(uchar, unsigned char)
SEAR_NONDET(short, short)
SEAR_NONDET(ushort, unsigned short)
SEAR_NONDET(int, int)
SEAR_NONDET(uint, unsigned int)
SEAR_NONDET(unsigned, unsigned int)
SEAR_NONDET(long, long)
SEAR_NONDET(ulong, unsigned long)
SEAR_NONDET(longlong, long long)
SEAR_NONDET(ulonglong, unsigned long long)
SEAR_NONDET(float, float)
SEAR_NONDET(double, double)
SEAR_NONDET(size_t, size_t)
SEAR_NONDET(u32, unsigned int)
SEAR_NONDET(pointer, void *)
SEAR_NONDET(pchar, char *)
/* Declared by the programs themselves, with typedefs of these widths on
 * x86_64 Linux. */
SEAR_NONDET(loff_t, long)
SEAR_NONDET(sector_t, unsigned long)
SEAR_NONDET(pthread_t, unsigned long)
#ifdef __SIZEOF_INT128__ /* not on i386 */
SEAR_NONDET(int128, __int128)
SEAR_NONDET(uint128, unsigned __int128)
#endif

void __VERIFIER_assume(int cond) {
  if (!cond)
    assumption_violated("__VERIFIER_assume");
}

void __VERIFIER_error(void) {
  fputs("sear-replay: reach_error reached (__VERIFIER_error)\n", stderr);
  abort();
}

/* Weak, because SV-COMP programs usually define reach_error themselves. */
__attribute__((weak)) void reach_error(void) {
  fputs("sear-replay: reach_error reached\n", stderr);
  abort();
}

void __VERIFIER_atomic_begin(void) {}
void __VERIFIER_atomic_end(void) {}

/*
 * Zero-size allocations. sear reports any access to the object of malloc(0)
 * (or calloc with a zero count or size) as an out-of-bounds error, but ASan
 * gives such an object one addressable byte. `sear replay` links with
 * -Wl,--wrap=malloc,--wrap=calloc, so the program's calls come here: the byte
 * is poisoned, and an access is reported (use-after-poison). free and realloc
 * work on the object as usual.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEAR_REPLAY_ASAN 1
#endif
#endif
#ifdef SEAR_REPLAY_ASAN
#include <sanitizer/asan_interface.h>
void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);

void *__wrap_malloc(size_t size) {
  void *p = __real_malloc(size);
  if (size == 0 && p != NULL)
    __asan_poison_memory_region(p, 1);
  return p;
}

void *__wrap_calloc(size_t count, size_t size) {
  void *p = __real_calloc(count, size);
  if ((count == 0 || size == 0) && p != NULL)
    __asan_poison_memory_region(p, 1);
  return p;
}
#endif

/*
 * Coverage (`sear coverage`, -DSEAR_REPLAY_COVERAGE): the program is built with gcov's
 * instrumentation, whose counters are written at exit. A test that ends with a crash, an
 * abort or the replay's time limit (SIGTERM) would lose them, so these signals first write
 * the counters (__gcov_dump, compiler-rt's profile runtime) and then take their default
 * action, as without the handler.
 */
#ifdef SEAR_REPLAY_COVERAGE
#include <signal.h>
#include <unistd.h>
void __gcov_dump(void);

static void dump_and_die(int sig) {
  __gcov_dump();
  signal(sig, SIG_DFL);
  raise(sig);
}

__attribute__((constructor(102))) static void dump_counters_on_signals(void) {
  static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM};
  for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
    signal(fatal[i], dump_and_die);
}
#endif
