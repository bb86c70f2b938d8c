/*
 * klee/klee.h — KLEE's user API, as understood by sear.
 *
 * Harnesses written for KLEE compile unchanged against this header, both
 * under sear (symbolic execution) and natively against the replay runtime
 * (runtime/replay/sear_replay.c), which implements every function here on
 * concrete values read from a .ktest file.
 *
 * Valid C (C99 and later) and C++ (the declarations have C linkage).
 */
#ifndef SEAR_KLEE_KLEE_H
#define SEAR_KLEE_KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SEAR_NORETURN __attribute__((__noreturn__))
#else
#define SEAR_NORETURN
#endif

/* ---- Symbolic inputs --------------------------------------------------- */

/* Makes the nbytes bytes at addr symbolic, under the given name. The range
 * must cover a whole object. On replay, fills it from the next .ktest object. */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* A symbolic int in [begin, end). A one-value range returns begin and makes
 * nothing symbolic; begin >= end is a user error. */
int klee_range(int begin, int end, const char *name);

/* A symbolic int named name. */
int klee_int(const char *name);

/* A symbolic value in [0, n). */
uintptr_t klee_choose(uintptr_t n);

/* Marks a concrete object at a fixed address (e.g. a memory-mapped device). */
void klee_define_fixed_object(void *addr, size_t nbytes);

/* ---- Path constraints ---------------------------------------------------- */

/* Adds condition (non-zero) to the path constraints; a path where it cannot
 * hold is dropped silently. */
void klee_assume(uintptr_t condition);

/* Asks the solver to prefer counterexamples where condition holds. */
void klee_prefer_cex(void *object, uintptr_t condition);

/* The POSIX model's variant of klee_prefer_cex. */
void klee_posix_prefer_cex(void *object, uintptr_t condition);

/* ---- Termination and errors ---------------------------------------------- */

/* Ends the current path without writing a test. */
SEAR_NORETURN void klee_silent_exit(int status);

/* Ends the current path with an abort error (abort.err). */
SEAR_NORETURN void klee_abort(void);

/* Ends the current path with an error of kind suffix (e.g. "user" or
 * "div.err"), reported at file:line with the given message. */
SEAR_NORETURN void klee_report_error(const char *file, int line,
                                     const char *message, const char *suffix);

/* Called by klee_assert when its condition is false (assert.err). */
SEAR_NORETURN void klee_assert_fail(const char *expr, const char *file,
                                    unsigned int line, const char *function);

/* Checks expr on every path; a path where it can be false is an assert error.
 * Unlike assert(), it is not disabled by NDEBUG. */
#define klee_assert(expr)                                                      \
  ((expr) ? (void)0 : klee_assert_fail(#expr, __FILE__, __LINE__, __func__))

/* ---- Diagnostics ----------------------------------------------------------- */

/* Prints a warning, prefixed with the current location. */
void klee_warning(const char *message);

/* Prints a warning once per call site and message. */
void klee_warning_once(const char *message);

/* Prints msg followed by the (symbolic) expression of the next argument. */
void klee_print_expr(const char *msg, ...);

/* Prints the range of values that value can take on the current path. */
void klee_print_range(const char *name, int value);

/* Prints the current call stack. */
void klee_stack_trace(void);

/* ---- Queries on values --------------------------------------------------- */

/* Non-zero if n is symbolic on the current path. */
unsigned klee_is_symbolic(uintptr_t n);

/* Returns one feasible concrete value of the expression (and keeps the path
 * general: the value is not added as a constraint). */
float klee_get_valuef(float expr);
double klee_get_valued(double expr);
long klee_get_valuel(long expr);
long long klee_get_valuell(long long expr);
uint32_t klee_get_value_i32(uint32_t expr);
uint64_t klee_get_value_i64(uint64_t expr);

/* The size of the object that ptr points into. */
size_t klee_get_obj_size(void *ptr);

/* Checks that [address, address + size) is a valid access (ptr.err if not). */
void klee_check_memory_access(const void *address, size_t size);

/* The modelled errno of the current path. */
int klee_get_errno(void);

/* Non-zero when running natively on a replayed test, zero under sear. */
unsigned klee_is_replay(void);

/* ---- Engine control -------------------------------------------------------- */

/* Enables (non-zero) or disables forking on symbolic branches. */
void klee_set_forking(unsigned enable);

/* Opens and closes a region whose paths are merged at its end. */
void klee_open_merge(void);
void klee_close_merge(void);

/* Marks an object as global (for the memory model). */
void klee_mark_global(void *object);

#ifdef __cplusplus
}
#endif

#endif /* SEAR_KLEE_KLEE_H */
