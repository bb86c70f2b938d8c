//! Source locations from debug information, with interned file names.

use super::Lowerer;
use crate::ir::*;
use crate::llvm::{DebugFile, Val};

impl<'m> Lowerer<'m> {
    /// The source location of an instruction, function or global variable, if it has one
    /// (line 0, which the compiler uses for generated code, counts as none).
    pub(crate) fn loc(&mut self, v: Val<'m>) -> Option<Loc> {
        let line = v.debug_line();
        if line == 0 {
            return None;
        }
        let file = self.file_id(v.debug_file())?;
        Some(Loc {
            file,
            line,
            col: v.debug_column(),
        })
    }

    /// Interns the file of a debug location; `None` when it has no file name.
    fn file_id(&mut self, f: DebugFile<'m>) -> Option<FileId> {
        let key = (
            f.file.as_ptr() as usize,
            f.file.len(),
            f.dir.as_ptr() as usize,
            f.dir.len(),
        );
        if let Some(&id) = self.file_cache.get(&key) {
            return id;
        }
        let id = (!f.file.is_empty()).then(|| {
            let path = join_path(
                &String::from_utf8_lossy(f.dir),
                &String::from_utf8_lossy(f.file),
            );
            match self.file_index.get(&path) {
                Some(&id) => id,
                None => {
                    let id = FileId(self.module.files.len() as u32);
                    self.module.files.push(path.clone());
                    self.file_index.insert(path, id);
                    id
                }
            }
        });
        self.file_cache.insert(key, id);
        id
    }
}

/// `file` if it is absolute or there is no directory, else `dir/file`.
fn join_path(dir: &str, file: &str) -> String {
    if file.starts_with('/') || dir.is_empty() {
        file.to_string()
    } else if dir.ends_with('/') {
        format!("{dir}{file}")
    } else {
        format!("{dir}/{file}")
    }
}
