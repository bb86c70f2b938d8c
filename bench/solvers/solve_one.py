#!/usr/bin/env python3
"""Answers one SMT-LIB2 file with one solver through its Python API and prints one JSON line:
{"answer": "sat" | "unsat" | "unknown" | "error", "time": seconds (parse + check), "message"}.

Usage: solve_one.py z3|bitwuzla|cvc5 FILE    (or `solve_one.py --probe NAME` to print the
version, or fail when the solver's module is missing). Run by bench/solvers/compare in a
subprocess with a timeout, so a crash or a hang costs one query, not the comparison."""
import json
import sys
import time


def z3_solve(path):
    import z3
    s = z3.Solver()
    s.from_file(path)
    return str(s.check())


def bitwuzla_solve(path):
    import bitwuzla as bw
    tm = bw.TermManager()
    opts = bw.Options()
    opts.set(bw.Option.PRODUCE_MODELS, False)
    parser = bw.Parser(tm, opts, "smt2")
    parser.parse(path, True, True)  # parse only; check below
    r = parser.bitwuzla().check_sat()
    return {bw.Result.SAT: "sat", bw.Result.UNSAT: "unsat"}.get(r, "unknown")


def cvc5_solve(path):
    import cvc5
    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("produce-models", "false")
    s.setOption("arrays-exp", "true")  # sear's constant arrays are (as const ...) terms
    ip = cvc5.InputParser(s)
    ip.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, path)
    sm = ip.getSymbolManager()
    answer = "unknown"
    while True:
        cmd = ip.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(s, sm).strip()
        if out.startswith("(error"):
            raise RuntimeError(out)
        if out in ("sat", "unsat", "unknown"):
            answer = out
    return answer


def version(name):
    if name == "z3":
        import z3
        return z3.get_version_string()
    if name == "bitwuzla":
        import bitwuzla
        return getattr(bitwuzla, "__version__", None) or _dist_version("bitwuzla")
    if name == "cvc5":
        import cvc5
        return getattr(cvc5, "__version__", None) or _dist_version("cvc5")
    raise KeyError(name)


def _dist_version(dist):
    from importlib import metadata
    return metadata.version(dist)


SOLVERS = {"z3": z3_solve, "bitwuzla": bitwuzla_solve, "cvc5": cvc5_solve}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        try:
            print(version(sys.argv[2]))
        except Exception as e:  # missing module, or an API that changed
            print(f"{type(e).__name__}: {e}", file=sys.stderr)
            return 1
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in SOLVERS:
        print("usage: solve_one.py z3|bitwuzla|cvc5 FILE", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    try:
        answer, message = SOLVERS[sys.argv[1]](sys.argv[2]), ""
    except Exception as e:
        answer, message = "error", f"{type(e).__name__}: {e}"[:300]
    print(json.dumps({"answer": answer, "time": time.perf_counter() - t0, "message": message}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
