/*
 * The UndefinedBehaviorSanitizer's runtime interface (__ubsan_handle_*): a program
 * compiled with -fsanitize=... (undefined, signed-integer-overflow, null, bounds, ...)
 * calls these when a check fails, and each ends the path with an error, as KLEE's
 * --ubsan-runtime does. The error is reported at the program's line (the check's source
 * location), named as UBSan names it (signed-integer-overflow, null-pointer-use, ...),
 * with KLEE's kinds: ptr (null, misaligned or too small objects, pointer overflow,
 * out-of-bounds index, non-positive VLA bound, alignment assumption), overflow (integer
 * and float-cast overflow, invalid shift base), overshift (invalid shift exponent), div
 * (division by zero), unreachable_call, missing_return, invalid_load, implicit_truncation,
 * implicit_conversion, nullable_attribute, invalid_builtin_use. Both the recoverable and
 * the _abort forms end the path.
 */
#include <stdint.h>

#include "sear_rt.h"

struct ubsan_location {
  const char *file;
  uint32_t line;
  uint32_t column;
};

/* TypeKind: 0 integer (TypeInfo: log2(bit width) << 1 | signed), 1 float. */
struct ubsan_type {
  uint16_t kind;
  uint16_t info;
  char name[];
};

/* A value: inline when it fits in a pointer, else a pointer to it. */
typedef uintptr_t ubsan_value;

struct ubsan_overflow {
  struct ubsan_location loc;
  const struct ubsan_type *type;
};

struct ubsan_shift {
  struct ubsan_location loc;
  const struct ubsan_type *lhs_type;
  const struct ubsan_type *rhs_type;
};

struct ubsan_type_mismatch {
  struct ubsan_location loc;
  const struct ubsan_type *type;
  unsigned char log_alignment;
  unsigned char check_kind;
};

struct ubsan_implicit_conversion {
  struct ubsan_location loc;
  const struct ubsan_type *from;
  const struct ubsan_type *to;
  unsigned char kind;
};

struct ubsan_nonnull_arg {
  struct ubsan_location loc;
  struct ubsan_location attr_loc;
  int arg_index;
};

struct ubsan_alignment_assumption {
  struct ubsan_location loc;
  struct ubsan_location assumption_loc;
  const struct ubsan_type *type;
};

struct ubsan_loc_and_type {
  struct ubsan_location loc;
  const struct ubsan_type *type;
};

__attribute__((noreturn)) static void report(const struct ubsan_location *loc,
                                             const char *message, const char *kind) {
  klee_report_error(loc->file, (int)loc->line, message, kind);
  __builtin_unreachable();
}

static int is_signed_int(const struct ubsan_type *t) { return t->kind == 0 && (t->info & 1); }
static unsigned int_width(const struct ubsan_type *t) { return 1u << (t->info >> 1); }

/* The value of an integer of at most 64 bits, sign-extended when its type is signed. */
static int64_t int_value(const struct ubsan_type *t, ubsan_value v) {
  unsigned width = int_width(t);
  uint64_t bits = width > 64 ? *(const uint64_t *)v : (uint64_t)v;
  if (width < 64) {
    uint64_t mask = (1ull << width) - 1;
    bits &= mask;
    if (is_signed_int(t) && (bits >> (width - 1)) & 1)
      bits |= ~mask;
  }
  return (int64_t)bits;
}

/* ---- Arithmetic --------------------------------------------------------------- */

static void integer_overflow(struct ubsan_overflow *d) {
  report(&d->loc, is_signed_int(d->type) ? "signed-integer-overflow" : "unsigned-integer-overflow",
         "overflow");
}

#define OVERFLOW_HANDLER(name)                                                                 \
  void __ubsan_handle_##name(struct ubsan_overflow *d, ubsan_value a, ubsan_value b) {        \
    (void)a;                                                                                   \
    (void)b;                                                                                   \
    integer_overflow(d);                                                                       \
  }                                                                                            \
  void __ubsan_handle_##name##_abort(struct ubsan_overflow *d, ubsan_value a, ubsan_value b) { \
    (void)a;                                                                                   \
    (void)b;                                                                                   \
    integer_overflow(d);                                                                       \
  }

OVERFLOW_HANDLER(add_overflow)
OVERFLOW_HANDLER(sub_overflow)
OVERFLOW_HANDLER(mul_overflow)

void __ubsan_handle_negate_overflow(struct ubsan_overflow *d, ubsan_value v) {
  (void)v;
  integer_overflow(d);
}
void __ubsan_handle_negate_overflow_abort(struct ubsan_overflow *d, ubsan_value v) {
  (void)v;
  integer_overflow(d);
}

/* Division by zero (integer or float), or INT_MIN / -1. */
static void divrem(struct ubsan_overflow *d, ubsan_value rhs) {
  if (d->type->kind != 0)
    report(&d->loc, "float-divide-by-zero", "div");
  if (int_value(d->type, rhs) == 0)
    report(&d->loc, "integer-divide-by-zero", "div");
  report(&d->loc, "signed-integer-overflow", "overflow");
}
void __ubsan_handle_divrem_overflow(struct ubsan_overflow *d, ubsan_value lhs, ubsan_value rhs) {
  (void)lhs;
  divrem(d, rhs);
}
void __ubsan_handle_divrem_overflow_abort(struct ubsan_overflow *d, ubsan_value lhs,
                                          ubsan_value rhs) {
  (void)lhs;
  divrem(d, rhs);
}

/* A negative exponent or one of at least the width is the exponent's fault; otherwise the
 * base's (a negative one, or bits shifted out of a signed value). */
static void shift(struct ubsan_shift *d, ubsan_value rhs) {
  int64_t amount = int_value(d->rhs_type, rhs);
  if ((is_signed_int(d->rhs_type) && amount < 0) ||
      (uint64_t)amount >= int_width(d->lhs_type))
    report(&d->loc, "invalid-shift-exponent", "overshift");
  report(&d->loc, "invalid-shift-base", "overflow");
}
void __ubsan_handle_shift_out_of_bounds(struct ubsan_shift *d, ubsan_value lhs, ubsan_value rhs) {
  (void)lhs;
  shift(d, rhs);
}
void __ubsan_handle_shift_out_of_bounds_abort(struct ubsan_shift *d, ubsan_value lhs,
                                              ubsan_value rhs) {
  (void)lhs;
  shift(d, rhs);
}

/* Float-cast data: the source location first (clang's FloatCastOverflowDataV2). */
void __ubsan_handle_float_cast_overflow(struct ubsan_loc_and_type *d, ubsan_value v) {
  (void)v;
  report(&d->loc, "float-cast-overflow", "overflow");
}
void __ubsan_handle_float_cast_overflow_abort(struct ubsan_loc_and_type *d, ubsan_value v) {
  (void)v;
  report(&d->loc, "float-cast-overflow", "overflow");
}

/* Kinds: 0 (legacy) and 1 unsigned truncation, 2 signed truncation, 3 sign change,
 * 4 signed truncation or sign change. */
static void implicit_conversion(struct ubsan_implicit_conversion *d) {
  switch (d->kind) {
  case 0:
  case 1:
    if (d->kind == 0 && (is_signed_int(d->from) || is_signed_int(d->to)))
      report(&d->loc, "implicit-signed-integer-truncation", "implicit_truncation");
    report(&d->loc, "implicit-unsigned-integer-truncation", "implicit_truncation");
  case 2:
    report(&d->loc, "implicit-signed-integer-truncation", "implicit_truncation");
  case 3:
    report(&d->loc, "implicit-integer-sign-change", "implicit_conversion");
  default:
    report(&d->loc, "implicit-signed-integer-truncation-or-sign-change", "implicit_conversion");
  }
}
void __ubsan_handle_implicit_conversion(struct ubsan_implicit_conversion *d, ubsan_value from,
                                        ubsan_value to) {
  (void)from;
  (void)to;
  implicit_conversion(d);
}
void __ubsan_handle_implicit_conversion_abort(struct ubsan_implicit_conversion *d,
                                              ubsan_value from, ubsan_value to) {
  (void)from;
  (void)to;
  implicit_conversion(d);
}

/* ---- Pointers and objects ------------------------------------------------------- */

static void type_mismatch(struct ubsan_type_mismatch *d, ubsan_value pointer) {
  uintptr_t alignment = (uintptr_t)1 << d->log_alignment;
  if (pointer == 0)
    report(&d->loc, "null-pointer-use", "ptr");
  if (pointer & (alignment - 1))
    report(&d->loc, "misaligned-pointer-use", "ptr");
  report(&d->loc, "insufficient-object-size", "ptr");
}
void __ubsan_handle_type_mismatch_v1(struct ubsan_type_mismatch *d, ubsan_value pointer) {
  type_mismatch(d, pointer);
}
void __ubsan_handle_type_mismatch_v1_abort(struct ubsan_type_mismatch *d, ubsan_value pointer) {
  type_mismatch(d, pointer);
}

void __ubsan_handle_alignment_assumption(struct ubsan_alignment_assumption *d, ubsan_value p,
                                         ubsan_value align, ubsan_value offset) {
  (void)p;
  (void)align;
  (void)offset;
  report(&d->loc, "alignment-assumption", "ptr");
}
void __ubsan_handle_alignment_assumption_abort(struct ubsan_alignment_assumption *d,
                                               ubsan_value p, ubsan_value align,
                                               ubsan_value offset) {
  __ubsan_handle_alignment_assumption(d, p, align, offset);
}

static void pointer_overflow(struct ubsan_location *loc, ubsan_value base, ubsan_value result) {
  if (base == 0 && result == 0)
    report(loc, "nullptr-with-offset", "ptr");
  if (base == 0)
    report(loc, "nullptr-with-nonzero-offset", "ptr");
  if (result == 0)
    report(loc, "nullptr-after-nonzero-offset", "ptr");
  report(loc, "pointer-overflow", "ptr");
}
void __ubsan_handle_pointer_overflow(struct ubsan_location *loc, ubsan_value base,
                                     ubsan_value result) {
  pointer_overflow(loc, base, result);
}
void __ubsan_handle_pointer_overflow_abort(struct ubsan_location *loc, ubsan_value base,
                                           ubsan_value result) {
  pointer_overflow(loc, base, result);
}

void __ubsan_handle_out_of_bounds(struct ubsan_loc_and_type *d, ubsan_value index) {
  (void)index;
  report(&d->loc, "out-of-bounds-index", "ptr");
}
void __ubsan_handle_out_of_bounds_abort(struct ubsan_loc_and_type *d, ubsan_value index) {
  (void)index;
  report(&d->loc, "out-of-bounds-index", "ptr");
}

void __ubsan_handle_vla_bound_not_positive(struct ubsan_loc_and_type *d, ubsan_value bound) {
  (void)bound;
  report(&d->loc, "non-positive-vla-index", "ptr");
}
void __ubsan_handle_vla_bound_not_positive_abort(struct ubsan_loc_and_type *d,
                                                 ubsan_value bound) {
  (void)bound;
  report(&d->loc, "non-positive-vla-index", "ptr");
}

/* ---- Values and control flow ------------------------------------------------------ */

/* A bool (clang's type name is '_Bool' or 'bool') or an enum holding an invalid value. */
static void invalid_value(struct ubsan_loc_and_type *d) {
  const char *name = d->type->name;
  int is_bool = name[0] == '\'' && (name[1] == '_' || name[1] == 'b');
  report(&d->loc, is_bool ? "invalid-bool-load" : "invalid-enum-load", "invalid_load");
}
void __ubsan_handle_load_invalid_value(struct ubsan_loc_and_type *d, ubsan_value v) {
  (void)v;
  invalid_value(d);
}
void __ubsan_handle_load_invalid_value_abort(struct ubsan_loc_and_type *d, ubsan_value v) {
  (void)v;
  invalid_value(d);
}

void __ubsan_handle_builtin_unreachable(struct ubsan_location *loc) {
  report(loc, "unreachable-call", "unreachable_call");
}
void __ubsan_handle_missing_return(struct ubsan_location *loc) {
  report(loc, "missing-return", "missing_return");
}

void __ubsan_handle_invalid_builtin(struct ubsan_location *loc) {
  report(loc, "invalid-builtin-use", "invalid_builtin_use");
}
void __ubsan_handle_invalid_builtin_abort(struct ubsan_location *loc) {
  report(loc, "invalid-builtin-use", "invalid_builtin_use");
}

void __ubsan_handle_function_type_mismatch(struct ubsan_loc_and_type *d, ubsan_value f) {
  (void)f;
  report(&d->loc, "function-type-mismatch", "exec");
}
void __ubsan_handle_function_type_mismatch_abort(struct ubsan_loc_and_type *d, ubsan_value f) {
  (void)f;
  report(&d->loc, "function-type-mismatch", "exec");
}

/* ---- Null arguments and results ---------------------------------------------------- */

void __ubsan_handle_nonnull_arg(struct ubsan_nonnull_arg *d) {
  report(&d->loc, "invalid-null-argument", "nullable_attribute");
}
void __ubsan_handle_nonnull_arg_abort(struct ubsan_nonnull_arg *d) {
  report(&d->loc, "invalid-null-argument", "nullable_attribute");
}
void __ubsan_handle_nullability_arg(struct ubsan_nonnull_arg *d) {
  report(&d->loc, "invalid-null-argument", "nullable_attribute");
}
void __ubsan_handle_nullability_arg_abort(struct ubsan_nonnull_arg *d) {
  report(&d->loc, "invalid-null-argument", "nullable_attribute");
}

/* The return checks get the attribute's data and the return statement's location. */
void __ubsan_handle_nonnull_return_v1(void *d, struct ubsan_location *loc) {
  (void)d;
  report(loc, "invalid-null-return", "nullable_attribute");
}
void __ubsan_handle_nonnull_return_v1_abort(void *d, struct ubsan_location *loc) {
  (void)d;
  report(loc, "invalid-null-return", "nullable_attribute");
}
void __ubsan_handle_nullability_return_v1(void *d, struct ubsan_location *loc) {
  (void)d;
  report(loc, "invalid-null-return", "nullable_attribute");
}
void __ubsan_handle_nullability_return_v1_abort(void *d, struct ubsan_location *loc) {
  (void)d;
  report(loc, "invalid-null-return", "nullable_attribute");
}
