//! The preprocessing of an indexified run (spec A6): F₊ and B₊, seeds, Algorithm 1 (or the
//! Kleene builder), the tables (Algorithm 3, with the cache), and the rewritten module.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::{InstKind, Module};
use serde::Serialize;

use crate::builder::{self, BuildStats, BuilderKind, Gardens, Limits};
use crate::garden::{Garden, GardenStats};
use crate::harvest;
use crate::ops::{self, Op};
use crate::rewrite::{self, Helper, RewriteConfig, RewriteStats};
use crate::tables::Tables;
use crate::value::{GValue, Ty};

/// Errors of the preprocessing (bad options or files).
#[derive(Debug, thiserror::Error)]
pub enum IndexifyError {
    /// A seed file could not be read or parsed.
    #[error("{path}: {message}")]
    Seeds {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// `--index-fplus` named an unknown operator.
    #[error("--index-fplus: unknown operator '{0}' (string.h or math.h functions, or fadd, fsub, fmul, fdiv, frem, fneg)")]
    UnknownOperator(String),
}

/// The defaults of [`Settings`], written once (the CLI shows and uses these).
pub mod defaults {
    /// Builder rounds k.
    pub const K: u32 = 3;
    /// Longest built string.
    pub const MAX_LEN: usize = 8;
    /// Largest garden per type.
    pub const MAX_GARDEN: usize = 2048;
}

/// The options of a run; with the `cli` feature, also the command-line options that set
/// them (`sear run --indexify`'s parameters).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Settings {
    /// Index strings (`--indexify=strings`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub strings: bool,
    /// Index floats, `double` and `float` (`--indexify=floats`).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub floats: bool,
    /// Seeds from FILE instead of the program's literals (one a line: a JSON string, a
    /// number for a double, f32:NUMBER for a float).
    #[cfg_attr(
        feature = "cli",
        arg(id = "seeds", long = "seeds", value_name = "FILE")
    )]
    pub seeds_file: Option<PathBuf>,
    /// Seeds from FILE added to the program's literals.
    #[cfg_attr(
        feature = "cli",
        arg(id = "add-seeds", long = "add-seeds", value_name = "FILE")
    )]
    pub add_seeds_file: Option<PathBuf>,
    /// Builder rounds k (0 to 10).
    #[cfg_attr(feature = "cli", arg(
        id = "index-k",
        long = "index-k",
        value_name = "K",
        default_value_t = defaults::K,
        value_parser = clap::value_parser!(u32).range(0..=10),
    ))]
    pub k: u32,
    /// The string garden's builder: ops (the string operators the program uses, k rounds)
    /// or kleene (concatenations of at most k seeds).
    #[cfg_attr(feature = "cli", arg(
        id = "index-builder",
        long = "index-builder",
        value_name = "KIND",
        value_enum,
        default_value_t = BuilderKind::default(),
    ))]
    pub builder: BuilderKind,
    /// Built strings longer than this are not added to the garden (0 to 4096).
    #[cfg_attr(feature = "cli", arg(
        id = "index-max-len",
        long = "index-max-len",
        value_name = "N",
        default_value_t = defaults::MAX_LEN,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=4096),
    ))]
    pub max_len: usize,
    /// No garden grows beyond this many values by construction (1 to 2^20).
    #[cfg_attr(feature = "cli", arg(
        id = "index-max-garden",
        long = "index-max-garden",
        value_name = "N",
        default_value_t = defaults::MAX_GARDEN,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1 << 20),
    ))]
    pub max_garden: usize,
    /// The operators to index (comma-separated string.h / math.h names; fadd, fsub, fmul,
    /// fdiv, frem, fneg also build the float garden). Default: the string.h and math.h
    /// functions the program calls; the float instructions are always indexed.
    #[cfg_attr(
        feature = "cli",
        arg(
            id = "index-fplus",
            long = "index-fplus",
            value_name = "LIST",
            value_delimiter = ',',
        )
    )]
    pub fplus: Option<Vec<String>>,
    /// The entry function (the run's).
    #[cfg_attr(feature = "cli", arg(skip))]
    pub entry: String,
}

/// What the preprocessing reports (summary.json's `indexify` section, with the run's
/// counters added by the engine).
#[derive(Clone, Debug, Serialize)]
pub struct PrepareStats {
    /// The settings.
    pub settings: Settings,
    /// F₊ (tables the rewritten program calls, and the library functions indexed).
    pub fplus: Vec<String>,
    /// B₊.
    pub builders: Vec<String>,
    /// Per indexed type.
    pub gardens: BTreeMap<Ty, GardenStats>,
    /// Builder applications, and those that yielded new values.
    pub construction: BuildStats,
    /// Rows computed before exploration (Algorithm 3, tables small enough to fill whole).
    pub rows_memoised: u64,
    /// Rows loaded from the table cache.
    pub rows_from_cache: u64,
    /// The rewriting.
    pub rewrite: RewriteStats,
    /// Seconds spent preprocessing.
    pub time_s: f64,
}

/// The result: the rewritten module, its tables and helpers.
pub struct Prepared {
    /// The rewritten module (the original is untouched).
    pub module: Module,
    /// Gardens and tables.
    pub tables: Tables,
    /// The helper each declared `__indexify_*` name stands for.
    pub helpers: FxHashMap<String, Helper>,
    /// Statistics.
    pub stats: PrepareStats,
    /// The table cache file of these gardens (when caching).
    pub cache_file: Option<PathBuf>,
}

fn read_seeds(path: &PathBuf) -> Result<Vec<GValue>, IndexifyError> {
    let text = std::fs::read_to_string(path).map_err(|e| IndexifyError::Seeds {
        path: path.clone(),
        message: e.to_string(),
    })?;
    harvest::parse_seed_file(&text).map_err(|message| IndexifyError::Seeds {
        path: path.clone(),
        message,
    })
}

/// The library operators the program's own functions call.
fn called_ops(program: &Module) -> Vec<Op> {
    let mut ops = Vec::new();
    let defined: FxHashSet<&str> = program
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .map(|f| f.name.as_str())
        .collect();
    for f in program.functions.iter().filter(|f| !f.is_declaration) {
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let Some(name) = rewrite::analysis::callee_name(program, &inst.kind) {
                if let Some(op) = Op::for_callee(name).filter(|_| !defined.contains(name)) {
                    if !ops.contains(&op) {
                        ops.push(op);
                    }
                }
            }
        }
    }
    ops
}

/// The float instructions of the program that build values (B₊° applies "all the float
/// operators in P", spec §2.9): arithmetic, negation, and conversions between the indexed
/// float types.
fn primitive_builders(program: &Module, float_types: &[Ty]) -> Vec<Op> {
    use sear_ir::{BinaryOp, CastOp};
    let mut ops = Vec::new();
    let float = |t: sear_ir::TypeId| rewrite::analysis::float_ty(program, t, float_types);
    for f in program.functions.iter().filter(|f| !f.is_declaration) {
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            let op = match &inst.kind {
                InstKind::Binary { op, .. } => float(inst.ty).and_then(|t| {
                    let a = match op {
                        BinaryOp::FAdd => ops::Arith::Add,
                        BinaryOp::FSub => ops::Arith::Sub,
                        BinaryOp::FMul => ops::Arith::Mul,
                        BinaryOp::FDiv => ops::Arith::Div,
                        BinaryOp::FRem => ops::Arith::Rem,
                        _ => return None,
                    };
                    Some(Op::Arith(a, t))
                }),
                InstKind::FNeg(_) => float(inst.ty).map(Op::Neg),
                InstKind::Cast {
                    op: CastOp::FpExt,
                    from,
                    ..
                } if float(*from) == Some(Ty::F32) && float(inst.ty) == Some(Ty::F64) => {
                    Some(Op::Ext)
                }
                InstKind::Cast {
                    op: CastOp::FpTrunc,
                    from,
                    ..
                } if float(*from) == Some(Ty::F64) && float(inst.ty) == Some(Ty::F32) => {
                    Some(Op::Trunc)
                }
                _ => None,
            };
            if let Some(op) = op.filter(|o| !ops.contains(o)) {
                ops.push(op);
            }
        }
    }
    ops
}

/// Runs the preprocessing. `program` is the program's own module (seeds and F₊ come from
/// it), `linked` the module that runs (the program with the runtime).
pub fn prepare(
    program: &Module,
    linked: &Module,
    settings: &Settings,
    cache: Option<&std::path::Path>,
) -> Result<Prepared, IndexifyError> {
    let start = Instant::now();
    let mut types = Vec::new();
    if settings.strings {
        types.push(Ty::Str);
    }
    let float_types: Vec<Ty> = if settings.floats {
        vec![Ty::F64, Ty::F32]
    } else {
        Vec::new()
    };
    types.extend(&float_types);
    // F₊: the library functions the program calls ∩ string.h/math.h, or --index-fplus
    let mut fplus: Vec<Op> = Vec::new();
    let mut builders: Vec<Op> = Vec::new();
    match &settings.fplus {
        None => {
            fplus = called_ops(program);
            builders = primitive_builders(program, &float_types);
        }
        Some(names) => {
            for name in names {
                if !ops::known_family(name) {
                    return Err(IndexifyError::UnknownOperator(name.clone()));
                }
                for op in Op::of_family(name, &float_types) {
                    if op.is_primitive() {
                        builders.push(op); // a primitive named explicitly also builds
                    } else if !fplus.contains(&op) {
                        fplus.push(op);
                    }
                }
            }
        }
    }
    fplus.retain(|op| match op {
        Op::Str(_) => settings.strings,
        Op::Math(_, t) => float_types.contains(t),
        _ => false,
    });
    for op in &fplus {
        if op.is_builder() && !builders.contains(op) {
            builders.push(*op);
        }
    }
    builders.sort();
    // seeds
    let harvest = harvest::harvest(program, &types);
    let mut seeds = match &settings.seeds_file {
        Some(path) => read_seeds(path)?,
        None => harvest.seeds.clone(),
    };
    if let Some(path) = &settings.add_seeds_file {
        seeds.extend(read_seeds(path)?);
    }
    let mut gardens = Gardens::new();
    for &t in &types {
        gardens.insert(t, Garden::new(t));
    }
    for s in seeds {
        if let Some(g) = gardens.get_mut(&s.ty()) {
            if g.insert(s).1 {
                g.seeds += 1;
            }
        }
    }
    let limits = Limits {
        max_len: settings.max_len,
        max_garden: settings.max_garden,
    };
    let mut construction = BuildStats::default();
    let ints: Vec<u64> = harvest
        .ints
        .iter()
        .copied()
        .filter(|&i| (1..=255).contains(&i))
        .collect();
    match settings.builder {
        BuilderKind::Ops => builder::drive(
            &mut gardens,
            &builders,
            &ints,
            settings.k,
            limits,
            &mut construction,
        ),
        BuilderKind::Kleene => {
            if let Some(g) = gardens.get_mut(&Ty::Str) {
                builder::kleene(g, settings.k, limits, &mut construction);
            }
            let floats: Vec<Op> = builders
                .iter()
                .copied()
                .filter(|o| !matches!(o, Op::Str(_)))
                .collect();
            let mut rest: Gardens = gardens
                .iter()
                .filter(|(t, _)| **t != Ty::Str)
                .map(|(t, g)| (*t, g.clone()))
                .collect();
            builder::drive(
                &mut rest,
                &floats,
                &ints,
                settings.k,
                limits,
                &mut construction,
            );
            gardens.extend(rest);
        }
    }
    for g in gardens.values_mut() {
        g.sort();
        g.finish_construction();
    }
    let mut tables = Tables::new(gardens);
    let cache_file = cache.map(|dir| crate::cache::file_for(dir, &tables));
    if let Some(file) = &cache_file {
        if let Err(e) = crate::cache::load(file, &mut tables) {
            tracing::warn!("table cache {}: {e}", file.display());
        }
    }
    let program_names: FxHashSet<String> = program
        .functions
        .iter()
        .filter(|f| !f.is_declaration)
        .map(|f| f.name.clone())
        .collect();
    let config = RewriteConfig {
        program_names: &program_names,
        entry: &settings.entry,
        float_types: float_types.clone(),
        strings: settings.strings,
        fplus: fplus.iter().copied().collect(),
    };
    let rewritten = rewrite::rewrite(linked, &config, &tables);
    let all_ints: Vec<u64> = harvest.ints.clone();
    let mut rows_memoised = 0;
    for op in &rewritten.used_ops {
        rows_memoised += tables.memoise(op, &all_ints);
    }
    let mut table_names: Vec<String> = rewritten.used_ops.iter().map(Op::name).collect();
    for op in &fplus {
        if !table_names.contains(&op.name()) {
            table_names.push(op.name());
        }
    }
    let stats = PrepareStats {
        settings: settings.clone(),
        fplus: table_names,
        builders: builders.iter().map(Op::name).collect(),
        gardens: tables
            .gardens()
            .iter()
            .map(|(t, g)| (*t, g.stats()))
            .collect(),
        construction,
        rows_memoised,
        rows_from_cache: tables.stats.rows_from_cache,
        rewrite: rewritten.stats,
        time_s: start.elapsed().as_secs_f64(),
    };
    Ok(Prepared {
        module: rewritten.module,
        tables,
        helpers: rewritten.helpers,
        stats,
        cache_file,
    })
}
