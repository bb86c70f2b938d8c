/* The SV-COMP/Test-Comp functions for KLEE (bench/competitions/klee/klee-testcomp compiles
 * this file and links it with the task, as the competition's KLEE wrapper does).
 *
 * Every __VERIFIER_nondet_T call makes one symbolic object named "nK_T": K counts the calls
 * on the path (KLEE writes a test's objects in the order they were made; the count makes
 * that order explicit) and T tells the converter how to print the value. All definitions
 * are weak, so that a task's own definition wins. */
#include "klee/klee.h"

static unsigned calls;

/* "n" + the call count + "_" + the type name, into buf (no libc here). */
static void object_name(char *buf, const char *type) {
  char digits[12];
  int n = 0;
  unsigned k = ++calls;
  do {
    digits[n++] = (char)('0' + k % 10);
    k /= 10;
  } while (k);
  *buf++ = 'n';
  while (n)
    *buf++ = digits[--n];
  *buf++ = '_';
  while (*type)
    *buf++ = *type++;
  *buf = 0;
}

#define NONDET(TYPE, NAME)                                                     \
  __attribute__((weak)) TYPE __VERIFIER_nondet_##NAME(void) {                  \
    TYPE value;                                                                \
    char name[48];                                                             \
    object_name(name, #NAME);                                                  \
    klee_make_symbolic(&value, sizeof value, name);                            \
    return value;                                                              \
  }

NONDET(char, char)
NONDET(unsigned char, uchar)
NONDET(short, short)
NONDET(unsigned short, ushort)
NONDET(int, int)
NONDET(unsigned int, uint)
NONDET(unsigned int, unsigned)
NONDET(long, long)
NONDET(unsigned long, ulong)
NONDET(long long, longlong)
NONDET(unsigned long long, ulonglong)
NONDET(unsigned long, size_t)
NONDET(long, loff_t)
NONDET(unsigned char, u8)
NONDET(unsigned short, u16)
NONDET(unsigned int, u32)
NONDET(float, float)
NONDET(double, double)
NONDET(void *, pointer)
NONDET(char *, pchar)

/* A _Bool input is 0 or 1, as a Test-Comp harness gives it. */
__attribute__((weak)) _Bool __VERIFIER_nondet_bool(void) {
  unsigned char value;
  char name[48];
  object_name(name, "bool");
  klee_make_symbolic(&value, sizeof value, name);
  klee_assume(value < 2);
  return value;
}

/* A false assumption ends the path silently (klee --silent-klee-assume). */
__attribute__((weak)) void __VERIFIER_assume(int cond) { klee_assume(cond != 0); }

/* The error function of both formats: a KLEE error of its own kind (testN.reach.err), so
 * that --exit-on-error-type=ReportError stops at it and at nothing else. */
__attribute__((weak)) void reach_error(void) {
  klee_report_error(__FILE__, __LINE__, "reach_error", "reach.err");
}
__attribute__((weak)) void __VERIFIER_error(void) {
  klee_report_error(__FILE__, __LINE__, "reach_error", "reach.err");
}
