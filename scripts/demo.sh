#!/usr/bin/env bash
# Sets up what is missing, builds sear, runs it on a bundled buggy program, shows the test
# that triggers the bug, and replays it natively with AddressSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cargo build --release --quiet
out=$(mktemp -d)/sear-out
./target/release/sear run --output-dir "$out" --no-progress examples/buggy.c
echo
echo "== the error report =="
cat "$out"/*.err
echo "== the test that triggers it =="
./target/release/sear ktest "$(ls "$out"/*.err | head -n1 | sed 's/\.[a-z_]*\.err$/.ktest/')"
echo "== native replay =="
./target/release/sear replay "$out"
