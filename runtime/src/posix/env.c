/*
 * The POSIX environment model's set-up (KLEE's klee_init_env): options in
 * the program's argv create symbolic inputs and are removed from argv.
 *
 *   --sym-arg N            one symbolic argument of up to N bytes (arg00, ...)
 *   --sym-args MIN MAX N   MIN to MAX such arguments; the count is the
 *                          symbolic n_args = klee_range(MIN, MAX + 1)
 *   --sym-files NUM N      NUM symbolic files named A, B, ... of N bytes
 *                          (A-data, A-data-stat, ...)
 *   --sym-stdin N          N symbolic bytes on stdin (stdin, stdin-stat)
 *   --sym-stdout           stdout has a symbolic status (stdout, stdout-stat)
 *   --fd-fail              one read, one write and one close may fail with EIO
 *                          (read_fail, write_fail, close_fail; ftruncate_fail and
 *                          getcwd_fail are created as in KLEE but not used)
 *   --max-fail N           up to N such failures
 *   --save-all-writes      accepted for KLEE compatibility; no effect
 *   --sym-size-inputs      the arguments, files and stdin above get symbolic
 *                          lengths up to their bound (seed 003 Ch. 5): a size
 *                          object (argNN-size, A-data-size, stdin-size, a
 *                          size_t) before each, and an allocation of that
 *                          symbolic size (run with --sym-size-mode=fork-lazy,
 *                          sm or smopt to keep it symbolic)
 *
 * Each option also has a one-dash spelling. Every other argument is kept, in
 * order. When any option was given, a model_version object (value 1) ends
 * the model's objects, as in KLEE, so that KLEE's klee-replay accepts the
 * tests.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sear_rt.h"

#define MAX_ARGS 1024
#define MAX_SYM_ARGS 100
#define MAX_FILES 26

static void usage_error(const char *message) {
  klee_report_error(__FILE__, __LINE__, message, "user");
}

static int is_option(const char *arg, const char *name) {
  if (arg[0] != '-')
    return 0;
  arg += arg[1] == '-' ? 2 : 1;
  return strcmp(arg, name) == 0;
}

static unsigned number(int argc, char **argv, int at, const char *option) {
  if (at >= argc)
    usage_error(option);
  const char *s = argv[at];
  unsigned long v = 0;
  if (*s == '\0')
    usage_error(option);
  for (; *s != '\0'; s++) {
    if (*s < '0' || *s > '9' || v > 100000000)
      usage_error(option);
    v = v * 10 + (unsigned)(*s - '0');
  }
  return (unsigned)v;
}

/* A symbolic size up to max, named `name`-size (a size_t object). */
static size_t symbolic_size(const char *name, size_t max) {
  char size_name[64];
  size_t len = strlen(name);
  memcpy(size_name, name, len);
  memcpy(size_name + len, "-size", 6);
  size_t n;
  klee_make_symbolic(&n, sizeof n, size_name);
  klee_assume(n <= max);
  return n;
}

/* A string of symbolic length n <= len in an object of n + 1 bytes whose last
 * byte is NUL (earlier NULs allowed). No printable preference: it would read
 * beyond the symbolic size. */
static char *symbolic_size_string(unsigned len, const char *name) {
  size_t n = symbolic_size(name, len);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, name);
  s[n] = '\0';
  klee_mark_global(s);
  return s;
}

/* A symbolic string of up to len bytes in an object of len + 1 bytes whose
 * last byte is NUL. Tests prefer printable characters. With sym_size, its
 * length is symbolic too (symbolic_size_string). */
static char *symbolic_string(unsigned len, unsigned index, int sym_size) {
  char name[6] = {'a', 'r', 'g', (char)('0' + index / 10), (char)('0' + index % 10), 0};
  if (sym_size)
    return symbolic_size_string(len, name);
  char *s = malloc(len + 1);
  klee_make_symbolic(s, len + 1, name);
  int printable = 1;
  for (unsigned i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    printable &= (c == 0) | ((unsigned)(c - 32) < 95u);
  }
  klee_posix_prefer_cex(s, printable);
  s[len] = '\0';
  klee_mark_global(s);
  return s;
}

void __sear_init_env(int *argcp, char ***argvp) {
  int argc = *argcp;
  char **argv = *argvp;
  char **out = malloc((MAX_ARGS + 1) * sizeof *out);
  int n = 0;
  unsigned sym_args = 0, files = 0, file_len = 0, stdin_len = 0, max_fail = 0;
  int sym_stdout = 0, any = 0, sym_size = 0;
  out[n++] = argv[0];
  for (int k = 1; k < argc; k++)
    if (is_option(argv[k], "sym-size-inputs"))
      sym_size = 1;
  for (int k = 1; k < argc;) {
    const char *a = argv[k];
    if (is_option(a, "sym-arg")) {
      unsigned len = number(argc, argv, k + 1, "--sym-arg expects a length: --sym-arg N");
      if (sym_args >= MAX_SYM_ARGS || n >= MAX_ARGS)
        usage_error("too many symbolic arguments (at most 100)");
      out[n++] = symbolic_string(len, sym_args++, sym_size);
      k += 2;
      any = 1;
    } else if (is_option(a, "sym-args")) {
      const char *msg = "--sym-args expects MIN MAX N: --sym-args MIN MAX N";
      unsigned min = number(argc, argv, k + 1, msg);
      unsigned max = number(argc, argv, k + 2, msg);
      unsigned len = number(argc, argv, k + 3, msg);
      if (min > max)
        usage_error("invalid range to --sym-args: MIN is larger than MAX");
      if (max == 0)
        usage_error("invalid range to --sym-args: MAX is 0");
      if (sym_args + max > MAX_SYM_ARGS || n + (int)max > MAX_ARGS)
        usage_error("too many symbolic arguments (at most 100)");
      int count = klee_range((int)min, (int)max + 1, "n_args");
      for (int i = 0; i < count; i++)
        out[n++] = symbolic_string(len, sym_args++, sym_size);
      k += 4;
      any = 1;
    } else if (is_option(a, "sym-files")) {
      const char *msg = "--sym-files expects NUM N: --sym-files NUM N";
      if (files != 0)
        usage_error("--sym-files: given more than once (KLEE refuses it too)");
      files = number(argc, argv, k + 1, msg);
      file_len = number(argc, argv, k + 2, msg);
      if (files > MAX_FILES)
        usage_error("--sym-files: at most 26 files");
      if (files == 0)
        usage_error("--sym-files: the number of files cannot be 0");
      if (file_len == 0)
        usage_error("--sym-files: the file size cannot be 0");
      k += 3;
      any = 1;
    } else if (is_option(a, "sym-stdin")) {
      stdin_len = number(argc, argv, k + 1, "--sym-stdin expects a size: --sym-stdin N");
      k += 2;
      any = 1;
    } else if (is_option(a, "sym-stdout")) {
      sym_stdout = 1;
      k += 1;
      any = 1;
    } else if (is_option(a, "fd-fail")) {
      max_fail = 1;
      k += 1;
      any = 1;
    } else if (is_option(a, "save-all-writes") || is_option(a, "sym-size-inputs")) {
      k += 1;
      any = 1;
    } else if (is_option(a, "max-fail")) {
      max_fail = number(argc, argv, k + 1, "--max-fail expects a count: --max-fail N");
      k += 2;
      any = 1;
    } else {
      if (n >= MAX_ARGS)
        usage_error("too many arguments");
      out[n++] = argv[k++];
    }
  }
  out[n] = NULL;
  if (any)
    __sear_init_fds(files, file_len, stdin_len, sym_stdout, max_fail, sym_size);
  /* The program may not free its argv (KLEE marks it global too). */
  klee_mark_global(out);
  *argcp = n;
  *argvp = out;
}

/* The host's status fields a symbolic file prefers (generated by sear run from the
 * current directory's status, as KLEE's klee_init_fds takes them from stat(".")). */
extern const struct sear_host_stat __sear_host_stat;

/* A symbolic status as KLEE's model makes it: every field symbolic but the size and
 * block count; a non-zero inode, a block size below 64 KiB and valid nanoseconds are
 * assumed; the test prefers (klee_posix_prefer_cex) a regular file of mode 0644 with one
 * link, block size 4096 and the host's device, owner, group and times. The file type and
 * permissions stay symbolic: fstat, isatty, ioctl and open fork on them, as under KLEE.
 * The inode is also assumed above those of the files the model makes (SEAR_MODEL_MAX_INO):
 * natively a symbolic file is a file of its own, so a program comparing identities must not
 * find it equal to a file it creates later (split's "'xaa' would overwrite input", with
 * stdin as the output file). KLEE's created files are the host's, with the host's inodes. */
static void symbolic_stat(struct stat *st, const char *name, size_t size) {
  klee_make_symbolic(st, sizeof *st, name);
  const struct sear_host_stat *h = &__sear_host_stat;
  klee_assume(st->st_size == (off_t)size);
  klee_assume(st->st_blocks == (blkcnt_t)((size + 511) / 512));
  klee_assume((st->st_ino & 0x7FFFFFFF) != 0);
  klee_assume(st->st_ino > (ino_t)SEAR_MODEL_MAX_INO);
  klee_assume((st->st_blksize & ~0xFFFF) == 0);
  klee_assume((unsigned long)st->st_atim.tv_nsec < 1000000000ul);
  klee_assume((unsigned long)st->st_mtim.tv_nsec < 1000000000ul);
  klee_assume((unsigned long)st->st_ctim.tv_nsec < 1000000000ul);
  klee_posix_prefer_cex(st, (st->st_mode & ~(S_IFMT | 0777)) == 0);
  klee_posix_prefer_cex(st, st->st_dev == (dev_t)h->dev);
  klee_posix_prefer_cex(st, st->st_rdev == (dev_t)h->rdev);
  klee_posix_prefer_cex(st, (st->st_mode & 0700) == 0600);
  klee_posix_prefer_cex(st, (st->st_mode & 0070) == 0040);
  klee_posix_prefer_cex(st, (st->st_mode & 0007) == 0004);
  klee_posix_prefer_cex(st, (st->st_mode & S_IFMT) == S_IFREG);
  klee_posix_prefer_cex(st, st->st_nlink == 1);
  klee_posix_prefer_cex(st, st->st_uid == (uid_t)h->uid);
  klee_posix_prefer_cex(st, st->st_gid == (gid_t)h->gid);
  klee_posix_prefer_cex(st, st->st_blksize == 4096);
  klee_posix_prefer_cex(st, st->st_atim.tv_sec == h->atime);
  klee_posix_prefer_cex(st, st->st_mtim.tv_sec == h->mtime);
  klee_posix_prefer_cex(st, st->st_ctim.tv_sec == h->ctime);
}

/* A node with `size` symbolic bytes named `data_name` and a symbolic status
 * named `data_name`-stat. With sym_size, the size is a symbolic
 * `data_name`-size up to `size`, and the bytes are an object of that size. */
static struct sear_node *symbolic_node(const char *name, const char *data_name, unsigned size,
                                       int sym_size) {
  struct sear_node *n = __sear_new_node(name, SEAR_NODE_WRITABLE | SEAR_NODE_SYMBOLIC, 0644);
  if (n == NULL)
    klee_report_error(__FILE__, __LINE__, "too many files", "model");
  if (sym_size) {
    size_t sz = symbolic_size(data_name, size);
    n->data = malloc(sz);
    klee_make_symbolic(n->data, sz, data_name);
    n->size = n->capacity = sz;
    char stat_name[64];
    size_t len = strlen(data_name);
    memcpy(stat_name, data_name, len);
    memcpy(stat_name + len, "-stat", 6);
    symbolic_stat(n->st, stat_name, sz);
    return n;
  }
  n->data = malloc(size > 0 ? size : 1);
  if (size > 0)
    klee_make_symbolic(n->data, size, data_name);
  n->size = n->capacity = size;
  char stat_name[64];
  size_t len = strlen(data_name);
  memcpy(stat_name, data_name, len);
  memcpy(stat_name + len, "-stat", 6);
  symbolic_stat(n->st, stat_name, size);
  return n;
}

static int *symbolic_int(const char *name) {
  int *p = malloc(sizeof *p);
  klee_make_symbolic(p, sizeof *p, name);
  return p;
}

void __sear_init_fds(unsigned n_files, unsigned file_len, unsigned stdin_len, int sym_stdout,
                     unsigned max_failures, int sym_size) {
  for (unsigned k = 0; k < n_files; k++) {
    char name[2] = {(char)('A' + k), 0};
    char data_name[7] = {(char)('A' + k), '-', 'd', 'a', 't', 'a', 0};
    symbolic_node(name, data_name, file_len, sym_size);
  }
  if (stdin_len > 0) {
    struct sear_node *n = symbolic_node(NULL, "stdin", stdin_len, sym_size);
    __sear_descs[0].node = n;
  }
  if (max_failures > 0) {
    __sear_fail.max_failures = max_failures;
    __sear_fail.read_fail = symbolic_int("read_fail");
    __sear_fail.write_fail = symbolic_int("write_fail");
    __sear_fail.close_fail = symbolic_int("close_fail");
    /* KLEE's other counters, so that its klee-replay finds the objects it expects. */
    (void)symbolic_int("ftruncate_fail");
    (void)symbolic_int("getcwd_fail");
  }
  if (sym_stdout) {
    struct sear_node *n = symbolic_node(NULL, "stdout", 1024, 0);
    __sear_descs[1].node = n;
  }
  unsigned *version = malloc(sizeof *version);
  klee_make_symbolic(version, sizeof *version, "model_version");
  klee_assume(*version == 1);
}
