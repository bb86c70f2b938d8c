//! Printing: the exact shape of scripts, sharing, sorts of width-1 terms, names, models.

use sear_expr::smtlib::{
    format_value, parse_script, print_assignment, print_expr, print_model, print_query, print_term,
    print_values, Command, QueryPrintOptions,
};
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, UpdateList};

fn byte(array: &ArrayRef, index: u128) -> Expr {
    Expr::read(
        &UpdateList::new(array.clone()),
        Expr::constant(index, array.index_width()),
    )
}

fn word(array: &ArrayRef) -> Expr {
    Expr::read_lsb(&UpdateList::new(array.clone()), Expr::constant(0, 32), 4)
}

#[test]
fn a_complete_script() {
    let input = Array::new("in", 4, ArrayKind::SymbolicInput, None);
    let table = Array::new(
        "table",
        3,
        ArrayKind::MemoryObject,
        Some(vec![7, 0, 0].into()),
    );
    let x = word(&input);
    let lookup = Expr::read(&UpdateList::new(table), Expr::extract(x.clone(), 0, 32));
    let options = QueryPrintOptions {
        comments: vec!["query 1".into()],
        get_values: vec![byte(&input, 0)],
        get_model: true,
        ..QueryPrintOptions::default()
    };
    let text = print_query(
        &[
            Expr::ult(x.clone(), Expr::constant(10, 32)),
            Expr::eq(Expr::constant(7, 8), lookup),
        ],
        &options,
    );
    assert_eq!(
        text,
        "; query 1
(set-logic QF_ABV)
; sear-array in size=4 kind=symbolic-input
(declare-fun in () (Array (_ BitVec 32) (_ BitVec 8)))
; sear-array table size=3 kind=memory-object
(define-fun table () (Array (_ BitVec 32) (_ BitVec 8)) (store (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000000 #x07) #x00000002 #x00))
(define-fun ?e1 () (_ BitVec 32) (concat (select in #x00000003) (concat (select in #x00000002) (concat (select in #x00000001) (select in #x00000000)))))
(assert (bvult ?e1 #x0000000a))
(assert (= #x07 (select table ?e1)))
(check-sat)
(get-value ((select in #x00000000)))
(get-model)
(exit)
"
    );
}

#[test]
fn no_arrays_means_qf_bv() {
    let text = print_query(&[Expr::false_()], &QueryPrintOptions::default());
    assert_eq!(
        text,
        "(set-logic QF_BV)\n(assert false)\n(check-sat)\n(exit)\n"
    );
    let script = parse_script(&text).unwrap();
    assert!(script.assertions()[0].is_false());
}

#[test]
fn sharing_keeps_exponential_trees_linear() {
    let a = Array::new("a", 8, ArrayKind::SymbolicInput, None);
    let mut e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 8);
    for _ in 0..80 {
        e = Expr::mul(e.clone(), e); // 2^80 leaves as a tree
    }
    let c = Expr::eq(Expr::constant(1, 64), e.clone());
    let text = print_query(std::slice::from_ref(&c), &QueryPrintOptions::default());
    assert!(text.len() < 20_000, "{} bytes", text.len());
    assert!(
        text.contains("(let ((?e"),
        "shared within one assertion: let"
    );
    let back = parse_script(&text).unwrap().assertions().remove(0);
    assert_eq!(back.depth(), c.depth());
    assert!(print_term(&e).len() < 20_000);
    // The diagnostic printer does not share and is cut off instead.
    let debug = format!("{e:?}");
    assert!(debug.len() < 25_000 && debug.ends_with('…'));
}

#[test]
fn subterms_shared_between_assertions_are_defined_once() {
    let a = Array::new("a", 4, ArrayKind::SymbolicInput, None);
    let x = word(&a);
    let sum = Expr::add(x.clone(), Expr::mul(x.clone(), Expr::constant(3, 32)));
    let cs = [
        Expr::ult(sum.clone(), Expr::constant(5, 32)),
        Expr::slt(Expr::constant(1, 32), sum.clone()),
    ];
    let text = print_query(&cs, &QueryPrintOptions::default());
    let defines = text
        .lines()
        .filter(|l| l.starts_with("(define-fun ?e"))
        .count();
    assert_eq!(defines, 2, "{text}"); // x (used by sum twice) and sum (used by both asserts)
    assert!(!text.contains("(let"), "{text}");
    assert_eq!(text.matches("(bvmul").count(), 1);
}

#[test]
fn width_one_terms_get_the_sort_their_position_needs() {
    let a = Array::new("a", 2, ArrayKind::SymbolicInput, None);
    let (x, y) = (byte(&a, 0), byte(&a, 1));
    let bit = Expr::extract(x.clone(), 3, 1);
    let less = Expr::ult(x.clone(), y.clone());
    let cs = [
        // A bit used as a formula.
        Expr::or(bit.clone(), less.clone()),
        // A formula used as a bit.
        Expr::ult(
            Expr::constant(0x10, 8),
            Expr::add(x.clone(), Expr::zext(less.clone(), 8)),
        ),
        // Bits compared as bit-vectors, and a shift at width 1.
        Expr::slt(
            bit.clone(),
            Expr::shl(Expr::extract(y.clone(), 0, 1), bit.clone()),
        ),
    ];
    let text = print_query(&cs, &QueryPrintOptions::default());
    // `bit` and `less` are shared between assertions, so they are defined once in their
    // natural sorts and converted where used.
    assert!(
        text.contains("(define-fun ?e1 () (_ BitVec 1) ((_ extract 3 3) (select a #x00000000)))"),
        "{text}"
    );
    assert!(
        text.contains(
            "(define-fun ?e2 () Bool (bvult (select a #x00000000) (select a #x00000001)))"
        ),
        "{text}"
    );
    assert!(text.contains("(or (= #b1 ?e1) ?e2)"), "{text}");
    assert!(
        text.contains("((_ zero_extend 7) (ite ?e2 #b1 #b0))"),
        "{text}"
    );
    assert!(
        text.contains("(bvslt ?e1 (bvshl ((_ extract 0 0) (select a #x00000001)) ?e1))"),
        "{text}"
    );
    let back = parse_script(&text).unwrap().assertions();
    assert_eq!(back.len(), 3);
    // Conversions fold away again: the parsed constraints have the same shapes.
    for (b, c) in back.iter().zip(&cs) {
        assert_eq!(print_expr(b), print_expr(c));
    }
}

#[test]
fn names_are_quoted_sanitized_and_made_unique() {
    let names = ["a b", "x|y", "1st", "let", "dup", "dup", "?e1", "ok_name"];
    let arrays: Vec<ArrayRef> = names
        .iter()
        .map(|n| Array::new(*n, 1, ArrayKind::Other, None))
        .collect();
    let sum = arrays.iter().map(|a| byte(a, 0)).reduce(Expr::add).unwrap();
    // `sum` is shared, so a generated name is needed; it must not collide with `?e1`.
    let c = [
        Expr::ult(sum.clone(), Expr::constant(3, 8)),
        Expr::ult(Expr::constant(9, 8), sum),
    ];
    let text = print_query(&c, &QueryPrintOptions::default());
    for declared in [
        "|a b|", "x_y", "|1st|", "|let|", "dup", "dup_1", "?e1", "ok_name",
    ] {
        assert!(
            text.contains(&format!("(declare-fun {declared} ()")),
            "{declared} in\n{text}"
        );
    }
    assert!(text.contains("(define-fun ?e_"), "{text}");
    let script = parse_script(&text).unwrap();
    let parsed: Vec<&str> = script.arrays.iter().map(|a| a.name()).collect();
    assert_eq!(
        parsed,
        ["a b", "x_y", "1st", "let", "dup", "dup_1", "?e1", "ok_name"]
    );
    assert_eq!(script.assertions().len(), 2);
}

#[test]
fn index_width_64_and_extra_arrays() {
    let wide = Array::with_index_width("wide", 5, 64, ArrayKind::SymbolicAddress, None);
    let unused = Array::new("unused", 2, ArrayKind::SymbolicInput, None);
    let c = Expr::eq(Expr::constant(1, 8), byte(&wide, 4));
    let text = print_query(
        &[c],
        &QueryPrintOptions {
            extra_arrays: vec![unused.clone()],
            ..QueryPrintOptions::default()
        },
    );
    assert!(text.contains("(declare-fun wide () (Array (_ BitVec 64) (_ BitVec 8)))"));
    assert!(text.contains("(select wide #x0000000000000004)"));
    assert!(text.contains("; sear-array unused size=2 kind=symbolic-input"));
    let script = parse_script(&text).unwrap();
    let meta: Vec<(&str, u64, u32, ArrayKind)> = script
        .arrays
        .iter()
        .map(|a| (a.name(), a.size(), a.index_width(), a.kind()))
        .collect();
    assert_eq!(
        meta,
        [
            ("wide", 5, 64, ArrayKind::SymbolicAddress),
            ("unused", 2, 32, ArrayKind::SymbolicInput)
        ]
    );
}

#[test]
fn display_of_expressions() {
    let a = Array::new("a", 4, ArrayKind::SymbolicInput, None);
    let x = byte(&a, 1);
    let cases = [
        (Expr::constant(5, 8), "#x05"),
        (Expr::constant(5, 3), "#b101"),
        (Expr::true_(), "true"),
        (
            Expr::add(Expr::constant(1, 8), x.clone()),
            "(bvadd #x01 (select a #x00000001))",
        ),
        (
            Expr::ne(Expr::constant(0, 8), x.clone()),
            "(not (= #x00 (select a #x00000001)))",
        ),
        (
            Expr::sext(x.clone(), 12),
            "((_ sign_extend 4) (select a #x00000001))",
        ),
        (
            Expr::read(
                &UpdateList::new(a.clone()).write(Expr::zext(x.clone(), 32), Expr::constant(9, 8)),
                Expr::constant(0, 32),
            ),
            "(select (store a ((_ zero_extend 24) (select a #x00000001)) #x09) #x00000000)",
        ),
    ];
    for (e, expected) in cases {
        assert_eq!(e.to_string(), expected);
        assert_eq!(format!("{e:?}"), expected);
    }
}

#[test]
fn models_and_values() {
    let script = parse_script(
        "(declare-fun x () (_ BitVec 12)) (declare-fun p () Bool)
         ; sear-array buf size=3 kind=symbolic-input
         (declare-fun buf () (Array (_ BitVec 32) (_ BitVec 8)))
         (assert (= x ((_ zero_extend 4) (select buf #x00000001))))
         (get-value (x (bvadd x #x001) p (select buf #x00000002)))",
    )
    .unwrap();
    let mut model = Assignment::new();
    model.insert(script.arrays[0].clone(), vec![0x34, 0x10]);
    model.insert(script.arrays[1].clone(), vec![1]);
    model.insert(script.arrays[2].clone(), vec![0, 0x34, 0]);
    assert!(model.satisfies(&script.assertions()));
    assert_eq!(
        print_model(&model, &script),
        "(model
  (define-fun x () (_ BitVec 12) #x034)
  (define-fun p () Bool true)
  (define-fun buf () (Array (_ BitVec 32) (_ BitVec 8)) (store (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000001 #x34) #x00000002 #x00))
)
"
    );
    let Some(Command::GetValue(values)) = script.commands.last() else {
        panic!()
    };
    assert_eq!(
        print_values(values, &model),
        "((x #x034)\n ((bvadd x #x001) #x035)\n (p true)\n ((select buf #x00000002) #x00))\n"
    );
    // A printed model is made of definitions the parser reads back.
    let printed = print_model(&model, &script);
    let body = printed
        .strip_prefix("(model\n")
        .unwrap()
        .strip_suffix(")\n")
        .unwrap();
    let defs = parse_script(&format!("{body}(get-value (x p (select buf #x00000001)))")).unwrap();
    let Some(Command::GetValue(v)) = defs.commands.last() else {
        panic!()
    };
    let got: Vec<Option<u128>> = v.iter().map(|(_, e, _)| e.as_constant()).collect();
    assert_eq!(got, [Some(0x034), Some(1), Some(0x34)]);
}

#[test]
fn assignments_print_every_array() {
    let a = Array::new("a", 2, ArrayKind::SymbolicInput, None);
    let huge = Array::new("huge", u64::MAX, ArrayKind::MemoryObject, None);
    let mut model = Assignment::new();
    model.insert(a, vec![0, 0]);
    model.insert(huge, vec![0, 0xab]);
    assert_eq!(
        print_assignment(&model),
        "(model
  (define-fun a () (Array (_ BitVec 32) (_ BitVec 8)) (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000001 #x00))
  (define-fun huge () (Array (_ BitVec 32) (_ BitVec 8)) (store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00000001 #xab))
)
"
    );
    assert_eq!(print_assignment(&Assignment::new()), "(model\n)\n");
}

#[test]
fn value_literals() {
    assert_eq!(format_value(5, 8), "#x05");
    assert_eq!(format_value(5, 3), "#b101");
    assert_eq!(format_value(1, 1), "#b1");
    assert_eq!(
        format_value(u128::MAX, 128),
        format!("#x{}", "f".repeat(32))
    );
    assert_eq!(format_value(0, 17), "#b00000000000000000");
}

#[test]
fn models_of_unbounded_arrays_show_the_bytes_beyond_the_dense_part() {
    let script = parse_script(
        "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
         (declare-fun x () (_ BitVec 32))
         (assert (= (select a x) #x2a))",
    )
    .unwrap();
    let a = script
        .arrays
        .iter()
        .find(|r| r.name() == "a")
        .unwrap()
        .clone();
    let mut model = Assignment::new();
    for other in script.arrays.iter().filter(|r| r.name() != "a") {
        model.insert(other.clone(), vec![0x00, 0x10, 0, 0]);
    }
    model.set_outside(a, 0x1000, 0x2a);
    assert!(model.satisfies(&script.assertions()));
    let printed = print_model(&model, &script);
    assert!(
        printed.contains(
            "(store ((as const (Array (_ BitVec 32) (_ BitVec 8))) #x00) #x00001000 #x2a)"
        ),
        "{printed}"
    );
}
