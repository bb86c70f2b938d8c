//! The parser never panics: random bytes, random token soups and mutated printed queries
//! give a script or an error with a position inside the input.

mod common;

use proptest::prelude::*;
use sear_expr::smtlib::{parse_script, print_query, QueryPrintOptions};
use sear_expr::testing::{gen_query, QueryConfig, Rng};

const VOCABULARY: &[&str] = &[
    "(",
    "(",
    "(",
    ")",
    ")",
    ")",
    "assert",
    "declare-fun",
    "declare-const",
    "define-fun",
    "check-sat",
    "get-value",
    "get-model",
    "push",
    "pop",
    "echo",
    "exit",
    "set-info",
    "let",
    "_",
    "!",
    "as",
    "const",
    "Array",
    "BitVec",
    "Bool",
    "true",
    "false",
    "not",
    "and",
    "or",
    "xor",
    "=>",
    "=",
    "distinct",
    "ite",
    "bvadd",
    "bvsub",
    "bvmul",
    "bvudiv",
    "bvsdiv",
    "bvurem",
    "bvsrem",
    "bvsmod",
    "bvneg",
    "bvnot",
    "bvand",
    "bvor",
    "bvxor",
    "bvnand",
    "bvnor",
    "bvxnor",
    "bvcomp",
    "bvshl",
    "bvlshr",
    "bvashr",
    "bvult",
    "bvule",
    "bvugt",
    "bvuge",
    "bvslt",
    "bvsle",
    "bvsgt",
    "bvsge",
    "concat",
    "extract",
    "zero_extend",
    "sign_extend",
    "repeat",
    "rotate_left",
    "rotate_right",
    "select",
    "store",
    "bv5",
    "bv0",
    "x",
    "y",
    "a",
    "|q s|",
    ":named",
    ":status",
    "0",
    "1",
    "7",
    "8",
    "31",
    "32",
    "64",
    "128",
    "129",
    "4294967296",
    "1.5",
    "#x00",
    "#xff",
    "#b1",
    "#b0",
    "#x0000000000000000000000000000000000",
    "#x00000000",
    "\"str\"",
    "; comment\n",
    "; sear-array a size=4 kind=other\n",
    "\n",
];

fn soup(rng: &mut Rng, len: usize) -> String {
    let mut out = String::from(
        "(declare-fun x () (_ BitVec 8)) (declare-fun a () (Array (_ BitVec 32) (_ BitVec 8))) ",
    );
    for _ in 0..len {
        let word: &&str = rng.pick(VOCABULARY);
        out.push_str(word);
        out.push(' ');
    }
    out
}

/// Parses `text`; an error must point inside it.
fn parse_checked(text: &str) -> Result<(), TestCaseError> {
    match parse_script(text) {
        Ok(script) => {
            for e in script.assertions() {
                prop_assert!(e.is_bool());
            }
        }
        Err(e) => {
            let lines = text.split('\n').count();
            prop_assert!(
                e.line >= 1 && e.line <= lines,
                "{e} for a {lines}-line input"
            );
            prop_assert!(e.column >= 1);
            prop_assert!(!e.message.is_empty());
        }
    }
    Ok(())
}

fn tokens(text: &str) -> Vec<String> {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    spaced.split_whitespace().map(str::to_string).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(2000), ..ProptestConfig::default() })]

    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_checked(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn random_ascii_with_structure(chars in proptest::collection::vec(
        prop_oneof![Just('('), Just(')'), Just(' '), Just('|'), Just('"'), Just('#'), Just(';'), Just('\n'), Just('x'), Just('b'), Just('0'), Just('1'), Just('_'), Just(':')],
        0..300,
    )) {
        parse_checked(&chars.into_iter().collect::<String>())?;
    }

    #[test]
    fn token_soups(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let len = rng.range(1, 80) as usize;
        parse_checked(&soup(&mut rng, len))?;
    }

    #[test]
    fn balanced_token_soups(seed in any::<u64>()) {
        // Wrap soups in balanced parentheses so the parser gets past paren matching and
        // into the term evaluator.
        let mut rng = Rng::new(seed);
        let mut text = String::from("(declare-fun x () (_ BitVec 8)) (assert ");
        let mut depth = 0;
        for _ in 0..rng.range(1, 60) {
            match rng.below(4) {
                0 => { text.push('('); depth += 1; }
                1 if depth > 0 => { text.push(')'); depth -= 1; }
                _ => {
                    let word: &&str = rng.pick(&VOCABULARY[6..]);
                    text.push_str(word);
                }
            }
            text.push(' ');
        }
        text.push_str(&")".repeat(depth + 1));
        parse_checked(&text)?;
    }

    #[test]
    fn mutated_printed_queries(seed in any::<u64>()) {
        let q = gen_query(seed, &QueryConfig::path_like());
        let text = print_query(&q.constraints, &QueryPrintOptions { get_model: true, get_values: q.constraints.clone(), ..QueryPrintOptions::default() });
        let mut toks = tokens(&text);
        let mut rng = Rng::new(seed ^ 0xf00d);
        for _ in 0..rng.range(1, 4) {
            let i = rng.below(toks.len() as u64) as usize;
            match rng.below(4) {
                0 => { toks.remove(i); }
                1 => { let t = toks[i].clone(); toks.insert(i, t); }
                2 => { let j = rng.below(toks.len() as u64) as usize; toks.swap(i, j); }
                _ => toks[i] = rng.pick(VOCABULARY).to_string(),
            }
        }
        parse_checked(&toks.join(" "))?;
    }
}

#[test]
fn pathological_inputs() {
    for text in [
        "",
        " ",
        "(",
        ")",
        "()",
        "(())",
        "((assert true))",
        "(assert)",
        "(assert ())",
        "(assert (()))",
        "(assert ((_ extract)))",
        "(assert ((_ extract 1) #x00))",
        "(assert ((as const) #x00))",
        "(assert ((_ bv1 8) #x00))",
        "(assert (let x x))",
        "(assert (let ((x)) x))",
        "(assert (let ((x true)) ))",
        "(assert (! true :named))",
        "(assert (! true :named x :named x))",
        "(assert (! true nope))",
        "(declare-fun)",
        "(declare-fun x)",
        "(declare-fun x () )",
        "(declare-fun |x| () (_ BitVec 4294967297))",
        "(declare-fun x () (_ BitVec))",
        "(declare-fun x () (Array))",
        "(declare-fun x () (Array (_ BitVec 32)))",
        "(define-fun x () Bool)",
        "(get-value ())",
        "(get-value x)",
        "(pop 0)",
        "(push 4294967295) (pop 4294967295)",
        "(echo)",
        "(set-logic)",
        "(exit) garbage (",
        "#",
        "#x",
        "#b2",
        "|",
        "\"",
        ":",
        "(assert (= (_ bv99999999999999999999999999999999999999999999999999999 8) #x00))",
        "(assert (= ((_ repeat 4294967295) #x00) #x00))",
        "(assert (= ((_ zero_extend 4294967295) #x00) #x00))",
        "(assert (= ((_ rotate_left 4294967295) #x01) #x00))",
        "(assert (= ((_ extract 4294967295 0) #x01) #x00))",
        "(declare-fun a () (Array (_ BitVec 64) (_ BitVec 8)))(define-fun t () (Array (_ BitVec 64) (_ BitVec 8)) (store ((as const (Array (_ BitVec 64) (_ BitVec 8))) #x00) #xffffffffffffffff #x01))(assert (= #x01 (select t #x0000000000000000)))",
        "; sear-array t size=99999999999999 kind=other\n(define-fun t () (Array (_ BitVec 32) (_ BitVec 8)) ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00))(assert (= #x00 (select t #x00000005)))",
    ] {
        let result = parse_script(text);
        if let Err(e) = &result {
            assert!(e.line >= 1 && e.column >= 1, "{e}");
        }
    }
    // Huge constant arrays are not materialised but keep their exact meaning.
    let text = "(define-fun t () (Array (_ BitVec 32) (_ BitVec 8)) (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #xfffffff0 #x01))
                (declare-const i (_ BitVec 32)) (get-value ((select t i)))";
    let script = parse_script(text).unwrap();
    let sear_expr::smtlib::Command::GetValue(v) = &script.commands[0] else {
        panic!()
    };
    let mut model = sear_expr::Assignment::new();
    model.insert(script.arrays[0].clone(), vec![0xf0, 0xff, 0xff, 0xff]);
    assert_eq!(model.evaluate(&v[0].1), 1);
}
