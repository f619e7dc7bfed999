//! Learning from a dead end: the first-UIP clause, its jump level, keeping
//! it, and forgetting the least useful clauses.

use super::clauses::{Conflict, Lit, Watch, Why, positive, var};
use super::{DECAY, Learning};

/// Buffers kept between dead ends: a clause's literals, the variables marked
/// while explaining, and the work list of the shortening.
#[derive(Clone, Default)]
pub(super) struct Scratch {
    lits: Vec<Lit>,
    marked: Vec<usize>,
    stack: Vec<usize>,
}

/// Marks of variables while a dead end is explained: in the clause or implied
/// by it (`SEEN`), or found not implied by it (`FAILED`); 0 unmarked.
const SEEN: u8 = 1;
const FAILED: u8 = 2;

impl Learning {
    /// The literals of a conflict's clause (all false).
    pub(super) fn conflict_lits(&self, conflict: Conflict, out: &mut Vec<Lit>) {
        out.clear();
        match conflict {
            Conflict::Pair(a, b) => {
                out.push(positive(a as usize) | 1);
                out.push(positive(b as usize) | 1);
            }
            Conflict::Group(g) => {
                out.extend((0..self.n).map(|i| positive(self.member(g as usize, i))));
            }
            Conflict::Clause(c) => out.extend_from_slice(self.clauses.lits(c)),
            Conflict::Cut(v, code) => {
                out.push(positive(v as usize) | 1);
                self.cut_lits(code, out);
            }
        }
    }

    /// The other literals (false) of the clause that forced `v`.
    pub(super) fn reason_lits(&self, v: usize, out: &mut Vec<Lit>) {
        out.clear();
        match self.why[v] {
            Why::Group(g) => out.extend(
                (0..self.n)
                    .map(|i| self.member(g as usize, i))
                    .filter(|&m| m != v)
                    .map(positive),
            ),
            Why::Pair(other) => out.push(positive(other as usize) | 1),
            Why::Clause(c) => out.extend_from_slice(&self.clauses.lits(c)[1..]),
            Why::Cut(code) => self.cut_lits(code, out),
            Why::Given | Why::Decision | Why::Learned => {}
        }
    }

    /// The places of a cut's digit in its house outside the cut (all false).
    fn cut_lits(&self, code: u32, out: &mut Vec<Lit>) {
        let cut = self.tables.cuts[(code >> 6) as usize];
        let group = self.cells.len() + usize::from(cut.house) * self.n + (code & 63) as usize;
        out.extend(
            (0..self.n)
                .filter(|&slot| cut.own >> slot & 1 == 0)
                .map(|slot| positive(self.member(group, slot))),
        );
    }

    pub(super) fn bump_var(&mut self, v: usize) {
        self.activity[v] += self.bump;
        if self.activity[v] > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        self.heap.raise(v, &self.activity);
    }

    /// The first-UIP clause of a conflict (in `self.learnt`, its asserting
    /// literal first) and the level to jump back to.
    pub(super) fn analyze(&mut self, conflict: Conflict) -> usize {
        let current = self.depth();
        let mut learnt = std::mem::take(&mut self.learnt);
        learnt.clear();
        learnt.push(0);
        let mut scratch = std::mem::take(&mut self.scratch);
        let Scratch { lits, marked, .. } = &mut scratch;
        self.conflict_lits(conflict, lits);
        let mut pending = 0i32;
        let mut index = self.trail.len();
        loop {
            for &lit in lits.iter() {
                let v = var(lit);
                if self.seen[v] != 0 || self.level[v] == 0 {
                    continue;
                }
                self.seen[v] = SEEN;
                marked.push(v);
                self.bump_var(v);
                if self.level[v] == current {
                    pending += 1;
                } else {
                    learnt.push(lit);
                }
            }
            // The latest marked literal of this level on the trail.
            let v = loop {
                index -= 1;
                let v = var(self.trail[index]);
                if self.seen[v] != 0 {
                    break v;
                }
            };
            pending -= 1;
            if pending == 0 {
                learnt[0] = self.trail[index] ^ 1;
                break;
            }
            self.reason_lits(v, lits);
        }
        self.name_placements(&mut learnt, marked);
        self.minimize(&mut learnt, &mut scratch);
        for v in scratch.marked.drain(..) {
            self.seen[v] = 0;
        }
        self.scratch = scratch;
        let back = self.second_watch(&mut learnt);
        self.bump /= DECAY;
        self.learnt = learnt;
        back
    }

    /// Drops the literals of `learnt` (past its first) implied by the others:
    /// those whose reasons lead, through forced values of the clause's levels
    /// only, to literals of the clause or of level 0. Variables found implied
    /// stay marked (in `marked`, for the caller to clear); those found not
    /// implied are remembered as such for the rest of this dead end.
    fn minimize(&mut self, learnt: &mut Vec<Lit>, scratch: &mut Scratch) {
        let levels = learnt[1..]
            .iter()
            .fold(0u64, |set, &l| set | 1 << (self.level[var(l)] & 63));
        let mut kept = 1;
        for i in 1..learnt.len() {
            if !self.implied(var(learnt[i]), levels, scratch) {
                learnt[kept] = learnt[i];
                kept += 1;
            }
        }
        learnt.truncate(kept);
    }

    /// Whether variable `v` of the clause being learned is implied by the
    /// clause's other variables (see [`Learning::minimize`]).
    fn implied(&mut self, v: usize, levels: u64, scratch: &mut Scratch) -> bool {
        if !self.forced(v) {
            return false;
        }
        let Scratch {
            lits,
            marked,
            stack,
        } = scratch;
        stack.clear();
        stack.push(v);
        let from = marked.len();
        while let Some(u) = stack.pop() {
            self.reason_lits(u, lits);
            for &l in lits.iter() {
                let w = var(l);
                if self.seen[w] == SEEN || self.level[w] == 0 {
                    continue;
                }
                let open =
                    self.seen[w] == 0 && self.forced(w) && levels & 1 << (self.level[w] & 63) != 0;
                if !open {
                    // Not implied: neither are the variables that led here.
                    for &m in &marked[from..] {
                        self.seen[m] = FAILED;
                    }
                    marked.push(w);
                    self.seen[w] = FAILED;
                    return false;
                }
                self.seen[w] = SEEN;
                marked.push(w);
                stack.push(w);
            }
        }
        true
    }

    /// Puts, for each literal of `learnt` (past its first) that says a digit
    /// is in a cell where a placement ruled it out, that placement instead
    /// ("this digit is not there"): the same level, and one literal for all
    /// the variables one placement ruled out. Sound (a resolution with the
    /// rule that the two are never both true), and it shortens the clauses
    /// that hidden singles explain, which list every other place of a digit.
    fn name_placements(&mut self, learnt: &mut Vec<Lit>, marked: &mut Vec<usize>) {
        let mut kept = 1;
        for i in 1..learnt.len() {
            let lit = match self.why[var(learnt[i])] {
                Why::Pair(other) => {
                    let other = other as usize;
                    // Marked: in the clause already.
                    if self.seen[other] != 0 {
                        continue;
                    }
                    self.seen[other] = SEEN;
                    marked.push(other);
                    positive(other) | 1
                }
                _ => learnt[i],
            };
            learnt[kept] = lit;
            kept += 1;
        }
        learnt.truncate(kept);
    }

    /// Whether variable `v` was forced (not a guess, a given or a fact).
    fn forced(&self, v: usize) -> bool {
        !matches!(self.why[v], Why::Decision | Why::Given | Why::Learned)
    }

    /// Puts the literal of the highest level after the first second (it is
    /// watched with the first) and returns its level: where to jump back to.
    fn second_watch(&self, learnt: &mut [Lit]) -> usize {
        if learnt.len() < 2 {
            return 0;
        }
        let mut best = 1;
        for i in 2..learnt.len() {
            if self.level[var(learnt[i])] > self.level[var(learnt[best])] {
                best = i;
            }
        }
        learnt.swap(1, best);
        self.level[var(learnt[1])] as usize
    }

    /// Keeps `self.learnt` as a clause (two or more literals) and returns it;
    /// `lbd` 0 keeps it for good.
    pub(super) fn learn(&mut self, keep: bool) -> u32 {
        let lbd = if keep {
            0
        } else {
            // The work list's buffer, free between dead ends.
            let levels = &mut self.scratch.stack;
            levels.clear();
            levels.extend(self.learnt.iter().map(|&l| self.level[var(l)] as usize));
            levels.sort_unstable();
            levels.dedup();
            levels.len() as u32
        };
        let index = self.clauses.add(&self.learnt, lbd);
        self.watch(index);
        index
    }

    /// Watches clause `c`'s first two literals, each with the other as blocker.
    fn watch(&mut self, c: u32) {
        let (a, b) = (self.clauses.lits(c)[0], self.clauses.lits(c)[1]);
        self.watches[a as usize].push(Watch {
            clause: c,
            blocker: b,
        });
        self.watches[b as usize].push(Watch {
            clause: c,
            blocker: a,
        });
    }

    /// Forgets the less useful half of the learned clauses (not those
    /// forcing a value now, nor those spanning two levels or fewer).
    pub(super) fn reduce(&mut self) {
        let locked = |this: &Learning, c: u32| {
            let first = this.clauses.lits(c)[0];
            this.lit_value(first) == 1 && this.why[var(first)] == Why::Clause(c)
        };
        let mut candidates: Vec<(u32, u32)> = self
            .clauses
            .all()
            .filter(|&c| {
                let lbd = self.clauses.lbd(c);
                !self.clauses.is_gone(c) && lbd > 2 && !locked(self, c)
            })
            .map(|c| (self.clauses.lbd(c), c))
            .collect();
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, c) in &candidates[..candidates.len() / 2] {
            self.clauses.forget(c);
        }
        let Some(moved) = self.clauses.compact() else {
            // Drop the watches of the forgotten clauses.
            let clauses = &self.clauses;
            for list in &mut self.watches {
                list.retain(|watch| !clauses.is_gone(watch.clause));
            }
            return;
        };
        // The clauses moved: the values they force (assigned now; the reasons
        // of unassigned variables are never read) name them anew, and every
        // watch is made again.
        for (why, _) in self
            .why
            .iter_mut()
            .zip(&self.value)
            .filter(|(_, v)| **v != 0)
        {
            if let Why::Clause(c) = why {
                let at = moved.binary_search_by_key(c, |&(before, _)| before);
                *c = moved[at.expect("a clause forcing a value is kept")].1;
            }
        }
        self.watches.iter_mut().for_each(Vec::clear);
        for &(_, c) in &moved {
            self.watch(c);
        }
    }
}
