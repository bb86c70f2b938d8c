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
