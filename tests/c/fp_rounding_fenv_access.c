// The program of fp_rounding_modes.c under `#pragma STDC FENV_ACCESS ON`, where clang 19
// emits llvm.experimental.constrained.* intrinsics with "round.dynamic" for the float
// operations, conversions, rint and comparisons (the native build too): the same paths.
// expect-completed: 22
// expect-exits: 0 2 4 6 10 11 12 14 16 17 20 22 23 24 25 26 30 31 32 34 36 9
// expect-warning: concretizing symbolic value for the rounding mode of fesetround
#pragma STDC FENV_ACCESS ON
#include "fp_rounding_modes.c"
