//! Merging contexts (Algorithm 3): the paths of one size-dependent loop, from the tainted
//! fork that opened the context until every one of them has left the loop.

use rustc_hash::FxHashMap;
use sear_expr::Expr;
use sear_ir::loops::LoopId;
use sear_ir::FuncId;

use super::tree::{ExecTree, NodeId};
use crate::state::{State, StateId};

/// A path's membership in a context: which one, and its leaf in the context's tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// The context.
    pub ctx: u32,
    /// The path's leaf of the execution tree.
    pub node: NodeId,
}

/// One merging context.
#[derive(Debug)]
pub struct Context {
    /// The function of the loop.
    pub func: FuncId,
    /// The loop.
    pub loop_id: LoopId,
    /// The call-stack depth of the loop's frame.
    pub depth: usize,
    /// Length of the path condition when the context opened (φ, the common prefix).
    pub prefix_len: usize,
    /// Paths of the context still inside the loop (the liveness counter).
    pub open: usize,
    /// Paths that ended inside the loop (errors, exits, limits).
    pub ended: usize,
    /// Paths that left the loop, waiting for the others.
    pub waiting: Vec<State>,
    /// The execution tree of the context's paths.
    pub tree: ExecTree,
    /// Snapshots of the tree's nodes (`--incremental-merge=on`).
    pub snapshots: super::incremental::Snapshots,
}

/// Where a waiting path is: its group in the merge (same exit block, same place).
pub type Place = (usize, FuncId, u32, usize);

/// The place of `state`: call depth, function, block, instruction.
pub fn place(state: &State) -> Place {
    let f = state.frame();
    (state.stack.len(), f.func, f.block.0, f.inst)
}

/// The run's open contexts.
#[derive(Debug, Default)]
pub struct Contexts {
    contexts: FxHashMap<u32, Context>,
    next: u32,
}

impl Contexts {
    /// Opens a context for the loop `loop_id` of `func` at `state` (which becomes its first
    /// path, at the tree's root); returns its membership.
    pub fn open(&mut self, state: &State, func: FuncId, loop_id: LoopId) -> Member {
        let id = self.next;
        self.next += 1;
        let tree = ExecTree::new(state.id);
        let node = tree.root();
        self.contexts.insert(
            id,
            Context {
                func,
                loop_id,
                depth: state.stack.len(),
                prefix_len: state.constraints.len(),
                open: 1,
                ended: 0,
                waiting: Vec::new(),
                tree,
                snapshots: Default::default(),
            },
        );
        Member { ctx: id, node }
    }

    /// The context `id`.
    pub fn get(&self, id: u32) -> Option<&Context> {
        self.contexts.get(&id)
    }

    /// The context `id`, mutably.
    pub fn get_mut(&mut self, id: u32) -> Option<&mut Context> {
        self.contexts.get_mut(&id)
    }

    /// Records that the member `m` forked the path `child` off `parent` under `cond`:
    /// returns the child's and the parent's new memberships.
    pub fn fork(
        &mut self,
        m: Member,
        cond: Expr,
        child: StateId,
        parent: StateId,
    ) -> Option<(Member, Member)> {
        let ctx = self.contexts.get_mut(&m.ctx)?;
        let (left, right) = ctx.tree.split(m.node, cond, child, parent);
        ctx.open += 1;
        Some((
            Member {
                ctx: m.ctx,
                node: left,
            },
            Member {
                ctx: m.ctx,
                node: right,
            },
        ))
    }

    /// Removes the context `id` (when its last path has left the loop).
    pub fn close(&mut self, id: u32) -> Option<Context> {
        self.contexts.remove(&id)
    }

    /// Every waiting path of every context (for the halt).
    pub fn take_waiting(&mut self) -> Vec<State> {
        let mut out = Vec::new();
        for (_, ctx) in self.contexts.drain() {
            out.extend(ctx.waiting);
        }
        out
    }
}
