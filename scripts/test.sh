#!/usr/bin/env bash
# Sets up what is missing, then runs sear's checks and tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# No step reads standard input (cargo's rustc probes read it when it is a file or terminal).
exec </dev/null
./scripts/setup.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
