//! The verifier accepts lowered modules and rejects each kind of broken invariant.

mod common;

use sear_ir::*;

fn base() -> Module {
    common::compile(
        "int g = 3;\n\
         int f(int a, int b) {\n\
           int r = 0;\n\
           for (int i = 0; i < a; i++) r = r * 31 + (b ^ i);\n\
           return r + g;\n\
         }\n",
        2,
    )
    .module
}

fn f_mut(m: &mut Module) -> &mut Function {
    let id = m.function_by_name("f").unwrap();
    &mut m.functions[id.0 as usize]
}

/// Applies `corrupt` to a fresh module and expects the verifier to mention `expected`.
fn rejects(expected: &str, corrupt: impl FnOnce(&mut Module)) {
    let mut m = base();
    verify(&m).expect("the uncorrupted module verifies");
    corrupt(&mut m);
    match verify(&m) {
        Err(IrError::Verify(message)) => {
            assert!(
                message.contains(expected),
                "message {message:?} lacks {expected:?}"
            )
        }
        other => panic!("expected a verification error mentioning {expected:?}, got {other:?}"),
    }
}

fn first_inst_with_dest(f: &mut Function) -> &mut Inst {
    f.blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
        .find(|i| i.dest.is_some())
        .expect("an instruction with a destination")
}

#[test]
fn slot_out_of_range() {
    rejects("out of range", |m| {
        let f = f_mut(m);
        let n = f.num_slots;
        f.blocks[0].term = Terminator::Ret(Some(Operand::Slot(Slot(n))));
    });
}

#[test]
fn slot_assigned_twice() {
    rejects("assigned twice", |m| {
        let f = f_mut(m);
        first_inst_with_dest(f).dest = Some(Slot(0));
    });
}

#[test]
fn missing_destination() {
    rejects("without a destination", |m| {
        first_inst_with_dest(f_mut(m)).dest = None;
    });
}

#[test]
fn phi_from_a_non_predecessor() {
    rejects("not a predecessor", |m| {
        let f = f_mut(m);
        let (index, _) = f
            .blocks
            .iter()
            .enumerate()
            .find(|(_, b)| !b.phis.is_empty())
            .expect("a block with phis at -O2");
        // The block cannot be its own predecessor through the entry block.
        let not_pred = f
            .blocks
            .iter()
            .position(|b| matches!(b.term, Terminator::Ret(_)))
            .unwrap();
        assert_ne!(not_pred, index);
        f.blocks[index].phis[0].incoming[0].0 = BlockId(not_pred as u32);
    });
}

#[test]
fn branch_to_a_missing_block() {
    rejects("block id", |m| {
        let f = f_mut(m);
        let n = f.blocks.len() as u32;
        f.blocks[0].term = Terminator::Br(BlockId(n + 3));
    });
}

#[test]
fn bad_type_and_constant_ids() {
    rejects("type id", |m| {
        let n = m.types.len() as u32;
        first_inst_with_dest(f_mut(m)).ty = TypeId(n);
    });
    rejects("constant id", |m| {
        let n = m.constants.len() as u32;
        let g = m.global_index["g"];
        m.globals[g.0 as usize].init = Some(ConstId(n));
    });
    rejects("later constant", |m| {
        let n = m.constants.len() as u32;
        m.constants.push(Constant::PtrOffset {
            base: ConstId(n + 1),
            offset: 4,
        });
        m.constants.push(Constant::Null);
    });
}

#[test]
fn declarations_and_definitions() {
    rejects("is_declaration", |m| {
        f_mut(m).is_declaration = true;
    });
    rejects("function_index", |m| {
        let f = m.function_by_name("f").unwrap();
        m.function_index.insert("not_f".into(), f);
    });
}
