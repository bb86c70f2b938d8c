//! What the `mode` runs of one program (the symbolic-size model, seed 003 Ch. 5) must agree
//! on, whatever the program expects.

use serde_json::Value;

use super::suite::Run;

/// `sm` and `smopt` end the same number of paths, with merged encodings (AST sizes) no
/// larger for `smopt` (spec §4.7); `fork-eager`, `fork-lazy`, `sm`, `smopt` and `pat` (with
/// or without `+inc`) cover the same instructions (every mode explores every size up to the
/// capacity); `MODE+inc` reports the same errors as MODE (incremental merging changes how
/// many paths there are, not what they find).
pub fn compare_modes(name: &str, runs: &[Run], problems: &mut Vec<String>) {
    let get = |mode: &str| runs.iter().find(|r| r.mode.as_deref() == Some(mode));
    let paths = |r: &Run| {
        r.number("completed_paths").unwrap_or(-1.0) + r.number("error_paths").unwrap_or(-1.0)
    };
    if let (Some(sm), Some(opt)) = (get("sm"), get("smopt")) {
        if paths(sm) != paths(opt) {
            problems.push(format!(
                "{name}: sm ended {} paths, smopt {}",
                paths(sm),
                paths(opt)
            ));
        }
        for key in ["merged_constraints_ast", "merged_values_ast"] {
            let path = format!("symbolic_size.{key}");
            match (sm.number(&path), opt.number(&path)) {
                (Some(a), Some(b)) if b > a => {
                    problems.push(format!("{name}: smopt's {key} {b} exceeds sm's {a}"))
                }
                (Some(_), Some(_)) => {}
                _ => problems.push(format!("{name}: no {path} in summary.json")),
            }
        }
    }
    let covering: Vec<&Run> = runs
        .iter()
        .filter(|r| {
            r.mode.as_deref().is_some_and(|m| {
                ["fork-eager", "fork-lazy", "sm", "smopt", "pat"]
                    .contains(&m.strip_suffix("+inc").unwrap_or(m))
            })
        })
        .collect();
    if let Some(first) = covering.first() {
        for r in &covering[1..] {
            if r.summary["covered_instructions"] != first.summary["covered_instructions"] {
                problems.push(format!(
                    "{name}: {} covered {} instructions, {} {}",
                    r.config,
                    r.summary["covered_instructions"],
                    first.config,
                    first.summary["covered_instructions"]
                ));
            }
        }
    }
    let error_set = |s: &Value| {
        let mut e: Vec<String> = s["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| format!("{}:{}", e["kind"], e["line"]))
            .collect();
        e.sort();
        e.dedup();
        e
    };
    for r in runs {
        let plain = r.mode.as_deref().and_then(|m| m.strip_suffix("+inc"));
        if let Some(plain) = plain.and_then(get) {
            if error_set(&r.summary) != error_set(&plain.summary) {
                problems.push(format!(
                    "{name}: {} reported {:?}, without incremental merging {:?}",
                    r.config,
                    error_set(&r.summary),
                    error_set(&plain.summary)
                ));
            }
        }
    }
}
