//! Tests of the `ktest-tool`-style dump.

use sear_ktest::{dump, dump_named, KTest, KTestObject};

#[test]
fn dump_matches_ktest_tool_layout() {
    let test = KTest {
        args: vec!["get_sign.bc".into()],
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: vec![
            KTestObject {
                name: "a".into(),
                bytes: vec![0x00, 0x00, 0x00, 0x80],
            },
            KTestObject {
                name: "buf".into(),
                bytes: b"hi\x00".to_vec(),
            },
        ],
    };
    let expected = "\
ktest file : 'klee-last/test000001.ktest'
args       : ['get_sign.bc']
num objects: 2
object 0: name: 'a'
object 0: size: 4
object 0: data: b'\\x00\\x00\\x00\\x80'
object 0: hex : 0x00000080
object 0: int : -2147483648
object 0: uint: 2147483648
object 0: text: ....
object 1: name: 'buf'
object 1: size: 3
object 1: data: b'hi\\x00'
object 1: hex : 0x686900
object 1: text: hi.
";
    assert_eq!(dump_named("klee-last/test000001.ktest", &test), expected);
    assert_eq!(
        dump(&test),
        expected.split_once('\n').unwrap().1,
        "dump() is dump_named() without the file line"
    );
}

#[test]
fn dump_shows_sym_argv_info_when_present() {
    let test = KTest {
        args: vec![],
        sym_argvs: 2,
        sym_argv_len: 5,
        objects: vec![],
    };
    assert_eq!(
        dump(&test),
        "args       : []\nsym argvs  : 2\nsym argvlen: 5\nnum objects: 0\n"
    );
}

/// `sear ktest --floats`: 4-byte objects read as `float`, 8-byte ones as `double` (signed
/// zeros, infinities and NaN bits shown); other sizes get no float line.
#[test]
fn dump_with_floats_shows_float_and_double_values() {
    let obj = |name: &str, bytes: Vec<u8>| KTestObject {
        name: name.into(),
        bytes,
    };
    let test = KTest {
        args: vec![],
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: vec![
            obj("f", 1.5f32.to_le_bytes().to_vec()),
            obj("d", (-0.1f64).to_le_bytes().to_vec()),
            obj("z", (-0.0f32).to_le_bytes().to_vec()),
            obj("n", 0x7FF4_0000_0000_0001u64.to_le_bytes().to_vec()),
            obj("i", f64::NEG_INFINITY.to_le_bytes().to_vec()),
            obj("s", vec![1, 2]),
        ],
    };
    let out = sear_ktest::dump_named_with("t.ktest", &test, true);
    for line in [
        "object 0: float: 1.5\n",
        "object 1: double: -0.1\n",
        "object 2: float: -0.0\n",
        "object 3: double: NaN (0x7ff4000000000001)\n",
        "object 4: double: -inf\n",
    ] {
        assert!(out.contains(line), "{line:?} missing from:\n{out}");
    }
    assert!(!out.contains("object 5: float") && !out.contains("object 5: double"));
    assert!(!dump_named("t.ktest", &test).contains("float:"));
}
