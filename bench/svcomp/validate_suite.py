#!/usr/bin/env python3
"""Checks a Test-Comp test suite (a directory with metadata.xml and one XML file per test)
against the format's DTDs (test-format 1.1, bench/svcomp/dtd/) with lxml, as Test-Comp's
validators parse it: each file must be well-formed, declare the format's document type, and
be valid under its DTD; metadata.xml's programhash must be the SHA-256 of the program.

    validate_suite.py SUITE_DIR [--program FILE]   exit 0 when valid, 1 with the problems
    validate_suite.py --inputs TEST.xml            print the test's input values, one a line

lxml comes from PyPI into the project's .venv (scripts/setup.sh)."""
import argparse
import hashlib
import os
import sys

from lxml import etree

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLIC_IDS = {
    "test-metadata": "+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN",
    "testcase": "+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN",
}
DTDS = {
    "test-metadata": os.path.join(HERE, "dtd", "test-metadata-1.1.dtd"),
    "testcase": os.path.join(HERE, "dtd", "testcase-1.1.dtd"),
}


def parse(path):
    # No network and no external entities: the DTD named in the file is not fetched.
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
    return etree.parse(path, parser)


def check_file(path, root_name):
    """Problems with one file whose root must be `root_name`."""
    try:
        tree = parse(path)
    except etree.XMLSyntaxError as e:
        return [f"{path}: not well-formed XML: {e}"]
    problems = []
    info = tree.docinfo
    if tree.getroot().tag != root_name:
        problems.append(f"{path}: root element <{tree.getroot().tag}>, expected <{root_name}>")
    if info.root_name != root_name or info.public_id != PUBLIC_IDS[root_name]:
        problems.append(f"{path}: document type {info.doctype!r}, expected {root_name} "
                        f"with public id {PUBLIC_IDS[root_name]!r}")
    with open(DTDS[root_name], "rb") as f:
        dtd = etree.DTD(f)
    if not dtd.validate(tree):
        for e in dtd.error_log.filter_from_errors():
            problems.append(f"{path}:{e.line}: {e.message}")
    return problems


def check_suite(suite, program=None):
    problems = []
    metadata = os.path.join(suite, "metadata.xml")
    if not os.path.isfile(metadata):
        return [f"{suite}: no metadata.xml"]
    problems += check_file(metadata, "test-metadata")
    if program and not problems:
        with open(program, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        found = parse(metadata).findtext("programhash")
        if found != digest:
            problems.append(f"{metadata}: programhash {found}, the program's is {digest}")
    tests = sorted(n for n in os.listdir(suite) if n.endswith(".xml") and n != "metadata.xml")
    if not tests:
        problems.append(f"{suite}: no test cases")
    for name in tests:
        problems += check_file(os.path.join(suite, name), "testcase")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", nargs="?", help="the test-suite directory")
    ap.add_argument("--program", help="the program, to check programhash")
    ap.add_argument("--inputs", metavar="TEST_XML", help="print a test's inputs and exit")
    args = ap.parse_args()
    if args.inputs:
        for element in parse(args.inputs).getroot().iter("input"):
            print(element.text or "")
        return 0
    if not args.suite:
        ap.error("SUITE_DIR is required")
    problems = check_suite(args.suite, args.program)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    count = len([n for n in os.listdir(args.suite) if n.endswith(".xml")]) - 1
    print(f"{args.suite}: valid (metadata.xml and {count} test cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
