//! The three outputs of `sear stats`: an aligned table (klee-stats' default look: dashed
//! rules, `|` between cells, numbers right-aligned, two decimals, a total row for several
//! directories), CSV and JSON.

use std::path::{Component, Path, PathBuf};

use super::{Cell, Column, RunStats, Total, COLUMNS};

/// The name of each directory in the `Path` column: as given for one directory; for several,
/// without the leading components they all share (as klee-stats does), keeping at least the
/// last one.
pub fn display_paths(dirs: &[PathBuf]) -> Vec<String> {
    let parts: Vec<Vec<String>> = dirs
        .iter()
        .map(|d| {
            normal_components(d)
                .iter()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect()
        })
        .collect();
    if dirs.len() < 2 {
        return dirs.iter().map(|d| d.display().to_string()).collect();
    }
    let shortest = parts.iter().map(Vec::len).min().unwrap_or(0);
    let mut common = 0;
    while common + 1 < shortest && parts.iter().all(|p| p[common] == parts[0][common]) {
        common += 1;
    }
    parts.iter().map(|p| p[common..].join("/")).collect()
}

/// The components of `path` without `.` (so `./a` and `a` share their prefix).
fn normal_components(path: &Path) -> Vec<Component<'_>> {
    path.components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

/// The total row's cell of `column` over `cells`, the rows' cells of that column.
fn total_cell(column: &Column, cells: &[Cell]) -> Cell {
    let ints: Vec<u64> = cells
        .iter()
        .filter_map(|c| match c {
            Cell::Int(n) => Some(*n),
            _ => None,
        })
        .collect();
    let floats: Vec<f64> = cells
        .iter()
        .filter_map(|c| match c {
            Cell::Int(n) => Some(*n as f64),
            Cell::Float(x) => Some(*x),
            _ => None,
        })
        .collect();
    if floats.is_empty() {
        return Cell::Missing;
    }
    let all_ints = ints.len() == floats.len();
    match column.total {
        Total::None => Cell::Missing,
        Total::Sum if all_ints => Cell::Int(ints.iter().sum()),
        Total::Sum => Cell::Float(floats.iter().sum()),
        Total::Max if all_ints => Cell::Int(ints.iter().copied().max().unwrap_or(0)),
        Total::Max => Cell::Float(floats.iter().copied().fold(f64::MIN, f64::max)),
        Total::Mean => Cell::Float(floats.iter().sum::<f64>() / floats.len() as f64),
    }
}

/// The rows as cells (`Path` first, then [`COLUMNS`]), and the total row when there are
/// several.
fn rows(paths: &[String], runs: &[RunStats]) -> (Vec<Vec<Cell>>, Option<Vec<Cell>>) {
    let rows: Vec<Vec<Cell>> = paths
        .iter()
        .zip(runs)
        .map(|(path, run)| {
            std::iter::once(Cell::Text(path.clone()))
                .chain(COLUMNS.iter().map(|c| (c.cell)(run)))
                .collect()
        })
        .collect();
    if rows.len() < 2 {
        return (rows, None);
    }
    let mut total = vec![Cell::Text(format!("Total ({})", rows.len()))];
    for (i, column) in COLUMNS.iter().enumerate() {
        let cells: Vec<Cell> = rows.iter().map(|r| r[i + 1].clone()).collect();
        total.push(total_cell(column, &cells));
    }
    (rows, Some(total))
}

/// The headers, `Path` first.
fn headers() -> Vec<&'static str> {
    std::iter::once("Path")
        .chain(COLUMNS.iter().map(|c| c.name))
        .collect()
}

/// The aligned table; columns no row has a figure for are left out.
pub fn table(paths: &[String], runs: &[RunStats]) -> String {
    let (rows, total) = rows(paths, runs);
    let all: Vec<&Vec<Cell>> = rows.iter().chain(total.as_ref()).collect();
    let headers = headers();
    let shown: Vec<usize> = (0..headers.len())
        .filter(|&i| all.iter().any(|r| r[i] != Cell::Missing))
        .collect();
    let text = |cell: &Cell| match cell {
        Cell::Text(s) => s.clone(),
        Cell::Int(n) => n.to_string(),
        Cell::Float(x) => format!("{x:.2}"),
        Cell::Missing => String::new(),
    };
    let widths: Vec<usize> = shown
        .iter()
        .map(|&i| {
            all.iter()
                .map(|r| text(&r[i]).chars().count())
                .chain(std::iter::once(headers[i].len()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let numeric = |i: usize| all.iter().all(|r| !matches!(r[i], Cell::Text(_)));
    let line = |cells: Vec<(String, bool)>| {
        let mut out = String::from("|");
        for ((s, right), width) in cells.into_iter().zip(&widths) {
            if right {
                out.push_str(&format!(" {s:>width$} |"));
            } else {
                out.push_str(&format!(" {s:^width$} |"));
            }
        }
        out.push('\n');
        out
    };
    let rule = format!(
        "{}\n",
        "-".repeat(1 + widths.iter().map(|w| w + 3).sum::<usize>())
    );
    let mut out = rule.clone();
    out.push_str(&line(
        shown
            .iter()
            .map(|&i| (headers[i].to_string(), numeric(i)))
            .collect(),
    ));
    out.push_str(&rule);
    for row in &rows {
        out.push_str(&line(
            shown.iter().map(|&i| (text(&row[i]), numeric(i))).collect(),
        ));
    }
    if let Some(total) = &total {
        out.push_str(&rule);
        out.push_str(&line(
            shown
                .iter()
                .map(|&i| (text(&total[i]), numeric(i)))
                .collect(),
        ));
    }
    out.push_str(&rule);
    out
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// CSV: every column, one line per directory (no total, as klee-stats' CSV), three
/// decimals.
pub fn csv(paths: &[String], runs: &[RunStats]) -> String {
    let (rows, _) = rows(paths, runs);
    let mut out = headers().join(",");
    out.push('\n');
    for row in rows {
        let fields: Vec<String> = row
            .iter()
            .map(|cell| match cell {
                Cell::Text(s) => csv_field(s),
                Cell::Int(n) => n.to_string(),
                Cell::Float(x) => format!("{x:.3}"),
                Cell::Missing => String::new(),
            })
            .collect();
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// JSON: `{"rows": [...], "total": ...}`, each row an object keyed by column name (missing
/// figures are null); `total` is null for one directory.
pub fn json(paths: &[String], runs: &[RunStats]) -> String {
    let (rows, total) = rows(paths, runs);
    let headers = headers();
    let object = |row: &Vec<Cell>| {
        let map: serde_json::Map<String, serde_json::Value> = headers
            .iter()
            .zip(row)
            .map(|(name, cell)| {
                let value = match cell {
                    Cell::Text(s) => serde_json::Value::from(s.clone()),
                    Cell::Int(n) => serde_json::Value::from(*n),
                    Cell::Float(x) => serde_json::Value::from(*x),
                    Cell::Missing => serde_json::Value::Null,
                };
                (name.to_string(), value)
            })
            .collect();
        serde_json::Value::Object(map)
    };
    let value = serde_json::json!({
        "rows": rows.iter().map(object).collect::<Vec<_>>(),
        "total": total.as_ref().map(object),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_leading_components_are_dropped_for_several_dirs() {
        let dirs = [PathBuf::from("./runs/a/out"), PathBuf::from("runs/b/out")];
        assert_eq!(display_paths(&dirs), ["a/out", "b/out"]);
        let same = [PathBuf::from("x/out"), PathBuf::from("x/out")];
        assert_eq!(display_paths(&same), ["out", "out"]);
        let one = [PathBuf::from("./runs/a")];
        assert_eq!(display_paths(&one), ["./runs/a"]);
    }

    #[test]
    fn totals_sum_counts_average_percentages_and_take_the_largest_peak() {
        let col = |name| COLUMNS.iter().find(|c| c.name == name).unwrap();
        let cells = [Cell::Int(3), Cell::Missing, Cell::Int(4)];
        assert_eq!(total_cell(col("Instrs"), &cells), Cell::Int(7));
        assert_eq!(total_cell(col("MaxActiveStates"), &cells), Cell::Int(4));
        let pct = [Cell::Float(50.0), Cell::Float(100.0)];
        assert_eq!(total_cell(col("ICov(%)"), &pct), Cell::Float(75.0));
        assert_eq!(total_cell(col("Instrs"), &[Cell::Missing]), Cell::Missing);
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\", y"), "\"say \"\"x\"\", y\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
