//! The operators Indexify can index (F₊) and build gardens with (B₊): their names,
//! signatures and the names a program calls them by.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::value::Ty;

/// A `string.h` function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum StrFn {
    Strlen,
    Strcmp,
    Strncmp,
    Strcasecmp,
    Strncasecmp,
    Strstr,
    Strchr,
    Strrchr,
    Strpbrk,
    Strspn,
    Strcspn,
    Strcpy,
    Strcat,
}

impl StrFn {
    /// Every supported `string.h` function.
    pub const ALL: [StrFn; 13] = [
        StrFn::Strlen,
        StrFn::Strcmp,
        StrFn::Strncmp,
        StrFn::Strcasecmp,
        StrFn::Strncasecmp,
        StrFn::Strstr,
        StrFn::Strchr,
        StrFn::Strrchr,
        StrFn::Strpbrk,
        StrFn::Strspn,
        StrFn::Strcspn,
        StrFn::Strcpy,
        StrFn::Strcat,
    ];

    /// The C name.
    pub fn name(self) -> &'static str {
        match self {
            StrFn::Strlen => "strlen",
            StrFn::Strcmp => "strcmp",
            StrFn::Strncmp => "strncmp",
            StrFn::Strcasecmp => "strcasecmp",
            StrFn::Strncasecmp => "strncasecmp",
            StrFn::Strstr => "strstr",
            StrFn::Strchr => "strchr",
            StrFn::Strrchr => "strrchr",
            StrFn::Strpbrk => "strpbrk",
            StrFn::Strspn => "strspn",
            StrFn::Strcspn => "strcspn",
            StrFn::Strcpy => "strcpy",
            StrFn::Strcat => "strcat",
        }
    }

    /// The function a C name stands for.
    pub fn lookup(name: &str) -> Option<StrFn> {
        StrFn::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A binary arithmetic instruction on floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// A floating-point comparison predicate (LLVM's `fcmp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Pred {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

impl Pred {
    /// The predicate's LLVM name.
    pub fn name(self) -> &'static str {
        use Pred::*;
        match self {
            False => "false",
            Oeq => "oeq",
            Ogt => "ogt",
            Oge => "oge",
            Olt => "olt",
            Ole => "ole",
            One => "one",
            Ord => "ord",
            Ueq => "ueq",
            Ugt => "ugt",
            Uge => "uge",
            Ult => "ult",
            Ule => "ule",
            Une => "une",
            Uno => "uno",
            True => "true",
        }
    }

    /// The predicate on two doubles (floats compare exactly as doubles).
    pub fn holds(self, a: f64, b: f64) -> bool {
        use Pred::*;
        let unordered = a.is_nan() || b.is_nan();
        match self {
            False => false,
            True => true,
            Ord => !unordered,
            Uno => unordered,
            Oeq => !unordered && a == b,
            Ogt => !unordered && a > b,
            Oge => !unordered && a >= b,
            Olt => !unordered && a < b,
            Ole => !unordered && a <= b,
            One => !unordered && a != b,
            Ueq => unordered || a == b,
            Ugt => unordered || a > b,
            Uge => unordered || a >= b,
            Ult => unordered || a < b,
            Ule => unordered || a <= b,
            Une => unordered || a != b,
        }
    }
}

/// A `math.h` function (or the LLVM intrinsic clang emits for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum MathFn {
    Fabs,
    Floor,
    Ceil,
    Trunc,
    Round,
    Sqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Cbrt,
    Pow,
    Atan2,
    Hypot,
    Fmod,
    Fmin,
    Fmax,
    Copysign,
}

impl MathFn {
    /// Every supported `math.h` function.
    pub const ALL: [MathFn; 30] = {
        use MathFn::*;
        [
            Fabs, Floor, Ceil, Trunc, Round, Sqrt, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh,
            Tanh, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p, Cbrt, Pow, Atan2, Hypot, Fmod, Fmin,
            Fmax, Copysign,
        ]
    };

    /// The C name of the double version (`floor`); the float version appends `f`.
    pub fn name(self) -> &'static str {
        use MathFn::*;
        match self {
            Fabs => "fabs",
            Floor => "floor",
            Ceil => "ceil",
            Trunc => "trunc",
            Round => "round",
            Sqrt => "sqrt",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Exp => "exp",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log => "log",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Cbrt => "cbrt",
            Pow => "pow",
            Atan2 => "atan2",
            Hypot => "hypot",
            Fmod => "fmod",
            Fmin => "fmin",
            Fmax => "fmax",
            Copysign => "copysign",
        }
    }

    /// Number of float arguments.
    pub fn arity(self) -> usize {
        use MathFn::*;
        match self {
            Pow | Atan2 | Hypot | Fmod | Fmin | Fmax | Copysign => 2,
            _ => 1,
        }
    }

    /// The function and float type a callee name stands for: C names (`floor`, `floorf`)
    /// and LLVM intrinsics (`llvm.floor.f64`, `llvm.minnum.f32`, ...).
    pub fn lookup(name: &str) -> Option<(MathFn, Ty)> {
        if let Some(rest) = name.strip_prefix("llvm.") {
            let (stem, ty) = rest.rsplit_once('.')?;
            let ty = match ty {
                "f64" => Ty::F64,
                "f32" => Ty::F32,
                _ => return None,
            };
            let stem = match stem {
                "minnum" => "fmin",
                "maxnum" => "fmax",
                other => other,
            };
            return MathFn::ALL
                .into_iter()
                .find(|f| f.name() == stem)
                .map(|f| (f, ty));
        }
        MathFn::ALL.into_iter().find_map(|f| {
            if name == f.name() {
                Some((f, Ty::F64))
            } else if name.strip_prefix(f.name()) == Some("f") {
                Some((f, Ty::F32))
            } else {
                None
            }
        })
    }
}

/// An operator over indexed values: a library function or (for floats) a primitive
/// instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Op {
    /// A `string.h` function.
    Str(StrFn),
    /// `fadd`, `fsub`, `fmul`, `fdiv`, `frem`.
    Arith(Arith, Ty),
    /// `fneg`.
    Neg(Ty),
    /// `fcmp <pred>`.
    Cmp(Pred, Ty),
    /// `fptosi`/`fptoui` to an integer of `width` bits.
    ToInt {
        /// Signed conversion.
        signed: bool,
        /// Result width.
        width: u32,
        /// Source type.
        from: Ty,
    },
    /// `fpext float to double`.
    Ext,
    /// `fptrunc double to float`.
    Trunc,
    /// A `math.h` function.
    Math(MathFn, Ty),
}

/// A parameter of an operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// An indexed value.
    Idx(Ty),
    /// An integer of this many bits (not indexed: rows are computed per concrete value).
    Int(u32),
}

/// What an operator returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    /// An indexed value (its index, or ⊥ when not in the garden).
    Idx(Ty),
    /// An integer of this many bits (the raw value).
    Int(u32),
    /// A boolean.
    Bool,
    /// A pointer into the first argument: the byte offset, or NULL.
    Offset,
}

impl Op {
    /// The table name: the C name for library functions, the instruction otherwise,
    /// followed by the float type (`strncmp`, `fadd.f64`, `fcmp.olt.f32`, `floor.f64`).
    pub fn name(&self) -> String {
        match self {
            Op::Str(f) => f.name().to_string(),
            Op::Arith(a, ty) => {
                let n = match a {
                    Arith::Add => "fadd",
                    Arith::Sub => "fsub",
                    Arith::Mul => "fmul",
                    Arith::Div => "fdiv",
                    Arith::Rem => "frem",
                };
                format!("{n}.{ty}")
            }
            Op::Neg(ty) => format!("fneg.{ty}"),
            Op::Cmp(p, ty) => format!("fcmp.{}.{ty}", p.name()),
            Op::ToInt {
                signed,
                width,
                from,
            } => format!(
                "{}.i{width}.{from}",
                if *signed { "fptosi" } else { "fptoui" }
            ),
            Op::Ext => "fpext.f32.f64".into(),
            Op::Trunc => "fptrunc.f64.f32".into(),
            Op::Math(f, ty) => format!("{}.{ty}", f.name()),
        }
    }

    /// The family name users give in `--index-fplus` (`strncmp`, `fadd`, `fcmp`, `floor`).
    pub fn family(&self) -> &'static str {
        match self {
            Op::Str(f) => f.name(),
            Op::Arith(Arith::Add, _) => "fadd",
            Op::Arith(Arith::Sub, _) => "fsub",
            Op::Arith(Arith::Mul, _) => "fmul",
            Op::Arith(Arith::Div, _) => "fdiv",
            Op::Arith(Arith::Rem, _) => "frem",
            Op::Neg(_) => "fneg",
            Op::Cmp(..) => "fcmp",
            Op::ToInt { signed: true, .. } => "fptosi",
            Op::ToInt { signed: false, .. } => "fptoui",
            Op::Ext => "fpext",
            Op::Trunc => "fptrunc",
            Op::Math(f, _) => f.name(),
        }
    }

    /// True for the primitive float instructions (in F₊ as sear's choice, spec §2.9);
    /// false for library functions.
    pub fn is_primitive(&self) -> bool {
        !matches!(self, Op::Str(_) | Op::Math(..))
    }

    /// The parameters.
    pub fn params(&self) -> Vec<Param> {
        use Param::*;
        let s = Idx(Ty::Str);
        match self {
            Op::Str(f) => match f {
                StrFn::Strlen => vec![s],
                StrFn::Strncmp | StrFn::Strncasecmp => vec![s, s, Int(64)],
                StrFn::Strchr | StrFn::Strrchr => vec![s, Int(32)],
                _ => vec![s, s],
            },
            Op::Arith(_, ty) | Op::Cmp(_, ty) => vec![Idx(*ty), Idx(*ty)],
            Op::Neg(ty) | Op::ToInt { from: ty, .. } => vec![Idx(*ty)],
            Op::Ext => vec![Idx(Ty::F32)],
            Op::Trunc => vec![Idx(Ty::F64)],
            Op::Math(f, ty) => vec![Idx(*ty); f.arity()],
        }
    }

    /// The result.
    pub fn ret(&self) -> Ret {
        match self {
            Op::Str(f) => match f {
                StrFn::Strlen | StrFn::Strspn | StrFn::Strcspn => Ret::Int(64),
                StrFn::Strcmp | StrFn::Strncmp | StrFn::Strcasecmp | StrFn::Strncasecmp => {
                    Ret::Int(32)
                }
                StrFn::Strstr | StrFn::Strchr | StrFn::Strrchr | StrFn::Strpbrk => Ret::Offset,
                StrFn::Strcpy | StrFn::Strcat => Ret::Idx(Ty::Str),
            },
            Op::Arith(_, ty) | Op::Neg(ty) | Op::Math(_, ty) => Ret::Idx(*ty),
            Op::Cmp(..) => Ret::Bool,
            Op::ToInt { width, .. } => Ret::Int(*width),
            Op::Ext => Ret::Idx(Ty::F64),
            Op::Trunc => Ret::Idx(Ty::F32),
        }
    }

    /// True for `strcpy`/`strcat`: the result string is written to the first argument's
    /// buffer, and the call returns that pointer.
    pub fn writes_first(&self) -> bool {
        matches!(self, Op::Str(StrFn::Strcpy | StrFn::Strcat))
    }

    /// True when the operator can grow a garden (B₊): its result is a value of an indexed
    /// type (pointer results into a string count as the suffix they point to).
    pub fn is_builder(&self) -> bool {
        matches!(self.ret(), Ret::Idx(_) | Ret::Offset)
    }

    /// The operator a callee name stands for (library functions only).
    pub fn for_callee(name: &str) -> Option<Op> {
        if let Some(f) = StrFn::lookup(name) {
            return Some(Op::Str(f));
        }
        MathFn::lookup(name).map(|(f, ty)| Op::Math(f, ty))
    }

    /// Every operator of a family name (for `--index-fplus`), over the given float types
    /// for float families. Unknown names give an empty list.
    pub fn of_family(name: &str, float_types: &[Ty]) -> Vec<Op> {
        if let Some(f) = StrFn::lookup(name) {
            return vec![Op::Str(f)];
        }
        let per_ty = |make: &dyn Fn(Ty) -> Op| float_types.iter().map(|&t| make(t)).collect();
        match name {
            "fadd" => per_ty(&|t| Op::Arith(Arith::Add, t)),
            "fsub" => per_ty(&|t| Op::Arith(Arith::Sub, t)),
            "fmul" => per_ty(&|t| Op::Arith(Arith::Mul, t)),
            "fdiv" => per_ty(&|t| Op::Arith(Arith::Div, t)),
            "frem" => per_ty(&|t| Op::Arith(Arith::Rem, t)),
            "fneg" => per_ty(&|t| Op::Neg(t)),
            _ => match MathFn::ALL.into_iter().find(|f| f.name() == name) {
                Some(f) => per_ty(&|t| Op::Math(f, t)),
                None => Vec::new(),
            },
        }
    }

    /// The type of the values this operator works on (its first indexed parameter).
    pub fn ty(&self) -> Ty {
        match self.params()[0] {
            Param::Idx(t) => t,
            Param::Int(_) => Ty::Str,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// True for a family name `--index-fplus` accepts.
pub fn known_family(name: &str) -> bool {
    StrFn::lookup(name).is_some()
        || MathFn::ALL.iter().any(|f| f.name() == name)
        || [
            "fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "fptosi", "fptoui", "fpext",
            "fptrunc",
        ]
        .contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callee_names_map_to_operators() {
        assert_eq!(Op::for_callee("strncmp"), Some(Op::Str(StrFn::Strncmp)));
        assert_eq!(
            Op::for_callee("floorf"),
            Some(Op::Math(MathFn::Floor, Ty::F32))
        );
        assert_eq!(
            Op::for_callee("llvm.fabs.f64"),
            Some(Op::Math(MathFn::Fabs, Ty::F64))
        );
        assert_eq!(
            Op::for_callee("llvm.maxnum.f64"),
            Some(Op::Math(MathFn::Fmax, Ty::F64))
        );
        assert_eq!(Op::for_callee("printf"), None);
        assert_eq!(Op::for_callee("llvm.fabs.f80"), None);
        assert_eq!(Op::Cmp(Pred::Olt, Ty::F64).name(), "fcmp.olt.f64");
    }

    #[test]
    fn predicates_follow_ieee_ordering() {
        let nan = f64::NAN;
        assert!(Pred::Olt.holds(1.0, 2.0) && !Pred::Olt.holds(nan, 2.0));
        assert!(Pred::Ult.holds(nan, 2.0) && Pred::Uno.holds(1.0, nan));
        assert!(Pred::Oeq.holds(0.0, -0.0) && !Pred::One.holds(0.0, -0.0));
    }
}
