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
 * most SEAR_MAX_FAIL times.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
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
  const char *path = getenv("SEAR_KTEST");
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
  const char *skip = getenv("SEAR_KTEST_SKIP");
  if (skip && *skip) {
    char *end;
    unsigned long n = strtoul(skip, &end, 10);
    if (*end != '\0' || n > num_objects)
      setup_error("SEAR_KTEST_SKIP=%s: not a count of objects in %s", skip, path);
    replay.next = (uint32_t)n;
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
  const char *v = getenv(name);
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
SEAR_NONDET(int128, __int128)
SEAR_NONDET(uint128, unsigned __int128)

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
