/*
 * sear.h — the program interface of sear.
 *
 * Includes KLEE's API (klee/klee.h) and adds SV-COMP's verifier functions
 * and a few sear conveniences. Valid C and C++ (C linkage).
 *
 * SV-COMP programs usually declare __VERIFIER_* and reach_error themselves;
 * the declarations here are compatible with the usual ones, so including this
 * header as well is harmless. Types with platform-specific typedefs (loff_t,
 * sector_t, pthread_t) are left to the program; sear and the replay runtime
 * know them by name.
 */
#ifndef SEAR_SEAR_H
#define SEAR_SEAR_H

#include "klee/klee.h"

#ifdef __cplusplus
extern "C" {
#define SEAR_BOOL bool
#else
#define SEAR_BOOL _Bool
#endif

/* ---- SV-COMP --------------------------------------------------------------- */

/* Each returns a fresh symbolic value of its type. */
SEAR_BOOL __VERIFIER_nondet_bool(void);
SEAR_BOOL __VERIFIER_nondet__Bool(void);
char __VERIFIER_nondet_char(void);
unsigned char __VERIFIER_nondet_uchar(void);
short __VERIFIER_nondet_short(void);
unsigned short __VERIFIER_nondet_ushort(void);
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
unsigned int __VERIFIER_nondet_unsigned(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
long long __VERIFIER_nondet_longlong(void);
unsigned long long __VERIFIER_nondet_ulonglong(void);
float __VERIFIER_nondet_float(void);
double __VERIFIER_nondet_double(void);
size_t __VERIFIER_nondet_size_t(void);
unsigned int __VERIFIER_nondet_u32(void);
void *__VERIFIER_nondet_pointer(void);
char *__VERIFIER_nondet_pchar(void);

/* Drops paths where cond is zero (like klee_assume). */
void __VERIFIER_assume(int cond);

/* Marks an error location (SV-COMP's old convention); reaching it is an error. */
SEAR_NORETURN void __VERIFIER_error(void);

/* Marks an error location (SV-COMP's current convention). Programs usually
 * define it themselves as a failing assertion. */
void reach_error(void);

/* Brackets code the verifier may treat as atomic (no-ops for sear). */
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

/* ---- sear conveniences ----------------------------------------------------- */

/* Makes a variable symbolic under its own name: SEAR_SYMBOLIC(x). */
#define SEAR_SYMBOLIC(var) klee_make_symbolic(&(var), sizeof(var), #var)

#ifdef __cplusplus
}
#endif

#undef SEAR_BOOL

#endif /* SEAR_SEAR_H */
