"""The sear benchmark harness: runs sear on the benchmark programs under named configurations
and reports ratios against a baseline configuration (see docs/benchmarks.md)."""
