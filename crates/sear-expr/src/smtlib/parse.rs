//! Parsing SMT-LIB2 scripts of the `QF_ABV`/`QF_BV` fragment into expressions.
//!
//! Symbolic values in sear are reads of arrays, so declarations become arrays:
//!
//! * `(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))` declares a symbolic array of kind
//!   [`ArrayKind::Other`]. A preceding `; sear-array a size=N kind=K` comment (written by
//!   [`crate::smtlib::print_query`]) gives its size and kind. Without one, the size is
//!   inferred as one more than the largest constant index (below 2^20) at which the script
//!   reads the array (0 when it reads none), so that a model covers every byte the
//!   constraints mention by a constant index. Bytes beyond the size (read at larger or
//!   symbolic indices) are not covered: [`crate::Assignment`] reads them as zero, while an
//!   SMT solver treats them as free.
//! * A bit-vector constant `x` of width `w` becomes an array `x` of `ceil(w/8)` bytes and the
//!   term `((_ extract w-1 0) <little-endian read of x>)`, listed in
//!   [`Script::bitvector_consts`]; a `Bool` constant becomes bit 0 of a one-byte array, listed
//!   in [`Script::bool_consts`].
//! * `(define-fun a () (Array ...) <stores over ((as const ...) #x00)>)` with constant indices
//!   and values defines a constant array (its size from the `; sear-array` comment, or one
//!   more than the largest written index). Other array definitions, and constant arrays in
//!   other positions, are kept as exact `ite` chains over their writes.
//!
//! The parser is iterative (no recursion on nesting) and never panics; every error names a
//! line and column.

use rustc_hash::FxHashMap;

use crate::array::ArrayRef;
use crate::expr::{Expr, ExprKind};
use crate::smtlib::lexer::{lex, ArrayInfo, Lexed, ParseError, Tok, Token};
pub use crate::smtlib::model::ValueSort;
use crate::smtlib::ops::{SortSpec, Val};

/// Constant arrays larger than this many bytes stay `ite` chains instead of being
/// materialised.
pub(crate) const MAX_CONSTANT_ARRAY: u64 = 1 << 24;

/// Reads at constant indices beyond this do not grow an inferred array size.
const MAX_INFERRED_SIZE: u64 = 1 << 20;

/// A parsed script.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// The commands in order.
    pub commands: Vec<Command>,
    /// Every symbolic array the script declares, in declaration order, including the arrays
    /// behind bit-vector and Boolean constants.
    pub arrays: Vec<ArrayRef>,
    /// Declared bit-vector constants and the expressions standing for them.
    pub bitvector_consts: Vec<(String, Expr)>,
    /// Declared Boolean constants and the (width-1) expressions standing for them.
    pub bool_consts: Vec<(String, Expr)>,
    /// Declared floating-point constants and the bit-vectors of their encodings (a 4- or
    /// 8-byte array read little-endian, as a bit-vector constant of that width).
    pub fp_consts: Vec<(String, Expr)>,
    /// Declared `RoundingMode` constants and their 3-bit indices into
    /// [`crate::fp::RoundMode::ALL`] (bits of a one-byte array; indices above 4 mean `RTZ`).
    pub rounding_consts: Vec<(String, Expr)>,
}

impl Script {
    /// The asserted expressions, in order, ignoring `push`/`pop` scopes.
    pub fn assertions(&self) -> Vec<Expr> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Assert(e) | Command::AssertNamed(_, e) => Some(e.clone()),
                _ => None,
            })
            .collect()
    }
}

/// One command of a script.
#[derive(Clone, Debug)]
pub enum Command {
    /// `(assert t)`.
    Assert(Expr),
    /// `(check-sat)`.
    CheckSat,
    /// `(check-sat-assuming (lit ...))`: check with the literals (source text, term) assumed
    /// for this check only.
    CheckSatAssuming(Vec<(String, Expr)>),
    /// `(assert (! t :named n))`: an assertion with a name, for `get-unsat-core`.
    AssertNamed(String, Expr),
    /// `(get-unsat-core)`: names of named assertions that are unsatisfiable together.
    GetUnsatCore,
    /// `(reset)`: forget every assertion and declaration.
    Reset,
    /// `(reset-assertions)`: forget every assertion, pop every scope.
    ResetAssertions,
    /// `(get-model)`.
    GetModel,
    /// `(get-value (t ...))`: each term's source text, its expression and its sort.
    GetValue(Vec<(String, Expr, ValueSort)>),
    /// `(push n)`.
    Push(u32),
    /// `(pop n)`.
    Pop(u32),
    /// `(echo "text")`, unescaped.
    Echo(String),
    /// `(exit)`; the parser stops reading here.
    Exit,
    /// `set-logic`, `set-option`, `set-info`, `get-info`, `get-option`: the command's text.
    Ignored(String),
}

/// Parses a complete script.
pub fn parse_script(text: &str) -> Result<Script, ParseError> {
    let lexed = lex(text)?;
    let first = Parser::new(text, &lexed, &[]).run()?;
    if first.unknown_sizes.is_empty() {
        return Ok(first.script);
    }
    // Infer the sizes of arrays declared without a size, then parse again with them.
    let mut sizes: Vec<Option<u64>> = vec![None; first.declared];
    let mut roots: Vec<Expr> = Vec::new();
    for command in &first.script.commands {
        match command {
            Command::Assert(e) => roots.push(e.clone()),
            Command::GetValue(values) => roots.extend(values.iter().map(|(_, e, _)| e.clone())),
            _ => {}
        }
    }
    for read in crate::visit::collect_reads(&roots) {
        let ExprKind::Read { updates, index } = read.kind() else {
            continue;
        };
        let (Some(i), Some(&ordinal)) = (
            index.as_constant(),
            first.unknown_sizes.get(&updates.root().id()),
        ) else {
            continue;
        };
        let size = u64::try_from(i).unwrap_or(u64::MAX).saturating_add(1);
        if size <= MAX_INFERRED_SIZE {
            let entry = sizes[ordinal].get_or_insert(0);
            *entry = (*entry).max(size);
        }
    }
    Ok(Parser::new(text, &lexed, &sizes).run()?.script)
}

/// The result of one parsing pass.
pub(crate) struct Pass {
    pub script: Script,
    /// Array id → declaration ordinal, for arrays declared without a size.
    pub unknown_sizes: FxHashMap<u64, usize>,
    /// How many array declarations the script has.
    pub declared: usize,
}

/// The state of one parsing pass.
pub(crate) struct Parser<'t> {
    pub text: &'t str,
    pub toks: &'t [Token],
    pub(crate) info: &'t FxHashMap<String, ArrayInfo>,
    /// For every `(` token of the current command, the index of its `)`.
    pub close: Vec<usize>,
    /// Declared and defined names.
    pub globals: FxHashMap<String, Val>,
    /// `let`-bound names, innermost binding last.
    pub locals: FxHashMap<String, Vec<Val>>,
    /// Functions defined with parameters (`define-fun` macros).
    pub(crate) macros: FxHashMap<String, crate::smtlib::macros::Macro>,
    /// Sorts defined by `define-sort`.
    pub(crate) sort_aliases: FxHashMap<String, SortSpec>,
    /// Open `push` scopes: `(levels, names)` for each `push n` (its `n` levels, and the
    /// names declared in the innermost of them), so `(push 4000000000)` costs nothing.
    scopes: Vec<(u32, Vec<String>)>,
    pub(crate) size_overrides: &'t [Option<u64>],
    pub(crate) pass: Pass,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, lexed: &'t Lexed, size_overrides: &'t [Option<u64>]) -> Self {
        Parser {
            text,
            toks: &lexed.tokens,
            info: &lexed.array_info,
            close: vec![usize::MAX; lexed.tokens.len()],
            globals: FxHashMap::default(),
            locals: FxHashMap::default(),
            macros: FxHashMap::default(),
            sort_aliases: FxHashMap::default(),
            scopes: Vec::new(),
            size_overrides,
            pass: Pass {
                script: Script::default(),
                unknown_sizes: FxHashMap::default(),
                declared: 0,
            },
        }
    }

    /// An error at token `at` (or at the end of the input).
    pub(crate) fn err(&self, at: usize, message: impl Into<String>) -> ParseError {
        let (line, column) = match self.toks.get(at) {
            Some(t) => (t.line, t.column),
            None => {
                let line = self.text.lines().count().max(1);
                (
                    line,
                    self.text
                        .lines()
                        .last()
                        .map_or(1, |l| l.chars().count() + 1),
                )
            }
        };
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }

    /// The position after the element starting at `at`.
    pub(crate) fn skip(&self, at: usize) -> usize {
        match self.toks[at].tok {
            Tok::LParen => self.close[at] + 1,
            _ => at + 1,
        }
    }

    /// The positions of the elements of the list opening at `open`.
    pub(crate) fn elements(&self, open: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut i = open + 1;
        while i < self.close[open] {
            out.push(i);
            i = self.skip(i);
        }
        out
    }

    /// The source text of the element at `at`.
    fn source(&self, at: usize) -> &'t str {
        let end = self.skip(at) - 1;
        &self.text[self.toks[at].start..self.toks[end].end]
    }

    pub(crate) fn symbol(&self, at: usize) -> Result<&'t str, ParseError> {
        match self.toks.get(at).map(|t| &t.tok) {
            Some(Tok::Symbol(s)) => Ok(s),
            _ => Err(self.err(at, "expected a symbol")),
        }
    }

    pub(crate) fn numeral(&self, at: usize) -> Result<u32, ParseError> {
        match self.toks.get(at).map(|t| &t.tok) {
            Some(Tok::Numeral(n)) => n.parse().map_err(|_| self.err(at, "numeral too large")),
            _ => Err(self.err(at, "expected a numeral")),
        }
    }

    /// Matches the parentheses of the command starting at `open`.
    fn match_parens(&mut self, open: usize) -> Result<(), ParseError> {
        let mut stack = Vec::new();
        for i in open..self.toks.len() {
            match self.toks[i].tok {
                Tok::LParen => stack.push(i),
                Tok::RParen => {
                    let o = stack.pop().expect("the command's parenthesis is open");
                    self.close[o] = i;
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        Err(self.err(open, "unclosed parenthesis"))
    }

    fn run(mut self) -> Result<Pass, ParseError> {
        let mut at = 0;
        while at < self.toks.len() {
            if self.toks[at].tok != Tok::LParen {
                return Err(self.err(at, "expected '(' to start a command"));
            }
            self.match_parens(at)?;
            let exit = self.command(at)?;
            if exit {
                break;
            }
            at = self.close[at] + 1;
        }
        Ok(self.pass)
    }

    /// Parses the command at `open`; returns true for `exit`.
    fn command(&mut self, open: usize) -> Result<bool, ParseError> {
        let parts = self.elements(open);
        let Some(&head) = parts.first() else {
            return Err(self.err(open, "empty command"));
        };
        let name = self.symbol(head)?;
        let args = &parts[1..];
        let want = |n: usize, this: &Self| {
            if args.len() == n {
                Ok(())
            } else {
                Err(this.err(open, format!("{name} expects {n} arguments")))
            }
        };
        let command = match name {
            "set-logic" | "set-option" | "set-info" | "get-info" | "get-option" => {
                Command::Ignored(self.source(open).to_string())
            }
            "declare-fun" => {
                want(3, self)?;
                if self.toks[args[1]].tok != Tok::LParen || self.close[args[1]] != args[1] + 1 {
                    return Err(self.err(args[1], "functions with parameters are not supported"));
                }
                self.declare(args[0], args[2])?;
                return Ok(false);
            }
            "declare-const" => {
                want(2, self)?;
                self.declare(args[0], args[1])?;
                return Ok(false);
            }
            "define-fun" => {
                want(4, self)?;
                if self.toks[args[1]].tok != Tok::LParen {
                    return Err(self.err(args[1], "define-fun expects a parameter list"));
                }
                if self.close[args[1]] == args[1] + 1 {
                    self.define(args[0], args[2], args[3])?;
                } else {
                    self.define_macro(args[0], args[1], args[2], args[3])?;
                }
                return Ok(false);
            }
            "define-sort" => {
                want(3, self)?;
                self.define_sort(args[0], args[1], args[2])?;
                return Ok(false);
            }
            "check-sat-assuming" => {
                want(1, self)?;
                if self.toks[args[0]].tok != Tok::LParen {
                    return Err(self.err(args[0], "check-sat-assuming expects a list of literals"));
                }
                let mut literals = Vec::new();
                for t in self.elements(args[0]) {
                    match self.term(t)? {
                        Val::Bool(e) => literals.push((self.source(t).to_string(), e)),
                        other => {
                            return Err(self.err(
                                t,
                                format!(
                                    "check-sat-assuming: expected Bool, got {}",
                                    other.sort_name()
                                ),
                            ))
                        }
                    }
                }
                Command::CheckSatAssuming(literals)
            }
            "get-unsat-core" => {
                want(0, self)?;
                Command::GetUnsatCore
            }
            "reset" => {
                want(0, self)?;
                self.globals.clear();
                self.macros.clear();
                self.sort_aliases.clear();
                self.scopes.clear();
                Command::Reset
            }
            "reset-assertions" => {
                want(0, self)?;
                Command::ResetAssertions
            }
            "assert" => {
                want(1, self)?;
                let named = self.assertion_name(args[0]);
                match self.term(args[0])? {
                    Val::Bool(e) => match named {
                        Some(name) => Command::AssertNamed(name, e),
                        None => Command::Assert(e),
                    },
                    other => {
                        return Err(self.err(
                            args[0],
                            format!("assert: expected Bool, got {}", other.sort_name()),
                        ))
                    }
                }
            }
            "check-sat" => {
                want(0, self)?;
                Command::CheckSat
            }
            "get-model" => {
                want(0, self)?;
                Command::GetModel
            }
            "exit" => {
                want(0, self)?;
                self.pass.script.commands.push(Command::Exit);
                return Ok(true);
            }
            "get-value" => {
                want(1, self)?;
                if self.toks[args[0]].tok != Tok::LParen {
                    return Err(self.err(args[0], "get-value expects a list of terms"));
                }
                let mut values = Vec::new();
                for t in self.elements(args[0]) {
                    let (e, sort) = match self.term(t)? {
                        Val::Bool(e) => (e, ValueSort::Bool),
                        Val::Bv(e) => (e, ValueSort::Bv),
                        Val::Fp(e) => (e, ValueSort::Float),
                        Val::Rm(e) => (e, ValueSort::RoundingMode),
                        Val::Array(_) => {
                            return Err(self.err(t, "get-value of an array is not supported"))
                        }
                    };
                    values.push((self.source(t).to_string(), e, sort));
                }
                if values.is_empty() {
                    return Err(self.err(args[0], "get-value expects at least one term"));
                }
                Command::GetValue(values)
            }
            "push" | "pop" => {
                let n = match args {
                    [] => 1,
                    [n] => self.numeral(*n)?,
                    _ => return Err(self.err(open, format!("{name} expects at most one argument"))),
                };
                if name == "push" {
                    if n > 0 {
                        self.scopes.push((n, Vec::new()));
                    }
                    Command::Push(n)
                } else {
                    let open_levels: u64 =
                        self.scopes.iter().map(|&(levels, _)| levels as u64).sum();
                    if n as u64 > open_levels {
                        return Err(self.err(open, "pop without a matching push"));
                    }
                    let mut remaining = n;
                    while remaining > 0 {
                        let (levels, names) = self.scopes.last_mut().expect("levels counted");
                        for declared in names.drain(..) {
                            self.globals.remove(&declared);
                            self.macros.remove(&declared);
                            self.sort_aliases.remove(&declared);
                        }
                        let popped = remaining.min(*levels);
                        *levels -= popped;
                        remaining -= popped;
                        if *levels == 0 {
                            self.scopes.pop();
                        }
                    }
                    Command::Pop(n)
                }
            }
            "echo" => match args {
                [s] => match &self.toks[*s].tok {
                    Tok::Str(text) => Command::Echo(text.clone()),
                    _ => return Err(self.err(*s, "echo expects a string")),
                },
                _ => return Err(self.err(open, "echo expects 1 argument")),
            },
            other => return Err(self.err(head, format!("unsupported command {other}"))),
        };
        self.pass.script.commands.push(command);
        Ok(false)
    }

    /// Parses a sort.
    pub(crate) fn sort(&self, at: usize) -> Result<SortSpec, ParseError> {
        let unsupported = || self.err(at, format!("unsupported sort {}", self.source(at)));
        if let Tok::Symbol(s) = &self.toks[at].tok {
            return if s == "Bool" {
                Ok(SortSpec::Bool)
            } else if let Some(alias) = self.sort_aliases.get(s) {
                Ok(*alias)
            } else if let Some(fp) = crate::smtlib::fpops::fp_sort_symbol(s) {
                fp.map_err(|m| self.err(at, m))
            } else {
                Err(unsupported())
            };
        }
        if self.toks[at].tok != Tok::LParen {
            return Err(unsupported());
        }
        let parts = self.elements(at);
        match parts.first().map(|&p| &self.toks[p].tok) {
            Some(Tok::Symbol(s)) if s == "_" && parts.len() == 4 => {
                if self.symbol(parts[1])? != "FloatingPoint" {
                    return Err(unsupported());
                }
                let (eb, sb) = (self.numeral(parts[2])?, self.numeral(parts[3])?);
                crate::smtlib::fpops::format_width(eb, sb)
                    .map(SortSpec::Fp)
                    .map_err(|m| self.err(at, m))
            }
            Some(Tok::Symbol(s)) if s == "_" && parts.len() == 3 => {
                if self.symbol(parts[1])? != "BitVec" {
                    return Err(unsupported());
                }
                let w = self.numeral(parts[2])?;
                if !(1..=crate::bits::MAX_WIDTH).contains(&w) {
                    return Err(
                        self.err(parts[2], format!("bit-vector width {w} is not in 1..=128"))
                    );
                }
                Ok(SortSpec::Bv(w))
            }
            Some(Tok::Symbol(s)) if s == "Array" && parts.len() == 3 => {
                match (self.sort(parts[1])?, self.sort(parts[2])?) {
                    (SortSpec::Bv(iw @ (32 | 64)), SortSpec::Bv(8)) => Ok(SortSpec::Array(iw)),
                    _ => Err(self.err(
                        at,
                        "only arrays from (_ BitVec 32) or (_ BitVec 64) to (_ BitVec 8) are supported",
                    )),
                }
            }
            _ => Err(unsupported()),
        }
    }

    /// Binds a global name (in the innermost `push` scope).
    /// Records `name` in the innermost `push` scope, so that `pop` forgets it.
    pub(crate) fn declared_in_scope(&mut self, name: &str) {
        if let Some((_, names)) = self.scopes.last_mut() {
            names.push(name.to_string());
        }
    }

    /// The name of an assertion written `(! t ... :named n ...)`, if any.
    fn assertion_name(&self, at: usize) -> Option<String> {
        if self.toks[at].tok != Tok::LParen {
            return None;
        }
        let parts = self.elements(at);
        match parts.first().map(|&p| &self.toks[p].tok) {
            Some(Tok::Symbol(s)) if s == "!" => {}
            _ => return None,
        }
        parts
            .windows(2)
            .find_map(|w| match (&self.toks[w[0]].tok, &self.toks[w[1]].tok) {
                (Tok::Keyword(k), Tok::Symbol(n)) if k == "named" || k == ":named" => {
                    Some(n.clone())
                }
                _ => None,
            })
    }

    pub(crate) fn bind_global(
        &mut self,
        at: usize,
        name: &str,
        value: Val,
    ) -> Result<(), ParseError> {
        if self.globals.contains_key(name) {
            return Err(self.err(at, format!("{name} is already declared")));
        }
        self.globals.insert(name.to_string(), value);
        if let Some((_, names)) = self.scopes.last_mut() {
            names.push(name.to_string());
        }
        Ok(())
    }
}
