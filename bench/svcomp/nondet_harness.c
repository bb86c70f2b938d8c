/* Native replay of a Test-Comp test case: links with an SV-COMP program and gives its
 * __VERIFIER_nondet_* calls the test's input values, one per line of the file named by
 * SEAR_TESTCOMP_INPUTS (bench/svcomp/validate_suite.py --inputs TEST.xml writes them), in
 * call order, as Test-Comp's test executors do. Values are C literals: decimal or 0x
 * integers, floats as strtod reads them.
 *
 *   exit 0 ...     the program's own status
 *   exit 97        the program asked for more inputs than the test has
 *   exit 98        an input is not a literal of the function's type
 *   SIGABRT        reach_error (or __VERIFIER_error) was called ("harness: reach_error
 *                  reached") or abort()
 *   __VERIFIER_assume(0) exits 0: the test leaves the program's domain there.
 *
 * A call of reach_error is seen whatever the program's body for it (SV-COMP's programs
 * define it, sometimes empty): compile the program with -finstrument-functions -rdynamic
 * and this file without, and link with -ldl; each function entry is compared with
 * reach_error's address. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *inputs;

static const char *next_input(const char *function) {
  static char line[512];
  if (!inputs) {
    const char *path = getenv("SEAR_TESTCOMP_INPUTS");
    inputs = path ? fopen(path, "r") : NULL;
    if (!inputs) {
      fprintf(stderr, "harness: SEAR_TESTCOMP_INPUTS names no readable file\n");
      exit(96);
    }
  }
  if (!fgets(line, sizeof line, inputs)) {
    fprintf(stderr, "harness: %s: no input left\n", function);
    exit(97);
  }
  line[strcspn(line, "\r\n")] = 0;
  return line;
}

static void bad_input(const char *function, const char *text) {
  fprintf(stderr, "harness: %s: cannot read '%s'\n", function, text);
  exit(98);
}

static long long signed_input(const char *function) {
  const char *text = next_input(function);
  char *end;
  long long v = strtoll(text, &end, 0);
  if (end == text || *end)
    bad_input(function, text);
  return v;
}

static unsigned long long unsigned_input(const char *function) {
  const char *text = next_input(function);
  char *end;
  unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end)
    bad_input(function, text);
  return v;
}

static double float_input(const char *function) {
  const char *text = next_input(function);
  char *end;
  double v = strtod(text, &end);
  if (end == text || *end)
    bad_input(function, text);
  return v;
}

#define SIGNED(suffix, type)                                                   \
  type __VERIFIER_nondet_##suffix(void) {                                      \
    return (type)signed_input("__VERIFIER_nondet_" #suffix);                   \
  }
#define UNSIGNED(suffix, type)                                                 \
  type __VERIFIER_nondet_##suffix(void) {                                      \
    return (type)unsigned_input("__VERIFIER_nondet_" #suffix);                 \
  }

_Bool __VERIFIER_nondet_bool(void) {
  return signed_input("__VERIFIER_nondet_bool") != 0;
}
SIGNED(char, char)
UNSIGNED(uchar, unsigned char)
SIGNED(short, short)
UNSIGNED(ushort, unsigned short)
SIGNED(int, int)
UNSIGNED(uint, unsigned int)
UNSIGNED(unsigned, unsigned int)
SIGNED(long, long)
UNSIGNED(ulong, unsigned long)
SIGNED(longlong, long long)
UNSIGNED(ulonglong, unsigned long long)
UNSIGNED(size_t, unsigned long)

float __VERIFIER_nondet_float(void) {
  const char *text = next_input("__VERIFIER_nondet_float");
  char *end;
  float v = strtof(text, &end);
  if (end == text || *end)
    bad_input("__VERIFIER_nondet_float", text);
  return v;
}
double __VERIFIER_nondet_double(void) {
  return float_input("__VERIFIER_nondet_double");
}

void __VERIFIER_assume(int cond) {
  if (!cond)
    exit(0);
}

static void reached(void) {
  fputs("harness: reach_error reached\n", stderr);
  abort();
}

void __cyg_profile_func_enter(void *function, void *call_site) {
  static void *target;
  static int looked_up;
  (void)call_site;
  if (!looked_up) {
    looked_up = 1;
    target = dlsym(RTLD_DEFAULT, "reach_error");
  }
  if (target && function == target)
    reached();
}

void __cyg_profile_func_exit(void *function, void *call_site) {
  (void)function;
  (void)call_site;
}

/* The error function of older SV-COMP tasks (declared, never defined by them). */
void __VERIFIER_error(void) { reached(); }

__attribute__((weak)) void reach_error(void) {
  fputs("harness: reach_error reached\n", stderr);
  abort();
}
