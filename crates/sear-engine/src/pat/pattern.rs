//! Regular-pattern discovery (spec 003 §5.3): words `ω1 ω2^k ω3` over condition hashes.
//!
//! Candidates come from the words themselves: every maximal repetition of a period `p` in a
//! word, aligned to its start (forward scan) and to its end (backward scan), and for pairs
//! of words, the block the longer inserts into the shorter (their common prefix and suffix,
//! again from both ends). The candidate matching the most words wins (ties: the shorter
//! period, then the shorter `ω1`); its words form a partition; the rest are partitioned
//! again. Words no candidate shares with another word are left without a pattern.

/// A regular pattern `ω1 ω2^k ω3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// `ω1`.
    pub head: Vec<u64>,
    /// `ω2` (not empty).
    pub body: Vec<u64>,
    /// `ω3`.
    pub tail: Vec<u64>,
}

impl Pattern {
    /// The `k` with `word = ω1 ω2^k ω3`, if any.
    pub fn matches(&self, word: &[u64]) -> Option<usize> {
        let (h, t, p) = (self.head.len(), self.tail.len(), self.body.len());
        if word.len() < h + t || !(word.len() - h - t).is_multiple_of(p) {
            return None;
        }
        if word[..h] != self.head[..] || word[word.len() - t..] != self.tail[..] {
            return None;
        }
        let middle = &word[h..word.len() - t];
        middle
            .chunks(p)
            .all(|c| c == &self.body[..])
            .then_some(middle.len() / p)
    }
}

/// One partition: a pattern and its members `(word index, k)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The pattern.
    pub pattern: Pattern,
    /// `(index into the words, repetitions)`, by increasing repetitions.
    pub members: Vec<(usize, usize)>,
}

/// Why no partitioning was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPattern {
    /// More partitions than the cap.
    TooMany,
}

/// Candidates tried per round before giving up on the words left.
const ATTEMPTS: usize = 8;

/// Partitions `words` into regular partitions of at least two words each (at most
/// `max_patterns` of them); the words left over have no pattern. `accept` is offered the
/// candidates of each round best first (most words matched, then the shorter period, then
/// the shorter `ω1`) and takes the first it can use (one whose conditions fit a formula
/// pattern).
pub fn partition(
    words: &[Vec<u64>],
    max_patterns: usize,
    mut accept: impl FnMut(&Partition) -> bool,
) -> Result<Vec<Partition>, NoPattern> {
    let mut left: Vec<usize> = (0..words.len()).collect();
    let mut out = Vec::new();
    'rounds: loop {
        for candidate in ranked_candidates(words, &left).into_iter().take(ATTEMPTS) {
            let mut members: Vec<(usize, usize)> = left
                .iter()
                .filter_map(|&w| candidate.matches(&words[w]).map(|k| (w, k)))
                .collect();
            members.sort_by_key(|&(w, k)| (k, w));
            // Distinct repetition counts: equal words would be equal paths.
            members.dedup_by_key(|m| m.1);
            let part = Partition {
                pattern: candidate,
                members,
            };
            if !accept(&part) {
                continue;
            }
            left.retain(|w| !part.members.iter().any(|m| m.0 == *w));
            out.push(part);
            if out.len() > max_patterns {
                return Err(NoPattern::TooMany);
            }
            continue 'rounds;
        }
        break;
    }
    Ok(out)
}

/// The candidates matching at least two of `left`, best first.
fn ranked_candidates(words: &[Vec<u64>], left: &[usize]) -> Vec<Pattern> {
    if left.len() < 2 {
        return Vec::new();
    }
    let mut order = left.to_vec();
    order.sort_by_key(|&w| std::cmp::Reverse(words[w].len()));
    let mut scored: Vec<(usize, Pattern)> = Vec::new();
    // The longest few words carry the repetitions.
    for &w in order.iter().take(3) {
        let mut candidates = repetitions(&words[w]);
        for &v in &order {
            if words[v].len() < words[w].len() {
                candidates.extend(insertions(&words[v], &words[w]));
            }
        }
        for c in candidates {
            if scored.iter().any(|(_, s)| *s == c) {
                continue;
            }
            let count = left
                .iter()
                .filter_map(|&x| c.matches(&words[x]))
                .collect::<std::collections::BTreeSet<usize>>()
                .len();
            if count >= 2 {
                scored.push((count, c));
            }
        }
    }
    scored.sort_by_key(|(n, c)| (std::cmp::Reverse(*n), c.body.len(), c.head.len()));
    scored.into_iter().map(|(_, c)| c).collect()
}

/// The maximal repetitions (at least two) of every period in `w`, forward- and
/// backward-aligned; per period only the longest run.
fn repetitions(w: &[u64]) -> Vec<Pattern> {
    let mut out = Vec::new();
    for p in 1..=w.len() / 2 {
        // Runs of positions i with w[i] == w[i + p].
        let mut best: Option<(usize, usize)> = None;
        let mut i = 0;
        while i + p < w.len() {
            if w[i] != w[i + p] {
                i += 1;
                continue;
            }
            let start = i;
            while i + p < w.len() && w[i] == w[i + p] {
                i += 1;
            }
            let len = i - start + p;
            if best.is_none_or(|(s, e)| e - s < len) {
                best = Some((start, start + len));
            }
        }
        let Some((start, end)) = best else { continue };
        let reps = (end - start) / p;
        if reps < 2 {
            continue;
        }
        let fwd = start;
        let bwd = end - reps * p;
        for a in [fwd, bwd] {
            out.push(Pattern {
                head: w[..a].to_vec(),
                body: w[a..a + p].to_vec(),
                tail: w[a + reps * p..].to_vec(),
            });
        }
    }
    out
}

/// The block `long` inserts into `short`, at the end of their common prefix and at the
/// start of their common suffix.
fn insertions(short: &[u64], long: &[u64]) -> Vec<Pattern> {
    let d = long.len() - short.len();
    let lcp = short.iter().zip(long).take_while(|(a, b)| a == b).count();
    let lcs = short
        .iter()
        .rev()
        .zip(long.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    if d == 0 || lcp + lcs < short.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for x in [lcp.min(short.len()), short.len() - lcs.min(short.len())] {
        out.push(Pattern {
            head: short[..x].to_vec(),
            body: long[x..x + d].to_vec(),
            tail: short[x..].to_vec(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(s: &str) -> Vec<u64> {
        s.bytes().map(u64::from).collect()
    }

    /// Table 6.1: the leaves of `memspn` with chars = "a" (root W left out): G = `n > _`,
    /// B = `s[_] = 97`, Y = `¬s[_] = 97`, R = `¬n > _`.
    #[test]
    fn memspn_leaves_form_two_partitions() {
        let words: Vec<Vec<u64>> = ["GY", "GBGY", "GBGBGY", "R", "GBR", "GBGBR", "GBGBGBR"]
            .iter()
            .map(|w| word(w))
            .collect();
        let parts = partition(&words, 10, |_| true).unwrap();
        assert_eq!(parts.len(), 2);
        let r = &parts[0];
        assert_eq!(r.pattern.body, word("GB"));
        assert_eq!(r.pattern.tail, word("R"));
        assert_eq!(r.members, vec![(3, 0), (4, 1), (5, 2), (6, 3)]);
        let y = &parts[1];
        assert_eq!(y.pattern.body, word("GB"));
        assert_eq!(y.pattern.tail, word("GY"));
        assert_eq!(y.members, vec![(0, 0), (1, 1), (2, 2)]);
    }

    #[test]
    fn two_words_differing_by_one_block_match_and_the_cap_applies() {
        let words = vec![word("AC"), word("ABC"), word("XYZ")];
        let parts = partition(&words, 10, |_| true).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].members.len(), 2);
        let many: Vec<Vec<u64>> = (0..6u8)
            .flat_map(|i| {
                let a = (b'a' + i) as u64;
                [vec![a, 1], vec![a, 2, 1], vec![a, 2, 2, 1]]
            })
            .collect();
        assert_eq!(partition(&many, 3, |_| true), Err(NoPattern::TooMany));
        assert_eq!(partition(&many, 10, |_| true).unwrap().len(), 6);
    }

    /// A period-1 candidate whose conditions alternate is refused; the period-2 one is
    /// taken (strchr: `s[i] ≠ 'a'` and `s[i] ≠ 0` hash alike).
    #[test]
    fn refused_candidates_give_way_to_the_next() {
        let words = vec![word("F"), word("NNF"), word("NNNNF")];
        let parts = partition(&words, 10, |p| p.pattern.body.len() == 2).unwrap();
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].pattern.body, word("NN"));
        assert_eq!(parts[0].members, vec![(0, 0), (1, 1), (2, 2)]);
        assert!(partition(&words, 10, |_| false).unwrap().is_empty());
    }
}
