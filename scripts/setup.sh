#!/usr/bin/env bash
# Installs what sear needs on Debian 12 (bookworm): clang/LLVM 19, Z3 (library, and the binary
# that `sear solve`'s tests compare answers with), flex, lcov (genhtml, for
# `sear coverage --html`), and what the
# Bitwuzla core needs to build Bitwuzla (meson, ninja, a C++ compiler, GMP, CaDiCaL, SymFPU),
# then builds Bitwuzla once per machine (scripts/build-bitwuzla.sh); the 32-bit glibc headers and
# libraries (libc6-dev-i386, gcc-multilib) build the i386 runtime and replay -m32 programs;
# libc++-19-dev's headers compile C++ programs (and its libraries replay them natively), and
# scripts/build-libcxx.sh builds the C++ standard library as bitcode once per machine.
# Idempotent: packages already present are not reinstalled. Needs root or sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 llvm-19-dev llvm-19-tools libz3-dev z3 flex python3 python3-venv lcov
    g++ meson ninja-build pkg-config libgmp-dev libcadical-dev libsymfpu-dev
    libc6-dev-i386 gcc-multilib libc++-19-dev libc++abi-19-dev xz-utils)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
command -v clang-19 >/dev/null || { echo "setup: clang-19 not found after installation" >&2; exit 1; }
command -v cargo >/dev/null || { echo "setup: cargo not found (install the Rust toolchain)" >&2; exit 1; }
./scripts/build-bitwuzla.sh
# libc++/libc++abi as bitcode for C++ programs (docs/cxx.md), from Debian's sources.
./scripts/build-libcxx.sh

# The project's Python environment (.venv, shared with scripts/bench-setup.sh): lxml from
# PyPI checks Test-Comp test suites against the format's DTDs (bench/svcomp/validate_suite.py,
# used by crates/sear-cli/tests/testcomp.rs).
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -c 'import lxml' 2>/dev/null || .venv/bin/python -m pip install -q lxml
# BenchExec runs sear as the competitions do (bench/competitions: the tool-info modules,
# checked by crates/sear-cli/tests/competitions.rs with a BenchExec run of three tasks).
.venv/bin/python -c 'import benchexec' 2>/dev/null || .venv/bin/python -m pip install -q "benchexec==3.35"
# Ray places the workers of `sear run --cluster` on a cluster's nodes (docs/parallel.md;
# crates/sear-cli/tests/cluster.rs starts a local cluster with it).
# `ray[client]` adds what `--cluster ray://HOST:PORT` (Ray Client) needs beside the core.
.venv/bin/python -c 'import ray, grpc' 2>/dev/null || .venv/bin/python -m pip install -q "ray[client]==2.60.0"
