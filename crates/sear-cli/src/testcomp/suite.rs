//! Test-Comp's exchange format for test suites (test-format 1.1): a directory with
//! `metadata.xml` (which program, which property, who made it) and one XML file per test,
//! whose `<input>` elements are the values of the `__VERIFIER_nondet_*` calls in call order.
//! A test that reaches `reach_error` is marked `coversError="true"`.
//!
//! The suite is made from the output directory after the run: every `testNNNNNN.ktest`
//! becomes `test-suite/testNNNNNN.xml`; a `testNNNNNN.reach.err` beside it marks the error.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use sha2::{Digest, Sha256};

use super::inputs::{input, NONDET_PREFIX};
use super::TestCompProperty;

/// The suite's directory inside the output directory.
pub const SUITE_DIR: &str = "test-suite";

/// The document types of the format's two files (its DTDs, version 1.1).
const METADATA_DOCTYPE: &str = "test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\"";
const TESTCASE_DOCTYPE: &str = "testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\"";

/// What writing the suite found.
#[derive(Debug, Default)]
pub struct Written {
    /// Test files written.
    pub tests: usize,
    /// Tests marked `coversError`.
    pub error_tests: usize,
    /// Tests that also had symbolic objects other than nondet inputs.
    pub other_objects: usize,
}

/// Writes `OUT/test-suite/` from the tests in `output_dir` (of a program with
/// `pointer_bits`-bit pointers: Test-Comp's `32bit` or `64bit` architecture).
pub fn write_suite(
    output_dir: &Path,
    program: &Path,
    entry: &str,
    property: &TestCompProperty,
    pointer_bits: u32,
) -> Result<Written> {
    let dir = output_dir.join(SUITE_DIR);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    write_metadata(&dir, program, entry, property, pointer_bits)?;
    let mut written = Written::default();
    for ktest_path in ktests(output_dir)? {
        let stem = ktest_path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("listed by name")
            .to_string();
        let ktest = sear_ktest::KTest::read(&ktest_path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", ktest_path.display()))?;
        let covers_error = output_dir.join(format!("{stem}.reach.err")).exists();
        let inputs: Vec<_> = ktest
            .objects
            .iter()
            .filter_map(|o| input(&o.name, &o.bytes))
            .collect();
        if ktest
            .objects
            .iter()
            .any(|o| !o.name.starts_with(NONDET_PREFIX))
        {
            written.other_objects += 1;
        }
        let mut w = document(TESTCASE_DOCTYPE);
        let mut start = BytesStart::new("testcase");
        if covers_error {
            start.push_attribute(("coversError", "true"));
            written.error_tests += 1;
        }
        w.write_event(Event::Start(start))?;
        for i in &inputs {
            let mut element = BytesStart::new("input");
            if !i.ty.is_empty() {
                element.push_attribute(("type", i.ty));
            }
            w.write_event(Event::Start(element))?;
            w.write_event(Event::Text(BytesText::new(&i.value)))?;
            w.write_event(Event::End(BytesEnd::new("input")))?;
        }
        w.write_event(Event::End(BytesEnd::new("testcase")))?;
        save(&dir.join(format!("{stem}.xml")), w)?;
        written.tests += 1;
    }
    Ok(written)
}

/// `metadata.xml`.
fn write_metadata(
    dir: &Path,
    program: &Path,
    entry: &str,
    property: &TestCompProperty,
    pointer_bits: u32,
) -> Result<()> {
    let source =
        std::fs::read(program).with_context(|| format!("reading {}", program.display()))?;
    let hash = Sha256::digest(&source)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    let created = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let producer = format!("sear {}", env!("CARGO_PKG_VERSION"));
    let program_file = program.display().to_string();
    let architecture = format!("{pointer_bits}bit");
    // The order is the DTD's: a sequence.
    let fields: [(&str, &str); 8] = [
        ("sourcecodelang", "C"),
        ("producer", &producer),
        ("specification", &property.specification),
        ("programfile", &program_file),
        ("programhash", &hash),
        ("entryfunction", entry),
        // x86_64 Linux (LP64), or i386 for a -m32 program (ILP32).
        ("architecture", &architecture),
        ("creationtime", &created),
    ];
    let mut w = document(METADATA_DOCTYPE);
    w.write_event(Event::Start(BytesStart::new("test-metadata")))?;
    for (name, value) in fields {
        w.write_event(Event::Start(BytesStart::new(name)))?;
        w.write_event(Event::Text(BytesText::new(value)))?;
        w.write_event(Event::End(BytesEnd::new(name)))?;
    }
    w.write_event(Event::End(BytesEnd::new("test-metadata")))?;
    save(&dir.join("metadata.xml"), w)
}

/// A document with the XML declaration and a document type, indented by two spaces.
fn document(doctype: &str) -> Writer<Vec<u8>> {
    let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
    w.write_event(Event::Decl(BytesDecl::new(
        "1.0",
        Some("UTF-8"),
        Some("no"),
    )))
    .expect("writing to memory");
    w.write_event(Event::DocType(BytesText::from_escaped(doctype)))
        .expect("writing to memory");
    w
}

fn save(path: &Path, w: Writer<Vec<u8>>) -> Result<()> {
    let mut bytes = w.into_inner();
    bytes.write_all(b"\n").expect("writing to memory");
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// The `.ktest` files of an output directory, in test order.
fn ktests(output_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(output_dir)
        .with_context(|| format!("reading {}", output_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
        .collect();
    files.sort();
    Ok(files)
}
