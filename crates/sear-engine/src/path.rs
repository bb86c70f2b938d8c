//! The record of a path's branch decisions: at every fork on the way from the initial state,
//! which of the fork's alternatives the path took.
//!
//! The fork point (`executor/fork.rs`) appends one [`Decision`] to every state that leaves a
//! fork, the old state and each new one, so a state's [`PathRecord`] names its path from the
//! root: re-executing the program from the initial state and taking, at the k-th fork, the
//! k-th decision's alternative rebuilds the state. A fork that policy refused (the path
//! followed one side without forking: `klee_set_forking(0)`, the memory limit) is recorded
//! too, marked [`Decision::forced`], since the side was chosen at random.
//!
//! A decision also says where on the path it was made: `at`, the number of instructions the
//! path had executed (from the initial state) when it forked, which identifies the fork
//! among the instructions a re-execution runs, and the instruction itself (`site`).
//!
//! The record is persistent (O(1) to copy at a fork) and its text form (`--write-paths`,
//! `--replay-path`) is one decision per line, `KIND TAKEN/OF @AT fF:bB:iI`, with a trailing
//! `forced` where policy chose and `unchecked` where seeds decided the fork without
//! feasibility queries: `branch 0/2 @1234 f3:b7:i2`.
//!
//! An **unchecked** decision numbers its alternatives as the fork site lists them before any
//! query (every `switch` target, both sides of a check), where a checked one numbers only the
//! feasible ones; a site that rebuilds the path takes the same list when the record says
//! unchecked ([`State::unchecked_here`](crate::state::State::unchecked_here)).
//!
//! A checked `switch` decision also names its target among all the site's targets
//! (`target=T`), so that a rebuild takes it without the site's feasibility queries.

use std::fmt;
use std::str::FromStr;

/// What kind of instruction or check forked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForkKind {
    /// A two-way branch on a symbolic condition.
    Branch,
    /// A `switch` (or `indirectbr`) with several feasible targets.
    Switch,
    /// A call through a symbolic function pointer with several feasible targets.
    FunctionPointer,
    /// A check that may fail: the failing side ends with an error.
    Check,
    /// A symbolic pointer that may point into several objects (or none).
    Resolution,
    /// A symbolic pointer passed to `free` or `realloc`: one path per object base.
    ExactBase,
    /// A symbolic allocation size: one path per size tried.
    Size,
    /// An Indexify lookup fixed to one row of its table.
    Indexify,
}

impl ForkKind {
    /// The name used in path files and statistics.
    pub fn name(self) -> &'static str {
        match self {
            ForkKind::Branch => "branch",
            ForkKind::Switch => "switch",
            ForkKind::FunctionPointer => "function-pointer",
            ForkKind::Check => "check",
            ForkKind::Resolution => "resolution",
            ForkKind::ExactBase => "exact-base",
            ForkKind::Size => "size",
            ForkKind::Indexify => "indexify",
        }
    }

    /// Every kind, in the order of the statistics.
    pub const ALL: [ForkKind; 8] = [
        ForkKind::Branch,
        ForkKind::Switch,
        ForkKind::FunctionPointer,
        ForkKind::Check,
        ForkKind::Resolution,
        ForkKind::ExactBase,
        ForkKind::Size,
        ForkKind::Indexify,
    ];
}

/// Where a fork happened: the instruction (function, block, index in the block) that forked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ForkSite {
    /// The function's index in the module.
    pub func: u32,
    /// The block's index in the function.
    pub block: u32,
    /// The instruction's index in the block (the block's length for its terminator).
    pub inst: u32,
}

/// One branch decision: at a fork of `kind` with `of` alternatives, the path took `taken`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// What forked.
    pub kind: ForkKind,
    /// The alternative this path took (0-based, in the fork site's order).
    pub taken: u16,
    /// The number of feasible alternatives at the fork.
    pub of: u16,
    /// Policy refused the fork and chose this side (no other path was made).
    pub forced: bool,
    /// The state's seeds decided the fork without feasibility queries: `of` counts the
    /// site's alternatives before any query, not only the feasible ones.
    pub unchecked: bool,
    /// The instructions the path had executed when it forked (the forking one included).
    pub at: u64,
    /// The instruction that forked.
    pub site: ForkSite,
    /// Where the site filtered its listed alternatives by feasibility (a `switch`'s target
    /// blocks): the taken alternative's position in that list, so that a rebuild takes it
    /// without the site's feasibility queries. `None` elsewhere and in older path files.
    pub target: Option<u16>,
}

/// The branch decisions of a path from the initial state, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PathRecord {
    decisions: imbl::Vector<Decision>,
}

impl PathRecord {
    /// Appends a decision.
    pub fn push(&mut self, decision: Decision) {
        self.decisions.push_back(decision);
    }

    /// The number of decisions.
    pub fn len(&self) -> usize {
        self.decisions.len()
    }

    /// True for the initial state's (empty) record.
    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// The decisions in order.
    pub fn iter(&self) -> impl Iterator<Item = &Decision> {
        self.decisions.iter()
    }

    /// The `i`-th decision.
    pub fn get(&self, i: usize) -> Option<&Decision> {
        self.decisions.get(i)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.site;
        write!(
            f,
            "{} {}/{} @{} f{}:b{}:i{}",
            self.kind.name(),
            self.taken,
            self.of,
            self.at,
            s.func,
            s.block,
            s.inst
        )?;
        if self.forced {
            write!(f, " forced")?;
        }
        if self.unchecked {
            write!(f, " unchecked")?;
        }
        if let Some(t) = self.target {
            write!(f, " target={t}")?;
        }
        Ok(())
    }
}

impl fmt::Display for PathRecord {
    /// One decision per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.decisions {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

/// A line of a path file that is not a decision.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParsePathError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl FromStr for Decision {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let mut words = text.split_whitespace();
        let kind_name = words.next().ok_or("empty decision")?;
        let kind = ForkKind::ALL
            .into_iter()
            .find(|k| k.name() == kind_name)
            .ok_or_else(|| format!("unknown fork kind '{kind_name}'"))?;
        let ratio = words.next().ok_or("missing TAKEN/OF")?;
        let (taken, of) = ratio
            .split_once('/')
            .ok_or_else(|| format!("'{ratio}' is not TAKEN/OF"))?;
        let number = |t: &str| {
            t.parse::<u16>()
                .map_err(|_| format!("'{t}' is not a number below 65536"))
        };
        let (taken, of) = (number(taken)?, number(of)?);
        if of < 2 || taken >= of {
            return Err(format!(
                "{taken}/{of}: a fork has at least 2 alternatives and TAKEN < OF"
            ));
        }
        let at_text = words.next().ok_or("missing @AT")?;
        let at = at_text
            .strip_prefix('@')
            .and_then(|t| t.parse::<u64>().ok())
            .ok_or_else(|| format!("'{at_text}' is not @AT (an instruction count)"))?;
        let site_text = words.next().ok_or("missing fF:bB:iI")?;
        let site = parse_site(site_text).ok_or_else(|| format!("'{site_text}' is not fF:bB:iI"))?;
        let (mut forced, mut unchecked, mut target) = (false, false, None);
        for word in words {
            match word {
                "forced" if !forced && !unchecked && target.is_none() => forced = true,
                "unchecked" if !unchecked && target.is_none() => unchecked = true,
                _ if target.is_none() && word.starts_with("target=") => {
                    target = Some(number(&word["target=".len()..])?);
                }
                other => return Err(format!("unexpected '{other}'")),
            }
        }
        Ok(Decision {
            kind,
            taken,
            of,
            forced,
            unchecked,
            at,
            site,
            target,
        })
    }
}

fn parse_site(text: &str) -> Option<ForkSite> {
    let rest = text.strip_prefix('f')?;
    let (func, rest) = rest.split_once(":b")?;
    let (block, inst) = rest.split_once(":i")?;
    Some(ForkSite {
        func: func.parse().ok()?,
        block: block.parse().ok()?,
        inst: inst.parse().ok()?,
    })
}

impl FromStr for PathRecord {
    type Err = ParsePathError;

    /// Parses the text form (blank lines and `#` comments are ignored).
    fn from_str(text: &str) -> Result<Self, ParsePathError> {
        let mut record = PathRecord::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let decision = line.parse().map_err(|message| ParsePathError {
                line: i + 1,
                message,
            })?;
            record.push(decision);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(kind: ForkKind, taken: u16, of: u16, forced: bool) -> Decision {
        Decision {
            kind,
            taken,
            of,
            forced,
            unchecked: false,
            at: 1234,
            site: ForkSite {
                func: 3,
                block: 7,
                inst: 2,
            },
            target: None,
        }
    }

    #[test]
    fn text_form_round_trips() {
        let mut record = PathRecord::default();
        record.push(decision(ForkKind::Branch, 1, 2, false));
        record.push(decision(ForkKind::Switch, 2, 5, true));
        let text = record.to_string();
        assert_eq!(
            text,
            "branch 1/2 @1234 f3:b7:i2\nswitch 2/5 @1234 f3:b7:i2 forced\n"
        );
        assert_eq!(text.parse::<PathRecord>().unwrap(), record);
    }

    #[test]
    fn unchecked_decisions_round_trip() {
        let mut record = PathRecord::default();
        let mut d = decision(ForkKind::Switch, 3, 4, false);
        d.unchecked = true;
        record.push(d);
        d.forced = true;
        record.push(d);
        let text = record.to_string();
        assert_eq!(
            text,
            "switch 3/4 @1234 f3:b7:i2 unchecked\nswitch 3/4 @1234 f3:b7:i2 forced unchecked\n"
        );
        assert_eq!(text.parse::<PathRecord>().unwrap(), record);
        let err = "branch 0/2 @5 f0:b0:i0 unchecked forced"
            .parse::<PathRecord>()
            .unwrap_err();
        assert!(err.message.contains("unexpected 'forced'"), "{err}");
    }

    #[test]
    fn switch_targets_round_trip() {
        let mut record = PathRecord::default();
        let mut d = decision(ForkKind::Switch, 1, 3, false);
        d.target = Some(7);
        record.push(d);
        d.forced = true;
        record.push(d);
        let text = record.to_string();
        assert_eq!(
            text,
            "switch 1/3 @1234 f3:b7:i2 target=7\nswitch 1/3 @1234 f3:b7:i2 forced target=7\n"
        );
        assert_eq!(text.parse::<PathRecord>().unwrap(), record);
        let err = "switch 1/3 @5 f0:b0:i0 target=7 forced"
            .parse::<PathRecord>()
            .unwrap_err();
        assert!(err.message.contains("unexpected 'forced'"), "{err}");
        let err = "switch 1/3 @5 f0:b0:i0 target=x"
            .parse::<PathRecord>()
            .unwrap_err();
        assert!(err.message.contains("not a number"), "{err}");
    }

    #[test]
    fn bad_lines_name_their_line() {
        let err = "branch 0/2 @5 f0:b0:i0\n\nbranch 2/2 @9 f0:b0:i0\n"
            .parse::<PathRecord>()
            .unwrap_err();
        assert_eq!(err.line, 3);
        let err = "jump 0/2 @5 f0:b0:i0".parse::<PathRecord>().unwrap_err();
        assert!(err.message.contains("unknown fork kind"), "{err}");
        let err = "branch 0/2".parse::<PathRecord>().unwrap_err();
        assert!(err.message.contains("missing"), "{err}");
    }
}

/// The recorded paths a state follows (`--replay-path`, or prefixes handed to a worker): at
/// its k-th fork the state takes the records' k-th decision, without asking the solver where
/// the fork site allows it. Several records (a group of prefixes a worker received together,
/// sorted, all sharing the decisions the state has made so far) are rebuilt as a tree: the
/// state splits where they part, one state per side taken, so their shared decisions run once.
#[derive(Clone, Debug)]
pub struct Follow {
    /// The records, in order of their decisions' sides (at least one).
    pub records: std::sync::Arc<[PathRecord]>,
    /// True: the whole path (a fork past the record's end is an error); false: a prefix
    /// (below its end the state explores as any other).
    pub exact: bool,
    /// The instruction count at which this state's own rebuilding began (the start, or the
    /// fork where its group parted): the rebuilding cost is counted once per instruction.
    pub since: u64,
}

impl Follow {
    /// Follows one record from a state that has executed `since` instructions.
    pub fn one(record: PathRecord, exact: bool, since: u64) -> Follow {
        Follow {
            records: std::sync::Arc::from(vec![record]),
            exact,
            since,
        }
    }

    /// The decision at the state's `index`-th fork (the records agree on where it is, and on
    /// its kind and size; the sides may differ).
    pub fn next(&self, index: usize) -> Option<&Decision> {
        self.records.first().and_then(|r| r.get(index))
    }

    /// True when a state with `decisions` decisions is past every record's end.
    pub fn ended(&self, decisions: usize) -> bool {
        self.records.iter().all(|r| decisions >= r.len())
    }
}
