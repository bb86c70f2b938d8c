/* Common header of the benchmark programs: the klee.h API and the size knob.
 *
 * Every program reads its size from the SIZE macro (the harness passes `-D SIZE=N` to
 * `sear run`); what SIZE counts is said at the top of each program. */
#ifndef SEAR_BENCH_H
#define SEAR_BENCH_H
/* KLEE's klee.h expands klee_assert to __assert_fail, declared by assert.h */
#include <assert.h>
#include "klee/klee.h"

#ifndef SIZE
#define SIZE 1
#endif

#endif
