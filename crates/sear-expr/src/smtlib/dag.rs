//! The shared-subterm analysis and the iterative term writer behind the printers.
//!
//! A [`Dag`] numbers every distinct node reachable from a list of *units* (one unit per
//! printed term: an assertion or a `get-value` term). Expression nodes and update-list nodes
//! (array-sorted `store` terms) are both items. An item used more than once is *bound*:
//!
//! * if all its uses are printed inside one unit, by a `let` in that unit, grouped in levels
//!   so that a level only refers to lower levels;
//! * otherwise by a global `(define-fun NAME () SORT TERM)` placed before the assertions.
//!
//! Width-1 expressions are printed as `Bool` or `(_ BitVec 1)` depending on where they are
//! used: every item has a natural sort, and a use that needs the other sort gets a conversion
//! (`(= #b1 x)` or `(ite x #b1 #b0)`), which the builder folds away again when parsing.
//! Everything is iterative: expressions 100k levels deep print without deep recursion.

mod fp;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::array::{ArrayRef, UpdateNode};
use crate::expr::{BinOp, CmpOp, Expr, ExprKind};
use crate::smtlib::names::ArrayNames;

/// The SMT-LIB sort an item is printed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sort {
    /// `Bool` (only for width-1 expressions).
    Bool,
    /// `(_ BitVec w)`.
    Bv,
    /// `(Array (_ BitVec iw) (_ BitVec 8))`.
    Array,
}

/// One printed node: an expression, or one write of an update list (a `store` term).
enum Item {
    Expr(Expr),
    Update {
        root: ArrayRef,
        node: Arc<UpdateNode>,
    },
}

/// Where the uses of an item are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Unused,
    Local(u32),
    Global,
}

impl Unit {
    fn join(self, other: Unit) -> Unit {
        match (self, other) {
            (Unit::Unused, u) | (u, Unit::Unused) => u,
            (Unit::Local(a), Unit::Local(b)) if a == b => Unit::Local(a),
            _ => Unit::Global,
        }
    }
}

struct Info {
    item: Item,
    children: Vec<u32>,
    expanded: bool,
    uses: u32,
    unit: Unit,
    bound: bool,
    /// For a `let`-bound item, its level; otherwise the highest level it depends on.
    level: u32,
}

/// The analysed node graph of the terms of one script.
pub(crate) struct Dag {
    infos: Vec<Info>,
    roots: Vec<u32>,
    post_order: Vec<u32>,
    arrays: BTreeSet<ArrayRef>,
    prefix: String,
    /// For each unit, its `let`-bound items sorted by level.
    lets: Vec<Vec<u32>>,
}

enum Job {
    Text(&'static str),
    Owned(String),
    Item(u32, Option<Sort>, bool),
}

/// The key identifying an item: update nodes are hash-consed without their root, so the
/// root is part of the key.
type Key = (usize, u64);

impl Dag {
    /// Analyses `units`. With `share == false` nothing is bound (every term is a tree).
    pub(crate) fn new(units: &[Expr], share: bool) -> Dag {
        let mut dag = Dag {
            infos: Vec::new(),
            roots: Vec::new(),
            post_order: Vec::new(),
            arrays: BTreeSet::new(),
            prefix: String::new(),
            lets: Vec::new(),
        };
        let mut ids: FxHashMap<Key, u32> = FxHashMap::default();
        let mut stack: Vec<(u32, bool)> = Vec::new();
        for root in units {
            let id = dag.intern(&mut ids, Item::Expr(root.clone()));
            dag.infos[id as usize].uses += 1;
            dag.roots.push(id);
            stack.push((id, false));
            while let Some((id, done)) = stack.pop() {
                if done {
                    dag.post_order.push(id);
                    continue;
                }
                if dag.infos[id as usize].expanded {
                    continue;
                }
                dag.infos[id as usize].expanded = true;
                stack.push((id, true));
                for child in dag.child_items(id) {
                    let cid = dag.intern(&mut ids, child);
                    dag.infos[cid as usize].uses += 1;
                    dag.infos[id as usize].children.push(cid);
                    if !dag.infos[cid as usize].expanded {
                        stack.push((cid, false));
                    }
                }
            }
        }
        dag.assign_units(share);
        dag
    }

    fn intern(&mut self, ids: &mut FxHashMap<Key, u32>, item: Item) -> u32 {
        let key = match &item {
            Item::Expr(e) => (e.ptr_key(), 0),
            Item::Update { root, node } => (Arc::as_ptr(node) as usize, root.id()),
        };
        if let Some(&id) = ids.get(&key) {
            return id;
        }
        let id = self.infos.len() as u32;
        self.infos.push(Info {
            item,
            children: Vec::new(),
            expanded: false,
            uses: 0,
            unit: Unit::Unused,
            bound: false,
            level: 0,
        });
        ids.insert(key, id);
        id
    }

    fn child_items(&mut self, id: u32) -> Vec<Item> {
        match &self.infos[id as usize].item {
            Item::Expr(e) => match e.kind() {
                ExprKind::Read { updates, index } => {
                    self.arrays.insert(updates.root().clone());
                    let mut out = Vec::with_capacity(2);
                    if let Some(head) = updates.head() {
                        out.push(Item::Update {
                            root: updates.root().clone(),
                            node: head.clone(),
                        });
                    }
                    out.push(Item::Expr(index.clone()));
                    out
                }
                _ => e.children().into_iter().map(Item::Expr).collect(),
            },
            Item::Update { root, node } => {
                let mut out = Vec::with_capacity(3);
                if let Some(next) = node.next() {
                    out.push(Item::Update {
                        root: root.clone(),
                        node: next.clone(),
                    });
                }
                out.push(Item::Expr(node.index().clone()));
                out.push(Item::Expr(node.value().clone()));
                out
            }
        }
    }

    fn assign_units(&mut self, share: bool) {
        // Items under a quantifier that mention its variable cannot be bound outside it.
        let mut var_dep = vec![false; self.infos.len()];
        for &id in &self.post_order {
            let info = &self.infos[id as usize];
            var_dep[id as usize] = matches!(&info.item, Item::Expr(e) if e.as_var().is_some())
                || info.children.iter().any(|&c| var_dep[c as usize]);
        }
        for (unit, &root) in self.roots.iter().enumerate() {
            let info = &mut self.infos[root as usize];
            info.unit = info.unit.join(Unit::Local(unit as u32));
        }
        // Parents before children: a child's uses are printed where its parents are.
        for &id in self.post_order.iter().rev() {
            let info = &mut self.infos[id as usize];
            info.bound = share && info.uses >= 2 && bindable(&info.item) && !var_dep[id as usize];
            let unit = info.unit;
            for i in 0..self.infos[id as usize].children.len() {
                let child = self.infos[id as usize].children[i] as usize;
                self.infos[child].unit = self.infos[child].unit.join(unit);
            }
        }
        // Children before parents: let levels.
        for &id in &self.post_order {
            let info = &self.infos[id as usize];
            let below = info
                .children
                .iter()
                .map(|&c| {
                    let child = &self.infos[c as usize];
                    if child.bound && child.unit == Unit::Global {
                        0
                    } else {
                        child.level
                    }
                })
                .max()
                .unwrap_or(0);
            let is_let = info.bound && info.unit != Unit::Global;
            self.infos[id as usize].level = below + is_let as u32;
        }
        self.lets = vec![Vec::new(); self.roots.len()];
        for &id in &self.post_order {
            let info = &self.infos[id as usize];
            if let (true, Unit::Local(unit)) = (info.bound, info.unit) {
                self.lets[unit as usize].push(id);
            }
        }
        for lets in &mut self.lets {
            lets.sort_by_key(|&id| self.infos[id as usize].level);
        }
    }

    /// Every root array read by the units, in creation order.
    pub(crate) fn arrays(&self) -> &BTreeSet<ArrayRef> {
        &self.arrays
    }

    /// Sets the prefix of generated names (see [`ArrayNames::fresh_prefix`]).
    pub(crate) fn set_prefix(&mut self, prefix: String) {
        self.prefix = prefix;
    }

    fn name(&self, id: u32) -> String {
        format!("{}{}", self.prefix, id)
    }

    /// The printed name of the bound variable at item `id` (by position, so that printing
    /// does not depend on the variable's process-unique id).
    fn var_name(&self, id: u32) -> String {
        format!("{}i{}", self.prefix, id)
    }

    /// The natural sort of an item.
    fn natural(&self, id: u32) -> Sort {
        match &self.infos[id as usize].item {
            Item::Update { .. } => Sort::Array,
            Item::Expr(e) => natural_sort(e),
        }
    }

    /// Writes the global definitions, children before parents.
    pub(crate) fn write_globals(&self, names: &ArrayNames, out: &mut String) {
        for &id in &self.post_order {
            let info = &self.infos[id as usize];
            if !(info.bound && info.unit == Unit::Global) {
                continue;
            }
            let sort = match &info.item {
                Item::Expr(e) if natural_sort(e) == Sort::Bool => "Bool".to_string(),
                Item::Expr(e) => format!("(_ BitVec {})", e.width()),
                Item::Update { root, .. } => array_sort(root.index_width()),
            };
            let _ = write!(out, "(define-fun {} () {} ", self.name(id), sort);
            self.emit(id, None, true, names, out, usize::MAX);
            out.push_str(")\n");
        }
    }

    /// Writes unit `unit` as one term (with its `let` bindings) at sort `want` (the natural
    /// sort when `None`). Returns false if the output was cut at `limit` bytes.
    pub(crate) fn write_unit(
        &self,
        unit: usize,
        want: Option<Sort>,
        names: &ArrayNames,
        out: &mut String,
        limit: usize,
    ) -> bool {
        let lets = &self.lets[unit];
        let mut open = 0;
        let mut i = 0;
        while i < lets.len() {
            let level = self.infos[lets[i] as usize].level;
            out.push_str("(let (");
            open += 1;
            let mut first = true;
            while i < lets.len() && self.infos[lets[i] as usize].level == level {
                if !first {
                    out.push(' ');
                }
                first = false;
                let _ = write!(out, "({} ", self.name(lets[i]));
                if !self.emit(lets[i], None, true, names, out, limit) {
                    return false;
                }
                out.push(')');
                i += 1;
            }
            out.push_str(") ");
        }
        if !self.emit(self.roots[unit], want, false, names, out, limit) {
            return false;
        }
        for _ in 0..open {
            out.push(')');
        }
        true
    }

    /// Writes one item; bound children are referred to by name. `force` expands the item
    /// itself even when it is bound (to print its definition).
    fn emit(
        &self,
        start: u32,
        want: Option<Sort>,
        force: bool,
        names: &ArrayNames,
        out: &mut String,
        limit: usize,
    ) -> bool {
        let mut stack = vec![Job::Item(start, want, force)];
        while let Some(job) = stack.pop() {
            if out.len() > limit {
                out.push('…');
                return false;
            }
            let (id, want, force) = match job {
                Job::Text(s) => {
                    out.push_str(s);
                    continue;
                }
                Job::Owned(s) => {
                    out.push_str(&s);
                    continue;
                }
                Job::Item(id, want, force) => (id, want, force),
            };
            let natural = self.natural(id);
            let want = want.unwrap_or(natural);
            let info = &self.infos[id as usize];
            if let Item::Expr(e) = &info.item {
                if let Some(v) = e.as_constant() {
                    write_const(out, v, e.width(), want);
                    continue;
                }
            }
            if want != natural {
                debug_assert!(want != Sort::Array && natural != Sort::Array);
                let inner = Job::Item(id, Some(natural), force);
                if want == Sort::Bool {
                    push_seq(
                        &mut stack,
                        vec![Job::Text("(= #b1 "), inner, Job::Text(")")],
                    );
                } else {
                    push_seq(
                        &mut stack,
                        vec![Job::Text("(ite "), inner, Job::Text(" #b1 #b0)")],
                    );
                }
                continue;
            }
            if info.bound && !force {
                out.push_str(&self.name(id));
                continue;
            }
            if matches!(&info.item, Item::Expr(e) if e.as_var().is_some()) {
                out.push_str(&self.var_name(id));
                continue;
            }
            let jobs = match &info.item {
                Item::Expr(e) => self.expr_jobs(e, &info.children, names),
                Item::Update { root, .. } => {
                    let c = &info.children;
                    let next = if c.len() == 3 {
                        Job::Item(c[0], Some(Sort::Array), false)
                    } else {
                        Job::Owned(array_name(names, root))
                    };
                    let n = c.len();
                    vec![
                        Job::Text("(store "),
                        next,
                        Job::Text(" "),
                        Job::Item(c[n - 2], Some(Sort::Bv), false),
                        Job::Text(" "),
                        Job::Item(c[n - 1], Some(Sort::Bv), false),
                        Job::Text(")"),
                    ]
                }
            };
            push_seq(&mut stack, jobs);
        }
        true
    }

    fn expr_jobs(&self, e: &Expr, c: &[u32], names: &ArrayNames) -> Vec<Job> {
        let bv = Some(Sort::Bv);
        let arm = if e.is_bool() { Some(Sort::Bool) } else { bv };
        let w = e.width();
        match e.kind() {
            ExprKind::Constant(_) => unreachable!("constants are written directly"),
            ExprKind::Read { updates, .. } => {
                let array = if c.len() == 2 {
                    Job::Item(c[0], Some(Sort::Array), false)
                } else {
                    Job::Owned(array_name(names, updates.root()))
                };
                let index = Job::Item(c[c.len() - 1], bv, false);
                vec![
                    Job::Text("(select "),
                    array,
                    Job::Text(" "),
                    index,
                    Job::Text(")"),
                ]
            }
            ExprKind::Select { .. } => vec![
                Job::Text("(ite "),
                Job::Item(c[0], Some(Sort::Bool), false),
                Job::Text(" "),
                Job::Item(c[1], arm, false),
                Job::Text(" "),
                Job::Item(c[2], arm, false),
                Job::Text(")"),
            ],
            ExprKind::Concat { .. } => binary_jobs("(concat ", c, bv),
            ExprKind::Extract { offset, .. } => vec![
                Job::Owned(format!("((_ extract {} {}) ", offset + w - 1, offset)),
                Job::Item(c[0], bv, false),
                Job::Text(")"),
            ],
            ExprKind::ZExt(x) | ExprKind::SExt(x) => {
                let op = if matches!(e.kind(), ExprKind::ZExt(_)) {
                    "zero"
                } else {
                    "sign"
                };
                vec![
                    Job::Owned(format!("((_ {op}_extend {}) ", w - x.width())),
                    Job::Item(c[0], bv, false),
                    Job::Text(")"),
                ]
            }
            ExprKind::Not(_) => {
                let (text, sort) = if w == 1 {
                    ("(not ", Sort::Bool)
                } else {
                    ("(bvnot ", Sort::Bv)
                };
                vec![
                    Job::Text(text),
                    Job::Item(c[0], Some(sort), false),
                    Job::Text(")"),
                ]
            }
            ExprKind::Binary { op, .. } => {
                if w == 1 {
                    if let Some(name) = bool_binop_name(*op) {
                        return binary_jobs(name, c, Some(Sort::Bool));
                    }
                }
                binary_jobs(binop_name(*op), c, bv)
            }
            ExprKind::Cmp { op, lhs, .. } => {
                let operand = if *op == CmpOp::Eq && lhs.is_bool() {
                    Some(Sort::Bool)
                } else {
                    bv
                };
                binary_jobs(cmp_name(*op), c, operand)
            }
            ExprKind::Var(_) => unreachable!("variables are written directly"),
            ExprKind::Forall { var, .. } => {
                let name = self.var_name(c[0]);
                let mut one = String::new();
                write_const(&mut one, 1, var.width(), Sort::Bv);
                vec![
                    Job::Owned(format!(
                        "(forall (({name} (_ BitVec {}))) (=> (and (bvule {one} {name}) (bvule {name} ",
                        var.width()
                    )),
                    Job::Item(c[1], bv, false),
                    Job::Text(")) "),
                    Job::Item(c[2], Some(Sort::Bool), false),
                    Job::Text("))"),
                ]
            }
            ExprKind::Fp { op, args } => fp::fp_jobs(*op, w, args[0].width(), c),
        }
    }
}

fn push_seq(stack: &mut Vec<Job>, jobs: Vec<Job>) {
    stack.extend(jobs.into_iter().rev());
}

fn binary_jobs(open: &'static str, c: &[u32], sort: Option<Sort>) -> Vec<Job> {
    vec![
        Job::Text(open),
        Job::Item(c[0], sort, false),
        Job::Text(" "),
        Job::Item(c[1], sort, false),
        Job::Text(")"),
    ]
}

fn array_name(names: &ArrayNames, array: &ArrayRef) -> String {
    names
        .get(array)
        .expect("every array is named before printing")
        .to_string()
}

/// Items not worth a binding even when shared: constants and plain reads at a constant index.
fn bindable(item: &Item) -> bool {
    match item {
        Item::Update { .. } => true,
        Item::Expr(e) => match e.kind() {
            ExprKind::Constant(_) => false,
            ExprKind::Read { updates, index } => !(updates.is_empty() && index.is_constant()),
            _ => true,
        },
    }
}

/// The sort an expression is printed at when nothing forces another one.
pub(crate) fn natural_sort(e: &Expr) -> Sort {
    if !e.is_bool() {
        return Sort::Bv;
    }
    match e.kind() {
        ExprKind::Extract { .. } | ExprKind::Var(_) => Sort::Bv,
        ExprKind::Binary { op, .. } if bool_binop_name(*op).is_none() => Sort::Bv,
        ExprKind::Fp { op, .. } if !matches!(op, crate::fp::FpOp::Cmp(_)) => Sort::Bv,
        _ => Sort::Bool,
    }
}

/// `(Array (_ BitVec iw) (_ BitVec 8))`.
pub(crate) fn array_sort(index_width: u32) -> String {
    format!("(Array (_ BitVec {index_width}) (_ BitVec 8))")
}

/// Writes a constant: `true`/`false` at sort `Bool`, `#x..` when the width is a multiple of
/// four, `#b..` otherwise.
pub(crate) fn write_const(out: &mut String, value: u128, width: u32, sort: Sort) {
    if width == 1 && sort == Sort::Bool {
        out.push_str(if value == 1 { "true" } else { "false" });
    } else if width.is_multiple_of(4) {
        let _ = write!(out, "#x{:0w$x}", value, w = (width / 4) as usize);
    } else {
        let _ = write!(out, "#b{:0w$b}", value, w = width as usize);
    }
}

fn binop_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "(bvadd ",
        BinOp::Sub => "(bvsub ",
        BinOp::Mul => "(bvmul ",
        BinOp::UDiv => "(bvudiv ",
        BinOp::SDiv => "(bvsdiv ",
        BinOp::URem => "(bvurem ",
        BinOp::SRem => "(bvsrem ",
        BinOp::And => "(bvand ",
        BinOp::Or => "(bvor ",
        BinOp::Xor => "(bvxor ",
        BinOp::Shl => "(bvshl ",
        BinOp::LShr => "(bvlshr ",
        BinOp::AShr => "(bvashr ",
    }
}

fn bool_binop_name(op: BinOp) -> Option<&'static str> {
    match op {
        BinOp::And => Some("(and "),
        BinOp::Or => Some("(or "),
        BinOp::Xor => Some("(xor "),
        _ => None,
    }
}

fn cmp_name(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "(= ",
        CmpOp::Ult => "(bvult ",
        CmpOp::Ule => "(bvule ",
        CmpOp::Slt => "(bvslt ",
        CmpOp::Sle => "(bvsle ",
    }
}
