/*
 * stdlib.h beyond the conversions: qsort (a stable insertion sort, so equal
 * elements keep glibc's merge-sort order), bsearch, the modelled environment
 * (getenv/setenv/unsetenv over `environ`, empty unless the program sets
 * variables), exit/atexit, glibc-compatible rand/srand, and stubs.
 * The malloc family and abort are implemented by the engine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sear_rt.h"

/* ---- Allocation ----------------------------------------------------------- */

/* realloc of n * size bytes, failing with ENOMEM when the product overflows. */
void *reallocarray(void *p, size_t n, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(n, size, &bytes)) {
    errno = ENOMEM;
    return NULL;
  }
  return realloc(p, bytes);
}

/* ---- Sorting and searching ---------------------------------------------- */

static void swap_bytes(unsigned char *a, unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

void qsort_r(void *base, size_t n, size_t size,
             int (*cmp)(const void *, const void *, void *), void *arg) {
  unsigned char *b = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size, arg) > 0; j--)
      swap_bytes(b + (j - 1) * size, b + j * size, size);
}

static int call_plain(const void *a, const void *b, void *cmp) {
  return ((int (*)(const void *, const void *))cmp)(a, b);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  qsort_r(base, n, size, call_plain, (void *)cmp);
}

void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *)) {
  const unsigned char *b = base;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int r = cmp(key, b + mid * size);
    if (r == 0)
      return (void *)(b + mid * size);
    if (r < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

/* ---- Environment -------------------------------------------------------- */

static char *no_variables[1];
char **environ = no_variables;

/* The entry of name in environ, or -1. */
static long find_var(const char *name, size_t len) {
  for (long i = 0; environ[i] != NULL; i++)
    if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=')
      return i;
  return -1;
}

char *getenv(const char *name) {
  size_t len = strlen(name);
  long i = find_var(name, len);
  return i < 0 ? NULL : environ[i] + len + 1;
}

char *secure_getenv(const char *name) { return getenv(name); }

static char **owned_environ;

static int put_entry(char *entry, size_t name_len) {
  long i = find_var(entry, name_len);
  if (i >= 0) {
    environ[i] = entry;
    return 0;
  }
  size_t n = 0;
  while (environ[n] != NULL)
    n++;
  char **grown = malloc((n + 2) * sizeof *grown);
  if (grown == NULL) {
    errno = ENOMEM;
    return -1;
  }
  for (size_t k = 0; k < n; k++)
    grown[k] = environ[k];
  grown[n] = entry;
  grown[n + 1] = NULL;
  free(owned_environ);
  owned_environ = environ = grown;
  return 0;
}

int setenv(const char *name, const char *value, int overwrite) {
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=') != NULL) {
    errno = EINVAL;
    return -1;
  }
  if (!overwrite && find_var(name, len) >= 0)
    return 0;
  size_t vlen = strlen(value);
  char *entry = malloc(len + vlen + 2);
  if (entry == NULL) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(entry, name, len);
  entry[len] = '=';
  memcpy(entry + len + 1, value, vlen + 1);
  return put_entry(entry, len);
}

int putenv(char *entry) {
  char *eq = strchr(entry, '=');
  if (eq == NULL)
    return unsetenv(entry);
  return put_entry(entry, (size_t)(eq - entry));
}

int unsetenv(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=') != NULL) {
    errno = EINVAL;
    return -1;
  }
  long i;
  while ((i = find_var(name, len)) >= 0)
    for (; environ[i] != NULL; i++)
      environ[i] = environ[i + 1];
  return 0;
}

int clearenv(void) {
  environ = no_variables;
  return 0;
}

/* ---- Exit ----------------------------------------------------------------- */

#define MAX_ATEXIT 32
/* atexit handlers take nothing; __cxa_atexit handlers (C++ destructors) take their object. */
static struct {
  void (*plain)(void);
  void (*with_arg)(void *);
  void *arg;
} handlers[MAX_ATEXIT];
static int num_handlers;

int atexit(void (*fn)(void)) {
  if (num_handlers >= MAX_ATEXIT)
    return -1;
  handlers[num_handlers].plain = fn;
  handlers[num_handlers].with_arg = NULL;
  num_handlers++;
  return 0;
}

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
  (void)dso;
  if (num_handlers >= MAX_ATEXIT)
    return -1;
  handlers[num_handlers].plain = NULL;
  handlers[num_handlers].with_arg = fn;
  handlers[num_handlers].arg = arg;
  num_handlers++;
  return 0;
}

/* Thread-local destructors (C++ thread_local): there is one thread, so they run at exit
 * like __cxa_atexit's handlers. */
int __cxa_thread_atexit_impl(void (*fn)(void *), void *arg, void *dso) {
  return __cxa_atexit(fn, arg, dso);
}

/* glibc's realpath(path, NULL). */
char *canonicalize_file_name(const char *path) { return realpath(path, NULL); }

void __sear_run_atexit(void) {
  while (num_handlers > 0) {
    num_handlers--;
    if (handlers[num_handlers].plain)
      handlers[num_handlers].plain();
    else
      handlers[num_handlers].with_arg(handlers[num_handlers].arg);
  }
}

void exit(int status) {
  /* stdio is unbuffered: there is nothing to flush. */
  __sear_run_atexit();
  _exit(status);
}

void quick_exit(int status) { _exit(status); }

/* ---- Random numbers (glibc's TYPE_3 additive generator) ------------------ */

static int32_t rand_state[34];
static int rand_front, rand_rear, rand_seeded;

void srand(unsigned seed) {
  int32_t *r = rand_state;
  r[0] = (int32_t)(seed == 0 ? 1 : seed);
  for (int i = 1; i < 31; i++) {
    /* r[i] = 16807 * r[i-1] % 2147483647, without overflow (Schrage). */
    int32_t hi = r[i - 1] / 127773, lo = r[i - 1] % 127773;
    int32_t word = 16807 * lo - 2836 * hi;
    r[i] = word < 0 ? word + 2147483647 : word;
  }
  rand_front = 3;
  rand_rear = 0;
  rand_seeded = 1;
  for (int i = 0; i < 310; i++)
    (void)rand();
}

int rand(void) {
  if (!rand_seeded)
    srand(1);
  int32_t *r = rand_state;
  uint32_t v = (uint32_t)r[rand_front] + (uint32_t)r[rand_rear];
  r[rand_front] = (int32_t)v;
  rand_front = (rand_front + 1) % 31;
  rand_rear = (rand_rear + 1) % 31;
  return (int)(v >> 1);
}

void srandom(unsigned seed) { srand(seed); }
long random(void) { return rand(); }

int rand_r(unsigned *seed) {
  unsigned next = *seed;
  int result;
  next = next * 1103515245 + 12345;
  result = (int)((next / 65536) % 2048);
  next = next * 1103515245 + 12345;
  result = (result << 10) ^ (int)((next / 65536) % 1024);
  next = next * 1103515245 + 12345;
  result = (result << 10) ^ (int)((next / 65536) % 1024);
  *seed = next;
  return result;
}

/* ---- Not modelled ---------------------------------------------------------- */

int system(const char *command) {
  if (command == NULL)
    return 0; /* no shell available */
  errno = ENOSYS;
  return -1;
}

char *realpath(const char *path, char *resolved) {
  (void)path;
  (void)resolved;
  errno = ENOSYS;
  return NULL;
}

int mkstemp(char *template) {
  (void)template;
  errno = ENOSYS;
  return -1;
}

int mkostemp(char *template, int flags) {
  (void)flags;
  return mkstemp(template);
}
int mkstemps(char *template, int suffix) {
  (void)suffix;
  return mkstemp(template);
}
int mkostemps(char *template, int suffix, int flags) {
  (void)suffix;
  (void)flags;
  return mkstemp(template);
}
