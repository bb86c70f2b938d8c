//! Loops of a function's control-flow graph (seed 003 §4.3, used by the merging of
//! size-dependent loops).
//!
//! A loop is a non-trivial strongly connected component (SCC) of the CFG: several blocks
//! on a cycle, or one block that branches to itself. Its exits are the blocks outside it
//! with a predecessor inside it, and membership of a block is one table lookup. A loop is
//! *supported* for merging when it has one entry block (its header), calls no function
//! with a body (nor through a pointer), and contains no nested loop (a cycle that avoids
//! the header); the thesis's implementation merges only such loops.

use crate::ir::{BlockId, Callee, FuncId, Function, InstKind, Loc, Module};

/// Identifies a loop within its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopId(pub u32);

/// One loop: an SCC of the CFG.
#[derive(Clone, Debug)]
pub struct Loop {
    /// The only block entered from outside (or the function's entry block); `None` for an
    /// irreducible loop with several entries.
    pub header: Option<BlockId>,
    /// The only block entered from outside blocks reachable from the function's entry (or
    /// the entry block itself): the header, ignoring edges from unreachable blocks (clang
    /// at -O0 leaves a block with no predecessor after a call of a `noreturn` function, as
    /// in `assert`, and its branch into the loop makes `header` `None`). Loop-iteration
    /// merging uses it; the merging of size-dependent loops keeps `header`.
    pub entry: Option<BlockId>,
    /// The blocks of the loop, in increasing order.
    pub blocks: Vec<BlockId>,
    /// The blocks outside the loop with a predecessor in it, in increasing order.
    pub exits: Vec<BlockId>,
    /// True if a block calls a function with a body, or through a pointer.
    pub has_calls: bool,
    /// True if the loop contains a cycle that does not pass through its header.
    pub has_nested: bool,
    /// The source location of the header's terminator (the loop condition), if known.
    pub loc: Option<Loc>,
}

impl Loop {
    /// True when the merging of size-dependent loops may use this loop.
    pub fn supported(&self) -> bool {
        self.unsupported_reason().is_none()
    }

    /// Why the loop is not merged, if it is not.
    pub fn unsupported_reason(&self) -> Option<&'static str> {
        if self.header.is_none() {
            Some("several entries")
        } else if self.has_calls {
            Some("calls a function")
        } else if self.has_nested {
            Some("has a nested loop")
        } else {
            None
        }
    }

    /// True if `b` is one of the loop's blocks.
    pub fn contains(&self, b: BlockId) -> bool {
        self.blocks.binary_search(&b).is_ok()
    }
}

/// The loops of one function and the loop of each block.
#[derive(Clone, Debug, Default)]
pub struct FunctionLoops {
    /// The loops, by [`LoopId`].
    pub loops: Vec<Loop>,
    block_loop: Vec<Option<LoopId>>,
}

impl FunctionLoops {
    /// The loops of `func` (none for a declaration).
    pub fn of(module: &Module, func: &Function) -> Self {
        let n = func.blocks.len();
        let succs: Vec<Vec<usize>> = func
            .blocks
            .iter()
            .map(|b| {
                let mut s: Vec<usize> = b.term.successors().iter().map(|b| b.0 as usize).collect();
                s.sort_unstable();
                s.dedup();
                s
            })
            .collect();
        let all: Vec<usize> = (0..n).collect();
        let reachable = reachable_from_entry(&succs);
        let mut out = FunctionLoops {
            loops: Vec::new(),
            block_loop: vec![None; n],
        };
        for scc in sccs(&succs, &all) {
            if !is_cycle(&succs, &scc) {
                continue;
            }
            let id = LoopId(out.loops.len() as u32);
            for &b in &scc {
                out.block_loop[b] = Some(id);
            }
            out.loops
                .push(describe(module, func, &succs, &reachable, scc));
        }
        out
    }

    /// The loop containing block `b`, if any.
    pub fn loop_of(&self, b: BlockId) -> Option<(LoopId, &Loop)> {
        let id = (*self.block_loop.get(b.0 as usize)?)?;
        Some((id, &self.loops[id.0 as usize]))
    }

    /// The loop `id`.
    pub fn get(&self, id: LoopId) -> &Loop {
        &self.loops[id.0 as usize]
    }
}

/// The loops of every function of a module.
#[derive(Clone, Debug, Default)]
pub struct ModuleLoops {
    functions: Vec<FunctionLoops>,
}

impl ModuleLoops {
    /// The loops of every defined function of `module`.
    pub fn new(module: &Module) -> Self {
        ModuleLoops {
            functions: module
                .functions
                .iter()
                .map(|f| FunctionLoops::of(module, f))
                .collect(),
        }
    }

    /// The loops of function `f` (empty when not analysed).
    pub fn function(&self, f: FuncId) -> Option<&FunctionLoops> {
        self.functions.get(f.0 as usize)
    }

    /// The loop containing block `b` of function `f`, if any.
    pub fn loop_of(&self, f: FuncId, b: BlockId) -> Option<(LoopId, &Loop)> {
        self.function(f)?.loop_of(b)
    }
}

/// True if the SCC `scc` holds a cycle: several blocks, or one that branches to itself.
fn is_cycle(succs: &[Vec<usize>], scc: &[usize]) -> bool {
    scc.len() > 1 || succs[scc[0]].contains(&scc[0])
}

/// The loop made of the blocks `scc` (sorted).
fn describe(
    module: &Module,
    func: &Function,
    succs: &[Vec<usize>],
    reachable: &[bool],
    mut scc: Vec<usize>,
) -> Loop {
    scc.sort_unstable();
    let inside = |b: usize| scc.binary_search(&b).is_ok();
    let mut entries: Vec<usize> = Vec::new();
    let mut reachable_entries: Vec<usize> = Vec::new();
    let mut exits: Vec<usize> = Vec::new();
    for (from, targets) in succs.iter().enumerate() {
        for &to in targets {
            if inside(from) && !inside(to) {
                exits.push(to);
            }
            if !inside(from) && inside(to) {
                entries.push(to);
                if reachable[from] {
                    reachable_entries.push(to);
                }
            }
        }
    }
    if inside(0) {
        entries.push(0);
        reachable_entries.push(0);
    }
    entries.sort_unstable();
    entries.dedup();
    reachable_entries.sort_unstable();
    reachable_entries.dedup();
    let entry = (reachable_entries.len() == 1).then(|| BlockId(reachable_entries[0] as u32));
    exits.sort_unstable();
    exits.dedup();
    let header = (entries.len() == 1).then(|| entries[0]);
    // A loop with a header has it as its entry (unless nothing reaches the loop).
    let has_nested = match header.or(entry.map(|b| b.0 as usize)) {
        Some(h) => {
            let rest: Vec<usize> = scc.iter().copied().filter(|&b| b != h).collect();
            let inner: Vec<Vec<usize>> = succs
                .iter()
                .enumerate()
                .map(|(b, s)| {
                    if b == h {
                        Vec::new()
                    } else {
                        s.iter().copied().filter(|&t| t != h).collect()
                    }
                })
                .collect();
            sccs(&inner, &rest).iter().any(|c| is_cycle(&inner, c))
        }
        None => false,
    };
    let has_calls = scc.iter().any(|&b| {
        func.blocks[b].insts.iter().any(|i| match &i.kind {
            InstKind::Call { callee, .. } => match callee {
                Callee::Direct(f) => !module.function(*f).is_declaration,
                Callee::Indirect(_) => true,
                Callee::InlineAsm(_) => false,
            },
            _ => false,
        })
    });
    Loop {
        header: header.map(|h| BlockId(h as u32)),
        entry,
        loc: header.and_then(|h| func.blocks[h].term_loc),
        blocks: scc.iter().map(|&b| BlockId(b as u32)).collect(),
        exits: exits.into_iter().map(|b| BlockId(b as u32)).collect(),
        has_calls,
        has_nested,
    }
}

/// Per block, whether the function's entry block reaches it.
fn reachable_from_entry(succs: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; succs.len()];
    let mut work = Vec::new();
    if !succs.is_empty() {
        seen[0] = true;
        work.push(0);
    }
    while let Some(b) = work.pop() {
        for &t in &succs[b] {
            if !seen[t] {
                seen[t] = true;
                work.push(t);
            }
        }
    }
    seen
}

/// The strongly connected components of the graph `succs` restricted to the nodes `nodes`
/// (Tarjan's algorithm, iterative).
fn sccs(succs: &[Vec<usize>], nodes: &[usize]) -> Vec<Vec<usize>> {
    const NONE: usize = usize::MAX;
    let n = succs.len();
    let mut member = vec![false; n];
    for &v in nodes {
        member[v] = true;
    }
    let mut index = vec![NONE; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut next = 0usize;
    for &root in nodes {
        if index[root] != NONE {
            continue;
        }
        // (node, position in its successor list)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if let Some(&w) = succs[v].get(*pos) {
                *pos += 1;
                if !member[w] {
                    continue;
                }
                if index[w] == NONE {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                loop {
                    let w = stack.pop().expect("on the stack");
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(usize, usize)], n: usize) -> Vec<Vec<usize>> {
        let mut s = vec![Vec::new(); n];
        for &(a, b) in edges {
            s[a].push(b);
        }
        s
    }

    #[test]
    fn sccs_find_the_cycles() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 3 -> 3
        let g = graph(&[(0, 1), (1, 2), (2, 1), (2, 3), (3, 3)], 4);
        let mut found: Vec<Vec<usize>> = sccs(&g, &[0, 1, 2, 3])
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        found.sort();
        assert_eq!(found, vec![vec![0], vec![1, 2], vec![3]]);
        assert!(is_cycle(&g, &[3]));
        assert!(!is_cycle(&g, &[0]));
    }
}
