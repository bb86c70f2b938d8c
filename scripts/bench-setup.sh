#!/usr/bin/env bash
# Sets up what the benchmarks need on Debian 12, on top of scripts/setup.sh (clang, LLVM,
# Z3, flex): Python 3 with venv, and the project virtualenv .venv with the reference solvers
# of bench/solvers/compare (z3-solver, bitwuzla, cvc5 from PyPI), PyYAML and lxml for
# bench/svcomp/run, and TestCov (PyPI) with clang-tidy-19 for bench/competitions. Idempotent.
# A solver whose wheel does not install for this Python is reported and left out: the
# comparison then lists it as unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
need=()
command -v python3 >/dev/null || need+=(python3)
if command -v python3 >/dev/null && ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    need+=(python3-venv)
fi
if [ "${#need[@]}" -gt 0 ]; then
    echo "bench-setup: installing ${need[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
    { echo "bench-setup: bench/run needs Python 3.11 or newer (tomllib)" >&2; exit 1; }

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
for pkg in z3-solver bitwuzla cvc5; do
    if ! .venv/bin/python -m pip install -q --upgrade "$pkg"; then
        echo "bench-setup: WARNING: $pkg does not install for $(.venv/bin/python --version); it will be reported as unavailable" >&2
    fi
done
# bench/svcomp/run: PyYAML reads the tasks' .yml files, lxml checks Test-Comp suites.
.venv/bin/python -m pip install -q --upgrade pyyaml lxml
# bench/competitions/testcov_validate: TestCov executes Test-Comp suites and measures their
# coverage with gcc, gcov and lcov; it calls clang-tidy (Debian's clang-tidy-19).
.venv/bin/python -m pip install -q "testcov==3.7"
if ! command -v clang-tidy-19 >/dev/null; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-tidy-19 >/dev/null
fi
for s in z3 bitwuzla cvc5; do
    v=$(.venv/bin/python bench/solvers/solve_one.py --probe "$s" 2>/dev/null) && echo "bench-setup: $s $v" >&2 ||
        echo "bench-setup: $s unavailable" >&2
done
