#!/usr/bin/env bash
# Solver-chain benchmark: the full chain (independence, query cache, cex cache, Z3) against raw
# Z3 on generated path-condition-like query sequences. Prints a markdown table on stdout.
# Usage: bench/solver-chain.sh [PATHS] [DEPTH] [SEED]   (defaults: 100 12 1)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p sear-solver --example chain_bench
target="${CARGO_TARGET_DIR:-target}"
exec "$target/release/examples/chain_bench" "${1:-100}" "${2:-12}" "${3:-1}"
