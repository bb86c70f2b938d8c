//! Memory leaks (SV-COMP's valid-memtrack: "all allocated memory is tracked", pointed to or
//! freed): when a path exits (`main` returns into the runtime, which calls `exit`, or the
//! program calls `exit`), the heap objects that no chain of pointers from a global variable
//! reaches are leaked. The program's locals are gone at its end, so memory that only they
//! point to counts, as sv-benchmarks labels it (`list-properties/simple-2`: a list that
//! `main`'s local still points to when it returns violates valid-memtrack); memory that a
//! global still reaches is tracked (not freeing it is valid-memcleanup, not checked here).
//! Memory lost during the run stays lost, so it is found at the end.
//!
//! The scan reads every pointer-aligned word of the globals and of each heap object reached,
//! and follows the words whose bytes are concrete and point into a live heap object
//! (anywhere inside it). A word with a symbolic byte could point anywhere: the check then
//! reports nothing (no false alarm), and so it does for an object too large to scan.

use std::collections::HashSet;

use super::Program;
use crate::memory::address_space::Lookup;
use crate::memory::object::ObjectKind;
use crate::state::State;

/// Objects larger than this are not scanned (the check then reports nothing).
const MAX_SCANNED: u64 = 64 << 20;

impl Program {
    /// The leak report of a path that exits, or `None` when no heap object is lost (or the
    /// scan cannot tell).
    pub(crate) fn leaked(&self, state: &State) -> Option<String> {
        let module = &self.module;
        let word: u64 = match module.data_model {
            sear_ir::DataModel::Ilp32 => 4,
            sear_ir::DataModel::Lp64 => 8,
        };
        let memory = &state.memory;
        let heap: Vec<u64> = memory
            .iter()
            .filter(|e| e.object.kind == ObjectKind::Heap)
            .filter(|e| !self.allocated_by_runtime(e.object.alloc_site))
            .map(|e| e.object.address)
            .collect();
        if heap.is_empty() {
            return None;
        }
        let mut reached: HashSet<u64> = HashSet::new();
        let mut work: Vec<u64> = memory
            .iter()
            .filter(|e| matches!(e.object.kind, ObjectKind::Global | ObjectKind::Environment))
            .map(|e| e.object.address)
            .collect();
        while let Some(base) = work.pop() {
            let entry = memory.get_by_base(base)?;
            let size = entry.object.size;
            if size > MAX_SCANNED {
                return None;
            }
            let mut offset = 0;
            while offset + word <= size {
                let (segment, at) = memory.segment_of(entry, offset, word)?;
                let value = segment.read_concrete(at as usize, word as usize)?;
                offset += word;
                if value == 0 {
                    continue;
                }
                if let Lookup::Live(target) = memory.lookup(value as u64) {
                    let t = &target.object;
                    if t.kind == ObjectKind::Heap && reached.insert(t.address) {
                        work.push(t.address);
                    }
                }
            }
        }
        let lost: Vec<u64> = heap.into_iter().filter(|a| !reached.contains(a)).collect();
        let first = memory.get_by_base(*lost.first()?)?;
        let site = first.object.alloc_site.map_or_else(String::new, |l| {
            format!(" at {}:{}", module.file_name(l.file), l.line)
        });
        Some(format!(
            "memory leak: {} heap object(s) not freed and not reachable at exit (the first: \
             {} bytes allocated{site})",
            lost.len(),
            first.object.size
        ))
    }

    /// Whether an allocation site lies in sear's C runtime (its own buffers are not the
    /// program's leaks, nor its locals the program's uninitialised variables).
    pub(crate) fn allocated_by_runtime(&self, site: Option<sear_ir::Loc>) -> bool {
        site.is_some_and(|l| {
            let file = self.module.file_name(l.file);
            file.contains("/runtime/") && !file.contains("/tests/")
        })
    }
}
