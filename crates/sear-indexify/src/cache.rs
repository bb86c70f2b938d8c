//! Table caching across runs (the paper's `--indexOpDefs`): the rows memoised in a run are
//! saved under a name derived from the constructed gardens, and a later run with the same
//! gardens starts with them.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::ops::Op;
use crate::oracle::Outcome;
use crate::tables::{Key, Tables};

#[derive(Serialize, Deserialize)]
struct Row {
    op: Op,
    key: Vec<Key>,
    outcome: Outcome,
}

#[derive(Serialize, Deserialize)]
struct CacheFile {
    version: u32,
    rows: Vec<Row>,
}

const VERSION: u32 = 1;

/// The cache file for `tables`' constructed gardens in `dir`.
pub fn file_for(dir: &Path, tables: &Tables) -> PathBuf {
    let mut h = rustc_hash::FxHasher::default();
    VERSION.hash(&mut h);
    for (ty, g) in tables.gardens() {
        ty.hash(&mut h);
        g.values()[..g.constructed].hash(&mut h);
    }
    dir.join(format!("tables-{:016x}.json", h.finish()))
}

/// Loads the rows of `file` into `tables` (nothing when it does not exist); returns the
/// rows added.
pub fn load(file: &Path, tables: &mut Tables) -> std::io::Result<u64> {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let Ok(cache) = serde_json::from_str::<CacheFile>(&text) else {
        tracing::warn!("{}: not a table cache; ignored", file.display());
        return Ok(0);
    };
    if cache.version != VERSION {
        return Ok(0);
    }
    let before = tables.stats.rows_from_cache;
    let constructed: Vec<(crate::value::Ty, usize)> = tables
        .gardens()
        .iter()
        .map(|(t, g)| (*t, g.constructed))
        .collect();
    let valid = |row: &Row| {
        row.op
            .params()
            .iter()
            .zip(&row.key)
            .all(|(p, k)| match (p, k) {
                (crate::ops::Param::Idx(t), Key::Pos(pos)) => constructed
                    .iter()
                    .any(|(ty, n)| ty == t && (*pos as usize) < *n),
                (crate::ops::Param::Int(_), Key::Int(_)) => true,
                _ => false,
            })
    };
    let rows: Vec<(Op, Vec<Key>, Outcome)> = cache
        .rows
        .into_iter()
        .filter(valid)
        .map(|r| (r.op, r.key, r.outcome))
        .collect();
    tables.add_cached_rows(rows);
    Ok(tables.stats.rows_from_cache - before)
}

/// Saves the rows over the constructed gardens (rows of values added at run time depend on
/// the exploration and are left out).
pub fn save(file: &Path, tables: &Tables) -> std::io::Result<()> {
    let constructed: Vec<(crate::value::Ty, usize)> = tables
        .gardens()
        .iter()
        .map(|(t, g)| (*t, g.constructed))
        .collect();
    let mut rows: Vec<Row> = tables
        .rows()
        .filter(|(op, key, _)| {
            op.params()
                .iter()
                .zip(key.iter())
                .all(|(p, k)| match (p, k) {
                    (crate::ops::Param::Idx(t), Key::Pos(pos)) => constructed
                        .iter()
                        .any(|(ty, n)| ty == t && (*pos as usize) < *n),
                    _ => true,
                })
        })
        .map(|(op, key, outcome)| Row {
            op: *op,
            key: key.to_vec(),
            outcome: outcome.clone(),
        })
        .collect();
    rows.sort_by(|a, b| (a.op, &a.key).cmp(&(b.op, &b.key)));
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string(&CacheFile {
        version: VERSION,
        rows,
    })?;
    // write then rename, so a concurrent reader never sees half a file
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::Gardens;
    use crate::garden::Garden;
    use crate::ops::StrFn;
    use crate::value::{GValue, Ty};

    fn tables() -> Tables {
        let mut g = Garden::new(Ty::Str);
        for s in ["ab", "b", "abc"] {
            g.insert(GValue::str(s.as_bytes()));
        }
        g.finish_construction();
        let mut gardens = Gardens::new();
        gardens.insert(Ty::Str, g);
        Tables::new(gardens)
    }

    #[test]
    fn rows_survive_a_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = tables();
        let op = Op::Str(StrFn::Strcmp);
        assert_eq!(first.memoise(&op, &[]), 9);
        let file = file_for(dir.path(), &first);
        save(&file, &first).unwrap();
        let mut second = tables();
        assert_eq!(file_for(dir.path(), &second), file);
        assert_eq!(load(&file, &mut second).unwrap(), 9);
        second.memoise(&op, &[]);
        assert!(
            second.stats.rows_computed.is_empty(),
            "every row came from the cache"
        );
        // a different garden has another file
        let mut other = tables();
        other.index(GValue::str(b"zz"));
        let g = Gardens::from_iter([(Ty::Str, {
            let mut g = other.gardens()[&Ty::Str].clone();
            g.finish_construction();
            g
        })]);
        assert_ne!(file_for(dir.path(), &Tables::new(g)), file);
    }
}
