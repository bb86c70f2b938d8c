"""Loads bench/programs.toml (the program suite) and bench/configs.toml (the configurations).

Both files are data: a new program or a new technique's configuration is a new table in them,
with no code change here."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    sys.exit("bench: Python 3.11 or newer is needed (tomllib); run scripts/bench-setup.sh")

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ManifestError(Exception):
    """A malformed programs.toml or configs.toml."""


@dataclass
class Program:
    """One benchmark program and its knobs."""

    name: str
    source: str | None          # C file, absolute path
    lexer: str | None           # flex grammar, absolute path (a generated scanner)
    flex_args: list[str]
    size: int                   # default SIZE
    smoke_size: int | None      # SIZE in the smoke subset (None: not in it)
    suites: list[str]
    defines: list[str]          # extra -D macros
    args: list[str]             # extra sear run arguments
    budget: float               # --max-time (s)
    query_timeout: float        # --max-solver-time (s)
    expect_paths: int | None    # expected paths when exhausted at the default knobs
    description: str = ""


@dataclass
class Config:
    """A named configuration: extra `sear run` arguments (or, with engine `klee`, extra
    arguments of KLEE, for side-by-side rows)."""

    name: str
    args: list[str]
    search: list[str] = field(default_factory=lambda: ["dfs"])
    description: str = ""
    engine: str = "sear"
    # The environment variable naming another sear binary for this configuration (for
    # before/after rows of one engine change measured in one run); empty: the run's binary.
    binary_env: str = ""


@dataclass
class Suite:
    """All programs, configurations, named configuration sets and the baseline."""

    programs: dict[str, Program]
    configs: dict[str, Config]
    sets: dict[str, list[str]]
    baseline: str
    seed: int
    set_baselines: dict[str, str] = field(default_factory=dict)
    smoke_budget: float = 5.0
    smoke_query_timeout: float = 1.0


def _load(path: str) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ManifestError(f"{path}: {e}") from e


def _str_list(value, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f"{where}: expected a list of strings")
    return list(value)


def load(programs_path: str | None = None, configs_path: str | None = None) -> Suite:
    """Reads and checks the two manifests."""
    programs_path = programs_path or os.path.join(BENCH_DIR, "programs.toml")
    configs_path = configs_path or os.path.join(BENCH_DIR, "configs.toml")
    p = _load(programs_path)
    c = _load(configs_path)
    defaults = p.get("defaults", {})
    programs: dict[str, Program] = {}
    for name, t in p.get("programs", {}).items():
        where = f"{programs_path}: programs.{name}"
        if ("source" in t) == ("lexer" in t):
            raise ManifestError(f"{where}: give exactly one of `source` and `lexer`")
        rel = t.get("source") or t.get("lexer")
        path = os.path.join(BENCH_DIR, rel)
        if not os.path.isfile(path):
            raise ManifestError(f"{where}: no such file {rel}")
        size = t.get("size", 1)
        if not isinstance(size, int) or size < 1:
            raise ManifestError(f"{where}: size must be a positive integer")
        programs[name] = Program(
            name=name,
            source=path if "source" in t else None,
            lexer=path if "lexer" in t else None,
            flex_args=_str_list(t.get("flex_args"), where + ".flex_args"),
            size=size,
            smoke_size=t.get("smoke_size"),
            suites=_str_list(t.get("suites"), where + ".suites"),
            defines=_str_list(t.get("defines"), where + ".defines"),
            args=_str_list(t.get("args"), where + ".args"),
            budget=float(t.get("budget", defaults.get("budget", 60))),
            query_timeout=float(t.get("query_timeout", defaults.get("query_timeout", 10))),
            expect_paths=t.get("expect_paths"),
            description=t.get("description", ""),
        )
    configs: dict[str, Config] = {}
    for name, t in c.get("configs", {}).items():
        where = f"{configs_path}: configs.{name}"
        search = t.get("search", "dfs")
        configs[name] = Config(
            name=name,
            args=_str_list(t.get("args"), where + ".args"),
            search=[search] if isinstance(search, str) else _str_list(search, where + ".search"),
            description=t.get("description", ""),
            engine=t.get("engine", "sear"),
            binary_env=t.get("binary_env", ""),
        )
        if configs[name].engine not in ("sear", "klee"):
            raise ManifestError(f"{where}: engine must be `sear` or `klee`")
    baseline = c.get("baseline", "default")
    if baseline not in configs:
        raise ManifestError(f"{configs_path}: baseline `{baseline}` is not a configuration")
    sets = {k: _str_list(v, f"{configs_path}: sets.{k}") for k, v in c.get("sets", {}).items()}
    for k, names in sets.items():
        for n in names:
            if n not in configs:
                raise ManifestError(f"{configs_path}: sets.{k} names unknown configuration `{n}`")
    set_baselines = dict(c.get("set_baselines", {}))
    for k, v in set_baselines.items():
        if k not in sets or v not in configs:
            raise ManifestError(f"{configs_path}: set_baselines.{k} = `{v}` names an unknown set or configuration")
    return Suite(programs, configs, sets, baseline, int(defaults.get("seed", 1)), set_baselines,
                 float(defaults.get("smoke_budget", 5)), float(defaults.get("smoke_query_timeout", 1)))
