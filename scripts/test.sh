#!/usr/bin/env bash
# Sets up what is missing, then runs sear's checks and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# No step reads standard input: a CI run failed when cargo's `rustc -` target probe read text from it.
exec </dev/null
./scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
