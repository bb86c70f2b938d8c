//! `sear solve`: answers, models that satisfy the file, every core, and clear errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn solve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sear"))
        .arg("solve")
        .args(args)
        .output()
        .expect("sear runs")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const CORES: [&[&str]; 8] = [
    &["--core-solver=z3"],
    &["--core-solver=eager"],
    &["--core-solver=cegar"],
    &["--core-solver=cegar", "--ilp-precheck"],
    &["--core-solver=bitwuzla"],
    &["--core-solver=bitwuzla-eager"],
    &["--core-solver=bitwuzla-portfolio"],
    &["--core-solver=eager-portfolio", "--core-switch-time=0.001"],
];

/// A read at a symbolic index far beyond any byte the file mentions, and a contradiction.
const FILE: &str = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
(declare-fun x () (_ BitVec 32))
(assert (= (select a x) #x2a))
(assert (bvugt x #x00000100))
(check-sat)
(get-value (x (select a x)))
(push 1)
(assert (= (select a x) #x2b))
(check-sat)
(pop 1)
(check-sat)
";

#[test]
fn every_core_answers_and_its_model_satisfies_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "q.smt2", FILE);
    for core in CORES {
        let mut args = core.to_vec();
        args.push(file.to_str().unwrap());
        let o = solve(&args);
        assert!(
            o.status.success(),
            "{core:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "sat", "{core:?}: {out}");
        assert!(out.contains("((select a x) #x2a)"), "{core:?}: {out}");
        assert_eq!(
            lines[lines.len() - 2..],
            ["unsat", "sat"],
            "{core:?}: {out}"
        );
    }
}

#[test]
fn a_printed_model_asserted_back_keeps_the_file_satisfiable() {
    let dir = tempfile::tempdir().unwrap();
    let text = "(declare-fun a () (Array (_ BitVec 32) (_ BitVec 8)))
(declare-fun x () (_ BitVec 32))
(assert (= (select a x) #x2a))
(assert (= (select a (bvadd x #x00000001)) #x2b))
(assert (bvugt x #x00010000))
(check-sat)
";
    let file = write(dir.path(), "q.smt2", text);
    for core in CORES {
        let mut args = core.to_vec();
        args.extend(["--model", file.to_str().unwrap()]);
        let out = stdout(&solve(&args));
        assert!(out.starts_with("sat\n(model\n"), "{core:?}: {out}");
        // Rename the model's definitions and require the file's terms to equal them.
        let body = out
            .strip_prefix("sat\n(model\n")
            .and_then(|b| b.strip_suffix(")\n"))
            .expect("a model block");
        let defs = body
            .replace("define-fun a ", "define-fun ma ")
            .replace("define-fun x ", "define-fun mx ");
        let check = format!(
            "{}{defs}(assert (= x mx))\n(assert (= (select a x) (select ma mx)))\n\
             (assert (= (select a (bvadd x #x00000001)) (select ma (bvadd mx #x00000001))))\n(check-sat)\n",
            text.trim_end_matches("(check-sat)\n")
        );
        let again = write(dir.path(), "again.smt2", &check);
        let o = solve(&[again.to_str().unwrap()]);
        assert_eq!(stdout(&o), "sat\n", "{core:?}: {check}");
    }
}

#[test]
fn malformed_input_names_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "bad.smt2",
        "(declare-fun x () (_ BitVec 8))\n(assert (= x #x0))\n(assert (bvfoo x x))\n",
    );
    let o = solve(&[file.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.smt2"), "{err}");
    assert!(err.contains(":2:") || err.contains("line 2"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let missing = solve(&["/nonexistent/q.smt2"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}

/// What generated QF_ABV benchmarks and other tools write: `define-fun` macros (with a `let`
/// in the body that shadows a global, which the macro must not see), `define-sort`,
/// `check-sat-assuming`, `get-unsat-core` over named assertions, `push`/`pop` of a macro,
/// and `reset`. The expected output is what Z3 4.8 prints for the same file.
const SCRIPT_FEATURES: &str = "(set-option :produce-unsat-cores true)
(define-sort Byte () (_ BitVec 8))
(define-sort Mem () (Array (_ BitVec 32) (_ BitVec 8)))
(declare-fun m () Mem)
(declare-const x Byte)
(define-fun inc ((v Byte)) Byte (bvadd v #x01))
(define-fun same-next ((v Byte) (w Byte)) Bool (let ((x (inc v))) (= x (inc w))))
(define-fun at ((a Mem) (i (_ BitVec 32))) Byte (select a i))
(assert (! (= (inc x) #x05) :named a1))
(assert (! (same-next x (at m #x00000000)) :named a2))
(check-sat)
(get-value (x (at m #x00000000)))
(check-sat-assuming ((= x #x07)))
(get-unsat-core)
(assert (! (bvult x #x03) :named a3))
(check-sat)
(get-unsat-core)
(push 1)
(define-fun dec ((v Byte)) Byte (bvsub v #x01))
(assert (= (dec x) #x03))
(pop 1)
(reset)
(declare-const y (_ BitVec 8))
(assert (= y #x01))
(check-sat)
(get-value (y))
";

const SCRIPT_FEATURES_ANSWER: &str = "sat
((x #x04)
 ((at m #x00000000) #x04))
unsat
(a1 (= x #x07))
unsat
(a1 a3)
sat
((y #x01))
";

#[test]
fn macros_sorts_assumptions_cores_and_reset() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "features.smt2", SCRIPT_FEATURES);
    for core in CORES {
        let mut args = core.to_vec();
        args.push(file.to_str().unwrap());
        let o = solve(&args);
        assert!(
            o.status.success(),
            "{core:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(stdout(&o), SCRIPT_FEATURES_ANSWER, "{core:?}");
    }
}

/// What stays out is refused with the construct and its line: a macro used after its `pop`,
/// a parametric sort, quantifiers other than the bounded form of seed 003's quantified
/// clauses, datatypes.
#[test]
fn unsupported_constructs_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "(declare-const x (_ BitVec 8))\n(push 1)\n(define-fun f ((v (_ BitVec 8))) (_ BitVec 8) v)\n(pop 1)\n(assert (= (f x) x))\n",
            "unknown function f",
        ),
        ("(define-sort Pair (X) (Array X X))\n", "define-sort with parameters"),
        (
            "(declare-const x (_ BitVec 8))\n(assert (forall ((y (_ BitVec 8))) (= x y)))\n",
            "only (forall ((i (_ BitVec w))) (=> (and (bvule #b..1 i) (bvule i k)) body)) is supported",
        ),
        (
            "(declare-datatypes ((L 0)) (((nil))))\n",
            "unsupported command declare-datatypes",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let file = write(dir.path(), &format!("u{i}.smt2"), text);
        let o = solve(&[file.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{text}");
        assert!(err.contains(message), "{text}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Bit-vectors wider than 128 bits (which sear's expressions do not hold) go to Z3 directly:
/// the commands, values of any width (`#b` when the width is no multiple of four), arrays,
/// named assertions and cores, scopes and assumptions print as for any script. The values
/// and answers are those Z3 4.8.12 prints for the same file (its get-value of a width-1
/// term says `#b1` where sear's format says `true`).
const WIDE_SCRIPT: &str = "(declare-fun x () (_ BitVec 256))
(declare-fun y () (_ BitVec 256))
(declare-const z (_ BitVec 130))
(declare-const b Bool)
(declare-fun m () (Array (_ BitVec 32) (_ BitVec 8)))
(declare-fun small () (_ BitVec 8))
(define-fun big () (_ BitVec 256) (bvshl ((_ zero_extend 248) small) ((_ zero_extend 248) #xc8)))
(assert (! (= (bvadd x y) (bvnot ((_ zero_extend 255) #b0))) :named sum))
(assert (= b (bvugt x y)))
(assert (= small (select m #x00000007)))
(assert (= (select m #x00000007) #x2a))
(assert (= z (bvnot ((_ zero_extend 129) #b0))))
(check-sat)
(get-value (x y b ((_ extract 7 0) x) big z ((_ extract 0 0) x) (select m #x00000007)))
(push 1)
(assert (! (= x y) :named same))
(assert (! (= ((_ extract 0 0) x) #b1) :named odd))
(check-sat)
(get-unsat-core)
(pop 1)
(check-sat-assuming ((= x ((_ zero_extend 254) #b11))))
(get-value (y))
(pop 1)
";

#[test]
fn wide_bit_vectors_are_answered_by_z3() {
    let ones = "f".repeat(64);
    let zeros = "0".repeat(64);
    let expected = format!(
        "sat
((x #x{ones})
 (y #x{zeros})
 (b true)
 (((_ extract 7 0) x) #xff)
 (big #x0000000000002a{})
 (z #b{})
 (((_ extract 0 0) x) true)
 ((select m #x00000007) #x2a))
unsat
(sum same)
sat
((y #x{}c))
(error \"pop 1 exceeds the 0 open scopes\")
",
        "0".repeat(50),
        "1".repeat(130),
        "f".repeat(63)
    );
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "wide.smt2", WIDE_SCRIPT);
    let o = solve(&[file.to_str().unwrap()]);
    assert_eq!(
        stdout(&o),
        expected,
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A failed command makes the exit status 1, as for any script.
    assert_eq!(o.status.code(), Some(1));
    // Models list the constants as sear's do: bit-vectors, then Booleans, then arrays.
    let model = write(
        dir.path(),
        "model.smt2",
        "(declare-const b Bool)\n(declare-const w (_ BitVec 129))\n\
         (assert (= w ((_ zero_extend 128) #b1)))\n(assert b)\n(check-sat)\n(get-model)\n",
    );
    let o = solve(&[model.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        stdout(&o),
        format!(
            "sat\n(model\n  (define-fun w () (_ BitVec 129) #b{}1)\n  (define-fun b () Bool true)\n)\n",
            "0".repeat(128)
        )
    );
}

/// The answers (`sat`/`unsat`/`unknown` lines) of an output.
fn answers(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
        .map(str::to_string)
        .collect()
}

/// Z3's answers to a file, if the `z3` binary is installed.
fn z3_answers(file: &Path) -> Option<Vec<String>> {
    let o = Command::new("z3").arg(file).output().ok()?;
    Some(answers(&String::from_utf8_lossy(&o.stdout)))
}

/// `(assert (= NAME VALUE))` for each `(define-fun NAME () SORT VALUE)` line of a model.
fn model_assertions(out: &str) -> String {
    let mut asserts = String::new();
    for line in out.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("(define-fun ") else {
            continue;
        };
        let Some((name, rest)) = rest.split_once(" () ") else {
            continue;
        };
        // The sort: a symbol or one parenthesised expression.
        let sort_end = if rest.starts_with('(') {
            let mut depth = 0;
            rest.char_indices()
                .find(|&(_, c)| {
                    depth += (c == '(') as i32 - (c == ')') as i32;
                    depth == 0
                })
                .map_or(rest.len(), |(i, _)| i + 1)
        } else {
            rest.find(' ').unwrap_or(rest.len())
        };
        let value = rest[sort_end..].trim().strip_suffix(')').unwrap_or("");
        if rest.starts_with("(Array") {
            // A store chain over a constant array: its bytes, one `select` each.
            let lits: Vec<&str> = value
                .split(|c: char| c.is_whitespace() || c == ')')
                .filter(|t| t.starts_with("#x"))
                .collect();
            for pair in lits[1..].chunks(2) {
                if let [i, v] = pair {
                    asserts.push_str(&format!("(assert (= (select {name} {i}) {v}))\n"));
                }
            }
            continue;
        }
        asserts.push_str(&format!("(assert (= {name} {value}))\n"));
    }
    asserts
}

/// The QF_FP, QF_BVFP and QF_ABVFP scripts of `tests/smt_fp`: sear's answers are the
/// expected ones (`; expect:` on the first line) and Z3's; every model printed for the last
/// check, asserted back into the script, keeps it satisfiable for sear and for Z3.
#[test]
fn floating_point_scripts_agree_with_z3_and_their_models_hold() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smt_fp");
    let tmp = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "smt2"))
        .collect();
    files.sort();
    assert!(files.len() >= 8);
    let mut with_z3 = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let expected: Vec<String> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("; expect:"))
            .expect("an expectation on the first line")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let o = solve(&[file.to_str().unwrap()]);
        let out = stdout(&o);
        assert!(
            o.status.success(),
            "{file:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(answers(&out), expected, "{file:?}: {out}");
        if let Some(z3) = z3_answers(file) {
            assert_eq!(z3, expected, "{file:?}: z3");
            with_z3 += 1;
        }
        // The last check's model, asserted before that check.
        if expected.last().map(String::as_str) != Some("sat") || !out.contains("(model") {
            continue;
        }
        let model = &out[out.rfind("(model").unwrap()..];
        let asserts = model_assertions(model);
        assert!(!asserts.is_empty(), "{file:?}: {model}");
        let at = text.rfind("(check-sat)").unwrap();
        let checked = format!("{}{asserts}{}", &text[..at], &text[at..]);
        let again = write(tmp.path(), "model.smt2", &checked);
        let o = solve(&[again.to_str().unwrap()]);
        assert_eq!(
            answers(&stdout(&o)).last().map(String::as_str),
            Some("sat"),
            "{file:?}: the model does not hold: {asserts}"
        );
        if let Some(z3) = z3_answers(&again) {
            assert_eq!(
                z3.last().map(String::as_str),
                Some("sat"),
                "{file:?}: z3: {asserts}"
            );
        }
    }
    eprintln!("{} scripts, {with_z3} compared with z3", files.len());
}

/// Values print in their sorts; formats other than binary32/64 and unsupported conversions
/// are errors naming what, never panics.
#[test]
fn floating_point_values_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "v.smt2",
        "(declare-fun x () (_ FloatingPoint 8 24))
(declare-fun r () RoundingMode)
(assert (fp.eq x (fp #b1 #b10000000 #b10000000000000000000000)))
(assert (= r RTN))
(check-sat)
(get-value (x r (fp.isNegative x) ((_ fp.to_sbv 8) RNE x)))
(get-model)
",
    );
    let out = stdout(&solve(&[file.to_str().unwrap()]));
    assert!(
        out.contains("(x (fp #b1 #b10000000 #b10000000000000000000000))"),
        "{out}"
    );
    assert!(out.contains("(r RTN)"), "{out}");
    assert!(out.contains("((fp.isNegative x) true)"), "{out}");
    assert!(out.contains("(((_ fp.to_sbv 8) RNE x) #xfd)"), "{out}");
    assert!(
        out.contains("(define-fun x () (_ FloatingPoint 8 24) (fp #b1 #b10000000 #b10000000000000000000000))"),
        "{out}"
    );
    assert!(out.contains("(define-fun r () RoundingMode RTN)"), "{out}");
    for (script, message) in [
        ("(declare-fun h () Float16)", "(_ FloatingPoint 5 11)"),
        (
            "(declare-fun h () (_ FloatingPoint 15 113))",
            "(_ FloatingPoint 15 113)",
        ),
        (
            "(assert (fp.isZero (_ +zero 5 11)))",
            "(_ FloatingPoint 5 11)",
        ),
        (
            "(declare-fun b () (_ BitVec 16))(assert (fp.isZero ((_ to_fp 8 24) b)))",
            "does not encode",
        ),
        (
            "(declare-fun x () Float32)(assert (= ((_ fp.to_sbv 100) RNE x) ((_ fp.to_sbv 100) RNE x)))",
            "only 1 to 64 bits",
        ),
        (
            "(declare-fun x () Float32)(assert (fp.isZero (fp.add x x)))",
            "expects 3 arguments",
        ),
        (
            "(declare-fun x () Float32)(declare-fun y () Float64)(assert (fp.lt x y))",
            "different floating-point sorts",
        ),
    ] {
        let f = write(dir.path(), "e.smt2", &format!("{script}\n(check-sat)\n"));
        let o = solve(&[f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{script}");
        assert!(err.contains(message), "{script}: {err}");
        assert!(!err.contains("panicked"), "{script}: {err}");
    }
}
