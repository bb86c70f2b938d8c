//! Liveness of registers and promotable allocas (`sear_ir::liveness`, used by incremental
//! merging, seed 003 §6.3) on `-O0` code, where every local is an alloca.

mod common;

use sear_ir::liveness::{Liveness, Var};
use sear_ir::*;

const SOURCE: &str = r#"
void g(int *);
int f(int a, int b) {
  int x = a;
  int y = 0;
  int z = 0;
  g(&z);
  if (b) {
    y = x;
    x = 5;
  } else {
    x = 7;
  }
  return x + y + z;
}
"#;

/// The block whose only store writes the constant `c`; returns it and the store's address.
fn block_storing(m: &Module, f: &Function, c: u128) -> (BlockId, u32) {
    for (i, b) in f.blocks.iter().enumerate() {
        let stores: Vec<&Inst> = b
            .insts
            .iter()
            .filter(|inst| matches!(inst.kind, InstKind::Store { .. }))
            .collect();
        if let [inst] = stores[..] {
            if let InstKind::Store {
                ptr: Operand::Slot(p),
                value: Operand::Const(k),
                ..
            } = inst.kind
            {
                if matches!(m.constant(k), Constant::Int { value, .. } if *value == c) {
                    return (BlockId(i as u32), p.0);
                }
            }
        }
    }
    panic!("no block stores only {c}")
}

#[test]
fn a_variable_overwritten_before_any_read_is_dead() {
    let c = common::compile(SOURCE, 0);
    let f = common::func(&c.module, "f");
    let live = Liveness::new(f);
    // The else block writes x = 7 before reading it: x is dead at its start.
    let (else_block, x) = block_storing(&c.module, f, 7);
    assert!(live.is_promotable(x));
    assert!(!live.live_at(f, else_block, 0, Var::Alloca(x)));
    // The then block reads x (y = x) before x = 5: live there.
    let then_block =
        f.blocks
            .iter()
            .position(|b| {
                b.insts.iter().any(
                    |i| matches!(i.kind, InstKind::Load { ptr: Operand::Slot(p), .. } if p.0 == x),
                ) && b.insts.iter().any(
                    |i| matches!(i.kind, InstKind::Store { ptr: Operand::Slot(p), .. } if p.0 == x),
                )
            })
            .map(|i| BlockId(i as u32))
            .expect("the then block reads and writes x");
    assert!(live.live_at(f, then_block, 0, Var::Alloca(x)));
    // After the then block's last store to x, x is live (the return reads it).
    let n = f.blocks[then_block.0 as usize].insts.len();
    assert!(live.live_at(f, then_block, n, Var::Alloca(x)));
    // z's address escapes (g(&z)): not a variable of the analysis.
    let escaped: Vec<u32> = live
        .entry_allocas()
        .iter()
        .copied()
        .filter(|&a| !live.is_promotable(a))
        .collect();
    assert_eq!(escaped.len(), 1, "only z escapes: {escaped:?}");
    // Every alloca of f is in its entry block.
    assert!(live.entry_allocas().len() >= 5);
}

#[test]
fn registers_are_live_until_their_last_use() {
    let c = common::compile(SOURCE, 2);
    let f = common::func(&c.module, "f");
    let live = Liveness::new(f);
    // Parameter b (slot 1) decides the branch of the entry block: live at its start, dead
    // in every block without a use of it.
    assert!(live.live_at(f, BlockId(0), 0, Var::Slot(1)));
    let last = BlockId(f.blocks.len() as u32 - 1);
    assert!(!live.live_at(f, last, f.blocks[last.0 as usize].insts.len(), Var::Slot(1)));
}
