/*
 * sear_rt.h — internal declarations shared by sear's C runtime (libc and the
 * POSIX environment model). Not installed for programs: they include glibc's
 * headers, and the runtime implements glibc's ABI behind them.
 *
 * The runtime is compiled to LLVM bitcode and linked into the program under
 * test on demand (llvm-link --only-needed), so every function here is only
 * present when the program (or another used runtime function) needs it.
 */
#ifndef SEAR_RT_H
#define SEAR_RT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "klee/klee.h"

/* ---- Engine hooks ---------------------------------------------------------
 * Declarations the engine implements (crates/sear-engine, special.rs). */

/* Appends len bytes at buf to the current path's output stream fd (1 or 2).
 * Symbolic bytes stay symbolic; each test records their values under its
 * inputs in testNNNNNN.stdout / .stderr. */
void __sear_write(int fd, const void *buf, size_t len);

/* The program's own main, under a name the runtime's entry can call. */
int __sear_user_main(int argc, char **argv, char **envp);

/* ---- Concretisation ------------------------------------------------------- */

/* Returns v; if v is symbolic, fixes it to one feasible value (adding the
 * equality to the path condition) and warns once with `what`. */
uint64_t __sear_concretize(uint64_t v, const char *what);

/* ---- The modelled file system -------------------------------------------- */

#define SEAR_MAX_NODES 64
/* The inodes of the files the model makes itself (created files, the directories,
 * /dev/null, stdout and stderr: device 1, inodes 1 to SEAR_MAX_NODES + 2) are at most this;
 * a symbolic status's inode is above it, so a symbolic file is never one of them. */
#define SEAR_MODEL_MAX_INO (SEAR_MAX_NODES + 2)
#define SEAR_MAX_FDS 64

/* Node flags. */
#define SEAR_NODE_USED 1u     /* the slot holds a file */
#define SEAR_NODE_WRITABLE 2u /* writes allowed (not a host copy) */
#define SEAR_NODE_SYMBOLIC 4u /* contents made symbolic (--sym-files/stdin) */
#define SEAR_NODE_HOST 8u     /* read-only copy of a host file */
#define SEAR_NODE_NULL 16u    /* /dev/null: reads see EOF, writes vanish */
#define SEAR_NODE_DIR 32u     /* a directory ("/" and "."): stat only */
#define SEAR_NODE_ZERO 64u    /* /dev/zero: reads see zero bytes, writes vanish */

/* A file: its name (NULL when it has none: stdin, unlinked files), contents
 * and status. Nodes are never freed. */
struct sear_node {
  unsigned flags;
  const char *name;
  unsigned char *data;
  size_t size;     /* bytes of contents */
  size_t capacity; /* bytes allocated at data */
  struct stat *st; /* status; st_size is kept equal to size */
};

/* Kinds of open file descriptions. */
enum sear_desc_kind {
  SEAR_DESC_FREE = 0,
  SEAR_DESC_NODE,   /* reads and writes go to a node */
  SEAR_DESC_OUTPUT, /* writes are program output (stdout/stderr) */
};

/* An open file description, shared by descriptors made with dup. */
struct sear_desc {
  int refs;
  enum sear_desc_kind kind;
  int flags;              /* O_ACCMODE bits, O_APPEND, O_NONBLOCK */
  int stream;             /* SEAR_DESC_OUTPUT: 1 (stdout) or 2 (stderr) */
  struct sear_node *node; /* SEAR_DESC_NODE; for OUTPUT, the --sym-stdout status */
  off_t offset;
};

/* A file descriptor. */
struct sear_fd {
  struct sear_desc *desc; /* NULL when closed */
  int cloexec;
};

extern struct sear_node __sear_nodes[SEAR_MAX_NODES];
/* The node of the root directory "/" (fs.c's table), which holds none of the model's files. */
#define SEAR_ROOT_NODE (&__sear_nodes[2])
extern struct sear_desc __sear_descs[SEAR_MAX_FDS];
extern struct sear_fd __sear_fds[SEAR_MAX_FDS];

/* Failure injection (--fd-fail / --max-fail): the n-th read (write, close) on a
 * modelled descriptor fails with EIO when the symbolic read_fail (write_fail,
 * close_fail) equals n, while failures remain. */
struct sear_fail {
  unsigned max_failures;
  int *read_fail;
  int *write_fail;
  int *close_fail;
  unsigned reads;
  unsigned writes;
  unsigned closes;
};
extern struct sear_fail __sear_fail;

/* write() for stdio: the same, except that stdout and stderr (the engine's output streams)
 * are not failure points here. KLEE's uclibc buffers them and writes at exit, so printf is
 * no failure point there either; a program's own write(1, ...) still is. */
ssize_t __sear_stdio_write(int fd, const void *buf, size_t count);

/* The model's current directory, which holds the symbolic files and the files a program
 * creates. It is not "/": a native replay runs in a scratch directory, where "/A" is not the
 * file A, so "/A" must not name it under sear either (KLEE's getcwd is the host's). It is long
 * enough that KLEE's 10-byte symbolic arguments cannot spell "<cwd>/A". */
#define SEAR_CWD "/home/sear"
/* The name path has in the current directory ("A" for "A", "./A" and SEAR_CWD "/A"; "."
 * for the directory itself), or, for a path outside it, path from its last leading "/". */
const char *__sear_cwd_name(const char *path);
/* The node named path (the same name in the current directory), or NULL. */
struct sear_node *__sear_find_node(const char *path);
/* True when dirfd names the current directory for the *at functions: AT_FDCWD, or a
 * descriptor opened on it ("." or SEAR_CWD; not "/", the root, which the model keeps
 * empty). */
int __sear_names_cwd(int dirfd);
/* The open file description of fd, or NULL (errno = EBADF). */
struct sear_desc *__sear_get_desc(int fd);
/* A free descriptor number >= min, or -1 (errno = EMFILE). */
int __sear_alloc_fd(int min);
/* A free open file description, or NULL (errno = ENFILE). */
struct sear_desc *__sear_alloc_desc(void);
/* Drops a reference to desc. */
void __sear_release_desc(struct sear_desc *desc);
/* The status of an open file description's file into *st. */
int __sear_desc_stat(const struct sear_desc *d, struct stat *st);
/* The status of a node into *st (st_size is the current size). */
void __sear_node_stat(const struct sear_node *n, struct stat *st);
/* A new empty node called name (copied), or NULL (errno = ENOSPC). */
struct sear_node *__sear_new_node(const char *name, unsigned flags, mode_t mode);

/* The host's status fields symbolic files prefer (sear_runtime::host_files::HostStat). */
struct sear_host_stat {
  int64_t dev, rdev, uid, gid, atime, mtime, ctime;
};

/* True when d is a terminal: its file has a symbolic status (--sym-stdin, --sym-stdout,
 * --sym-files) whose type is a character device, as in KLEE's model. Forks on the type. */
int __sear_desc_is_tty(const struct sear_desc *d);

struct termios;
/* The settings of a modelled terminal (tcgetattr and ioctl TCGETS). */
void __sear_fill_termios(struct termios *t);

/* Host files given with --host-file; the table is generated by sear run. */
struct sear_host_file {
  const char *name;
  const unsigned char *data;
  uint64_t size;
};
extern const struct sear_host_file __sear_host_files[];
extern const int32_t __sear_host_file_count;

/* Sets up the POSIX model from argv (klee_init_env-like); see posix/env.c. */
void __sear_init_env(int *argcp, char ***argvp);

/* Creates the symbolic files, stdin, stdout and failure counters. */
void __sear_init_fds(unsigned n_files, unsigned file_len, unsigned stdin_len,
                     int sym_stdout, unsigned max_failures, int sym_size);

/* ---- stdio internals ------------------------------------------------------- */

/* A sink for the formatter: a bounded buffer or a file descriptor. */
struct sear_sink {
  char *buf;    /* string sinks: the destination (may be NULL) */
  size_t cap;   /* string sinks: bytes available including the NUL */
  size_t len;   /* characters produced so far */
  int fd;       /* >= 0: descriptor sinks flush here */
  int failed;   /* a write failed */
  char pending[128];
  size_t npending;
};

/* Formats like vfprintf into the sink; returns the characters produced or -1. */
int __sear_vformat(struct sear_sink *sink, const char *fmt, __builtin_va_list ap);
void __sear_sink_flush(struct sear_sink *sink);

/* Exact decimal conversion of a double for %f, %e and %g; see libc/fmt_float.c.
 * Appends to the sink; conv is one of f F e E g G. */
void __sear_format_double(struct sear_sink *sink, double v, int conv, int prec,
                          int width, unsigned flags);

/* Formatter flags. */
#define SEAR_FMT_LEFT 1u
#define SEAR_FMT_PLUS 2u
#define SEAR_FMT_SPACE 4u
#define SEAR_FMT_ALT 8u
#define SEAR_FMT_ZERO 16u

void __sear_sink_putc(struct sear_sink *sink, char c);
void __sear_sink_pad(struct sear_sink *sink, char c, int n);

/* The value of a digit byte in bases up to 36 ('0'-'9', 'a'-'z', 'A'-'Z'),
 * 64 for every other byte. */
extern const unsigned char __sear_digit_value[256];

/* Runs the atexit handlers (called by exit). */
void __sear_run_atexit(void);

/* Writes a NUL-terminated message to stderr (no formatting, no errno). */
void __sear_puts_stderr(const char *s);

#endif /* SEAR_RT_H */
