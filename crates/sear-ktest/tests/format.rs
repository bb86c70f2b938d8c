//! Byte-level tests of the `.ktest` reader and writer: a hand-built golden file, round trips,
//! legacy versions and corrupt inputs.

use proptest::prelude::*;
use sear_ktest::{KTest, KTestError, KTestObject};

fn be(n: u32) -> [u8; 4] {
    n.to_be_bytes()
}

/// A test with two args, sym-argv info and two objects, built field by field from the spec.
fn golden_bytes() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"KTEST");
    b.extend_from_slice(&be(3)); // version
    b.extend_from_slice(&be(2)); // numArgs
    b.extend_from_slice(&be(7));
    b.extend_from_slice(b"prog.bc");
    b.extend_from_slice(&be(9));
    b.extend_from_slice(b"--sym-arg");
    b.extend_from_slice(&be(1)); // symArgvs
    b.extend_from_slice(&be(10)); // symArgvLen
    b.extend_from_slice(&be(2)); // numObjects
    b.extend_from_slice(&be(1));
    b.extend_from_slice(b"x");
    b.extend_from_slice(&be(4));
    b.extend_from_slice(&[0x2a, 0, 0, 0]);
    b.extend_from_slice(&be(8));
    b.extend_from_slice(b"model_ve");
    b.extend_from_slice(&be(0));
    b
}

fn golden() -> KTest {
    KTest {
        args: vec!["prog.bc".into(), "--sym-arg".into()],
        sym_argvs: 1,
        sym_argv_len: 10,
        objects: vec![
            KTestObject {
                name: "x".into(),
                bytes: vec![0x2a, 0, 0, 0],
            },
            KTestObject {
                name: "model_ve".into(),
                bytes: vec![],
            },
        ],
    }
}

#[test]
fn golden_file_reads_and_writes_byte_exactly() {
    assert_eq!(KTest::from_bytes(&golden_bytes()).unwrap(), golden());
    assert_eq!(golden().to_bytes().unwrap(), golden_bytes());
}

#[test]
fn literal_header_bytes() {
    let empty = KTest::default().to_bytes().unwrap();
    assert_eq!(
        empty,
        b"KTEST\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    );
}

#[test]
fn file_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test000001.ktest");
    golden().write(&path).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), golden_bytes());
    assert_eq!(KTest::read(&path).unwrap(), golden());
    assert!(matches!(
        KTest::read(dir.path().join("missing.ktest")),
        Err(KTestError::Io { .. })
    ));
}

#[test]
fn legacy_magic_and_version_1_are_accepted() {
    let mut b = Vec::new();
    b.extend_from_slice(b"BOUT\n");
    b.extend_from_slice(&be(1));
    b.extend_from_slice(&be(0)); // no args
                                 // version 1: no symArgvs / symArgvLen
    b.extend_from_slice(&be(1));
    b.extend_from_slice(&be(1));
    b.extend_from_slice(b"a");
    b.extend_from_slice(&be(1));
    b.push(7);
    let test = KTest::from_bytes(&b).unwrap();
    assert_eq!(test.sym_argvs, 0);
    assert_eq!(test.objects[0].bytes, vec![7]);
    assert_eq!(test.object("a").unwrap().bytes, vec![7]);
    assert!(test.object("b").is_none());
}

#[test]
fn newer_version_and_bad_magic_are_rejected() {
    let mut b = golden_bytes();
    b[5..9].copy_from_slice(&be(4));
    assert!(matches!(
        KTest::from_bytes(&b),
        Err(KTestError::UnsupportedVersion(4))
    ));
    let mut b = golden_bytes();
    b[0] = b'X';
    assert!(matches!(KTest::from_bytes(&b), Err(KTestError::BadMagic)));
}

#[test]
fn every_truncation_is_an_error() {
    let full = golden_bytes();
    for len in 0..full.len() {
        let res = KTest::from_bytes(&full[..len]);
        assert!(
            matches!(res, Err(KTestError::Truncated { .. })) || (len < 5 && res.is_err()),
            "prefix of length {len} gave {res:?}"
        );
    }
}

#[test]
fn trailing_bytes_are_an_error() {
    let mut b = golden_bytes();
    b.push(0);
    assert!(matches!(
        KTest::from_bytes(&b),
        Err(KTestError::TrailingBytes(1))
    ));
}

#[test]
fn huge_counts_and_lengths_fail_without_allocating() {
    // numArgs = u32::MAX with nothing behind it.
    let mut b = Vec::new();
    b.extend_from_slice(b"KTEST");
    b.extend_from_slice(&be(3));
    b.extend_from_slice(&be(u32::MAX));
    assert!(matches!(
        KTest::from_bytes(&b),
        Err(KTestError::Truncated { .. })
    ));
    // One object whose size claims 4 GiB.
    let mut b = Vec::new();
    b.extend_from_slice(b"KTEST");
    b.extend_from_slice(&be(3));
    b.extend_from_slice(&be(0));
    b.extend_from_slice(&be(0));
    b.extend_from_slice(&be(0));
    b.extend_from_slice(&be(u32::MAX));
    b.extend_from_slice(&be(1));
    b.extend_from_slice(b"a");
    b.extend_from_slice(&be(u32::MAX));
    match KTest::from_bytes(&b) {
        Err(KTestError::Truncated {
            needed, available, ..
        }) => {
            assert_eq!(needed, u64::from(u32::MAX));
            assert_eq!(available, 0);
        }
        other => panic!("expected truncation, got {other:?}"),
    }
}

#[test]
fn non_utf8_names_are_read_lossily() {
    let mut b = Vec::new();
    b.extend_from_slice(b"KTEST");
    b.extend_from_slice(&be(3));
    b.extend_from_slice(&be(1));
    b.extend_from_slice(&be(1));
    b.push(0xff);
    b.extend_from_slice(&be(0));
    b.extend_from_slice(&be(0));
    b.extend_from_slice(&be(0));
    let test = KTest::from_bytes(&b).unwrap();
    assert_eq!(test.args, vec!["\u{fffd}".to_string()]);
}

fn arb_ktest() -> impl Strategy<Value = KTest> {
    let object = ("[a-z_]{0,12}", prop::collection::vec(any::<u8>(), 0..40))
        .prop_map(|(name, bytes)| KTestObject { name, bytes });
    (
        prop::collection::vec("[ -~]{0,10}", 0..4),
        any::<u32>(),
        any::<u32>(),
        prop::collection::vec(object, 0..6),
    )
        .prop_map(|(args, sym_argvs, sym_argv_len, objects)| KTest {
            args,
            sym_argvs,
            sym_argv_len,
            objects,
        })
}

proptest! {
    #[test]
    fn round_trip(test in arb_ktest()) {
        let bytes = test.to_bytes().unwrap();
        prop_assert_eq!(KTest::from_bytes(&bytes).unwrap(), test);
    }

    #[test]
    fn corrupted_files_never_panic(test in arb_ktest(), pos in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = test.to_bytes().unwrap();
        let i = pos.index(bytes.len());
        bytes[i] = byte;
        // Either an error or a parse; a version-3 parse of ASCII data re-serialises exactly.
        if let Ok(parsed) = KTest::from_bytes(&bytes) {
            if bytes[5..9] == [0, 0, 0, 3] && byte < 0x80 {
                prop_assert_eq!(parsed.to_bytes().unwrap(), bytes);
            }
        }
    }

    #[test]
    fn random_bytes_never_panic(tail in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut bytes = b"KTEST\x00\x00\x00\x03".to_vec();
        bytes.extend_from_slice(&tail);
        let _ = KTest::from_bytes(&bytes);
    }
}
