//! Iterative evaluation of SMT-LIB terms into sorted values.
//!
//! Terms are evaluated with an explicit stack of frames (one per open application), so
//! nesting depth is bounded only by memory. `let` frames first evaluate their bindings in
//! the outer scope, then bind them (shadowing outer bindings) while the body is evaluated.

use crate::bits::{trunc, MAX_WIDTH};
use crate::expr::Expr;
use crate::smtlib::lexer::{ParseError, Tok};
use crate::smtlib::ops::{apply, indexed_op, op_from_name, Op, SortSpec, Val};
use crate::smtlib::parse::Parser;

/// The one quantifier shape the parser reads (the one sear prints).
const FORALL_SHAPE: &str =
    "only (forall ((i (_ BitVec w))) (=> (and (bvule #b..1 i) (bvule i k)) body)) is supported";

enum FrameKind {
    Apply(Op, String),
    Macro(String),
    Let {
        names: Vec<String>,
        bound: bool,
    },
    Annotated {
        named: Option<usize>,
    },
    /// `(forall ((name (_ BitVec w))) (=> (and (bvule ONE name) (bvule name K)) BODY))`:
    /// children ONE, K and BODY, evaluated with `name` bound to `var`.
    Forall {
        name: String,
        var: Expr,
    },
}

struct Frame {
    kind: FrameKind,
    at: usize,
    children: Vec<usize>,
    next: usize,
    args: Vec<Val>,
}

enum Begun {
    Value(Val),
    Frame(Frame),
}

impl Parser<'_> {
    /// Evaluates the term at token `at`.
    pub(crate) fn term(&mut self, at: usize) -> Result<Val, ParseError> {
        let mut stack = match self.begin(at)? {
            Begun::Value(v) => return Ok(v),
            Begun::Frame(f) => vec![f],
        };
        loop {
            let top = stack.last_mut().expect("the stack is not empty");
            if let FrameKind::Let { names, bound } = &mut top.kind {
                if !*bound && top.args.len() == names.len() {
                    for (name, value) in names.iter().zip(top.args.drain(..)) {
                        self.locals.entry(name.clone()).or_default().push(value);
                    }
                    *bound = true;
                }
            }
            if top.next < top.children.len() {
                let child = top.children[top.next];
                top.next += 1;
                match self.begin(child)? {
                    Begun::Value(v) => top.args.push(v),
                    Begun::Frame(f) => stack.push(f),
                }
                continue;
            }
            let frame = stack.pop().expect("the stack is not empty");
            let value = self.finish(frame)?;
            match stack.last_mut() {
                Some(parent) => parent.args.push(value),
                None => return Ok(value),
            }
        }
    }

    fn finish(&mut self, mut frame: Frame) -> Result<Val, ParseError> {
        let toks = self.toks;
        match frame.kind {
            FrameKind::Apply(op, name) => {
                apply(op, &name, frame.args).map_err(|message| self.err(frame.at, message))
            }
            FrameKind::Macro(name) => self.apply_macro(&name, frame.args, frame.at),
            FrameKind::Let { names, .. } => {
                for name in &names {
                    if let Some(values) = self.locals.get_mut(name) {
                        values.pop();
                        if values.is_empty() {
                            self.locals.remove(name);
                        }
                    }
                }
                Ok(frame.args.pop().expect("a let has a body"))
            }
            FrameKind::Forall { name, var } => {
                if let Some(values) = self.locals.get_mut(&name) {
                    values.pop();
                    if values.is_empty() {
                        self.locals.remove(&name);
                    }
                }
                let mut args = frame.args.into_iter();
                let (one, bound, body) = (args.next(), args.next(), args.next());
                match (one, bound, body) {
                    (Some(Val::Bv(one)), Some(Val::Bv(bound)), Some(Val::Bool(body)))
                        if one.as_constant() == Some(1)
                            && one.width() == var.width()
                            && bound.width() == var.width()
                            && !crate::quant::mentions(&bound, &var) =>
                    {
                        Ok(Val::Bool(Expr::forall(var, bound, body)))
                    }
                    _ => Err(self.err(frame.at, FORALL_SHAPE)),
                }
            }
            FrameKind::Annotated { named } => {
                let value = frame.args.pop().expect("an annotation has a term");
                if let Some(at) = named {
                    let name = match &toks[at].tok {
                        Tok::Symbol(s) => s.clone(),
                        _ => return Err(self.err(at, ":named expects a symbol")),
                    };
                    self.bind_global(at, &name, value.clone())?;
                }
                Ok(value)
            }
        }
    }

    fn lookup(&self, at: usize, name: &str) -> Result<Val, ParseError> {
        if let Some(v) = self.locals.get(name).and_then(|vs| vs.last()) {
            return Ok(v.clone());
        }
        if let Some(v) = self.globals.get(name) {
            return Ok(v.clone());
        }
        match name {
            "true" => Ok(Val::Bool(Expr::true_())),
            "false" => Ok(Val::Bool(Expr::false_())),
            _ if crate::smtlib::fpops::rounding_constant(name).is_some() => {
                Ok(crate::smtlib::fpops::rounding_constant(name).expect("checked"))
            }
            _ if op_from_name(name).is_some() => {
                Err(self.err(at, format!("{name} is a function and needs arguments")))
            }
            _ => Err(self.err(at, format!("unknown symbol {name}"))),
        }
    }

    /// Starts evaluating the term at `at`: atoms give a value, applications a frame.
    fn begin(&mut self, at: usize) -> Result<Begun, ParseError> {
        let literal = |digits: &str, bits_per_digit: u32, radix: u32| {
            let width = (digits.len() as u64) * bits_per_digit as u64;
            if width > MAX_WIDTH as u64 {
                return Err(self.err(at, "bit-vector literal wider than 128 bits"));
            }
            let value = u128::from_str_radix(digits, radix)
                .map_err(|_| self.err(at, "malformed bit-vector literal"))?;
            Ok(Begun::Value(Val::Bv(Expr::constant(value, width as u32))))
        };
        let toks = self.toks;
        match &toks[at].tok {
            Tok::Symbol(s) => return Ok(Begun::Value(self.lookup(at, s)?)),
            Tok::Hex(d) => return literal(d, 4, 16),
            Tok::Binary(d) => return literal(d, 1, 2),
            Tok::LParen => {}
            Tok::RParen => return Err(self.err(at, "unexpected ')'")),
            _ => return Err(self.err(at, "expected a term")),
        }
        let parts = self.elements(at);
        let Some(&head) = parts.first() else {
            return Err(self.err(at, "empty application"));
        };
        let args = parts[1..].to_vec();
        let (op, name) = match &toks[head].tok {
            Tok::Symbol(s) => match s.as_str() {
                "let" => return self.begin_let(at, &parts),
                "_" => return Ok(Begun::Value(self.indexed_constant(at, &parts)?)),
                "!" => return self.begin_annotation(at, &parts),
                "as" => {
                    return Err(self.err(head, "'as' is only supported as (as const (Array ...))"))
                }
                "forall" => return self.begin_forall(at, &parts),
                "exists" | "match" | "lambda" => {
                    return Err(self.err(head, format!("{s} is not supported")))
                }
                name if self.is_macro(name) && !self.locals.contains_key(name) => {
                    return Ok(Begun::Frame(Frame {
                        kind: FrameKind::Macro(name.to_string()),
                        at,
                        children: args,
                        next: 0,
                        args: Vec::new(),
                    }));
                }
                name => {
                    if self.locals.contains_key(name) || self.globals.contains_key(name) {
                        return Err(self.err(head, format!("{name} is not a function")));
                    }
                    let op = op_from_name(name)
                        .ok_or_else(|| self.err(head, format!("unknown function {name}")))?;
                    (op, name.to_string())
                }
            },
            Tok::LParen => self.compound_head(head)?,
            _ => return Err(self.err(head, "expected a function symbol")),
        };
        if args.is_empty() {
            return Err(self.err(at, format!("{name} needs arguments")));
        }
        Ok(Begun::Frame(Frame {
            kind: FrameKind::Apply(op, name),
            at,
            children: args,
            next: 0,
            args: Vec::new(),
        }))
    }

    /// `(_ name i...)` or `(as const SORT)` in function position.
    fn compound_head(&self, head: usize) -> Result<(Op, String), ParseError> {
        let parts = self.elements(head);
        let first = parts.first().map(|&p| &self.toks[p].tok);
        match first {
            Some(Tok::Symbol(s)) if s == "_" && parts.len() >= 3 => {
                let Tok::Symbol(name) = &self.toks[parts[1]].tok else {
                    return Err(self.err(parts[1], "expected an operator name"));
                };
                let indices = parts[2..]
                    .iter()
                    .map(|&p| self.numeral(p))
                    .collect::<Result<Vec<u32>, _>>()?;
                let op = indexed_op(name, &indices).map_err(|m| self.err(head, m))?;
                Ok((op, name.clone()))
            }
            Some(Tok::Symbol(s)) if s == "as" && parts.len() == 3 => {
                if !matches!(&self.toks[parts[1]].tok, Tok::Symbol(c) if c == "const") {
                    return Err(self.err(parts[1], "only (as const ...) is supported"));
                }
                match self.sort(parts[2])? {
                    SortSpec::Array(iw) => Ok((Op::ConstArray(iw), "const".to_string())),
                    _ => Err(self.err(parts[2], "as const needs an array sort")),
                }
            }
            _ => Err(self.err(head, "unsupported function head")),
        }
    }

    /// `(_ bvN W)`.
    fn indexed_constant(&self, at: usize, parts: &[usize]) -> Result<Val, ParseError> {
        let name = match parts.get(1).map(|&p| &self.toks[p].tok) {
            Some(Tok::Symbol(s)) => s.as_str(),
            _ => return Err(self.err(at, "expected (_ bvN width)")),
        };
        if parts.len() == 4 {
            let (eb, sb) = (self.numeral(parts[2])?, self.numeral(parts[3])?);
            if let Some(v) = crate::smtlib::fpops::special_constant(name, eb, sb) {
                return v.map_err(|m| self.err(at, m));
            }
        }
        let Some(digits) = name
            .strip_prefix("bv")
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        else {
            return Err(self.err(at, format!("{name} needs arguments or is not a constant")));
        };
        if parts.len() != 3 {
            return Err(self.err(at, "expected (_ bvN width)"));
        }
        let width = self.numeral(parts[2])?;
        if !(1..=MAX_WIDTH).contains(&width) {
            return Err(self.err(
                parts[2],
                format!("bit-vector width {width} is not in 1..=128"),
            ));
        }
        let value = digits.bytes().fold(0u128, |v, d| {
            v.wrapping_mul(10).wrapping_add((d - b'0') as u128)
        });
        Ok(Val::Bv(Expr::constant(trunc(value, width), width)))
    }

    fn begin_let(&mut self, at: usize, parts: &[usize]) -> Result<Begun, ParseError> {
        if parts.len() != 3 || self.toks[parts[1]].tok != Tok::LParen {
            return Err(self.err(at, "expected (let ((name term) ...) body)"));
        }
        let mut names: Vec<String> = Vec::new();
        let mut children = Vec::new();
        for binding in self.elements(parts[1]) {
            let pair = if self.toks[binding].tok == Tok::LParen {
                self.elements(binding)
            } else {
                Vec::new()
            };
            if pair.len() != 2 {
                return Err(self.err(binding, "expected (name term) in let"));
            }
            let name = match &self.toks[pair[0]].tok {
                Tok::Symbol(s) => s.clone(),
                _ => return Err(self.err(pair[0], "expected a name in let")),
            };
            if names.contains(&name) {
                return Err(self.err(pair[0], format!("{name} is bound twice in one let")));
            }
            names.push(name);
            children.push(pair[1]);
        }
        if names.is_empty() {
            return Err(self.err(parts[1], "let needs at least one binding"));
        }
        children.push(parts[2]);
        Ok(Begun::Frame(Frame {
            kind: FrameKind::Let {
                names,
                bound: false,
            },
            at,
            children,
            next: 0,
            args: Vec::new(),
        }))
    }

    /// A quantified clause; only the shape sear prints is accepted ([`FORALL_SHAPE`]).
    fn begin_forall(&mut self, at: usize, parts: &[usize]) -> Result<Begun, ParseError> {
        let shape = || self.err(at, FORALL_SHAPE);
        if parts.len() != 3 || self.toks[parts[1]].tok != Tok::LParen {
            return Err(shape());
        }
        let binders = self.elements(parts[1]);
        let [binder] = binders[..] else {
            return Err(shape());
        };
        let pair = self.elements(binder);
        let (Some(&name_at), Some(&sort_at), 2) = (pair.first(), pair.get(1), pair.len()) else {
            return Err(shape());
        };
        let Tok::Symbol(name) = &self.toks[name_at].tok else {
            return Err(shape());
        };
        let name = name.clone();
        let SortSpec::Bv(width) = self.sort(sort_at)? else {
            return Err(shape());
        };
        // (=> (and (bvule ONE name) (bvule name K)) BODY)
        let is = |at: usize, s: &str| matches!(&self.toks[at].tok, Tok::Symbol(x) if x == s);
        let list = |at: usize| {
            if self.toks[at].tok == Tok::LParen {
                self.elements(at)
            } else {
                Vec::new()
            }
        };
        let implication = list(parts[2]);
        if implication.len() != 3 || !is(implication[0], "=>") {
            return Err(shape());
        }
        let guard = list(implication[1]);
        if guard.len() != 3 || !is(guard[0], "and") {
            return Err(shape());
        }
        let (low, high) = (list(guard[1]), list(guard[2]));
        let ok = low.len() == 3
            && high.len() == 3
            && is(low[0], "bvule")
            && is(low[2], &name)
            && is(high[0], "bvule")
            && is(high[1], &name);
        if !ok {
            return Err(shape());
        }
        let var = Expr::fresh_var(width);
        self.locals
            .entry(name.clone())
            .or_default()
            .push(Val::Bv(var.clone()));
        Ok(Begun::Frame(Frame {
            kind: FrameKind::Forall { name, var },
            at,
            children: vec![low[1], high[2], implication[2]],
            next: 0,
            args: Vec::new(),
        }))
    }

    fn begin_annotation(&mut self, at: usize, parts: &[usize]) -> Result<Begun, ParseError> {
        if parts.len() < 2 {
            return Err(self.err(at, "expected (! term attributes...)"));
        }
        let mut named = None;
        let mut i = 2;
        while i < parts.len() {
            match &self.toks[parts[i]].tok {
                Tok::Keyword(k) => {
                    let has_value = parts
                        .get(i + 1)
                        .is_some_and(|&p| !matches!(self.toks[p].tok, Tok::Keyword(_)));
                    if k == "named" {
                        if !has_value {
                            return Err(self.err(parts[i], ":named expects a symbol"));
                        }
                        named = Some(parts[i + 1]);
                    }
                    i += 1 + has_value as usize;
                }
                _ => return Err(self.err(parts[i], "expected an attribute keyword")),
            }
        }
        Ok(Begun::Frame(Frame {
            kind: FrameKind::Annotated { named },
            at,
            children: vec![parts[1]],
            next: 0,
            args: Vec::new(),
        }))
    }
}
