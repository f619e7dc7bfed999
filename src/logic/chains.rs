//! The chain behind a contradiction: a trial's moves replayed on the grid it
//! started from, each forced placement traced to the elimination that left it
//! forced, and each elimination to the placement that made it, from the
//! contradiction back to the assumption: one branch for each candidate the
//! contradiction took away. What comes out are the links a client draws: weak
//! from a placed digit to a candidate it removed, strong from that removed
//! candidate to the digit it left alone in its cell or house.
//! Knows nothing of how the trials choose their moves.

use super::marks::{Marks, bit, digits};
use super::step::{Candidate, Link};
use crate::board::Cell;

/// One move of a trial, as the trial made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Move {
    /// A digit written into a cell (the assumption, a single, a rule's placement).
    Place(Cell, u8),
    /// The places of a digit in a house, locked there (pointing, claiming):
    /// the removals up to the next move are the group's.
    Group(Vec<Candidate>),
    /// A chain nested in the trial (its links on the trial's grid as it
    /// stood): the moves up to the next one are its; the chain does not go
    /// back past it, but counts its links.
    Nested(Vec<Link>),
    /// A candidate taken out by the group or nested chain before it, or by a
    /// variant's rule (then the chain does not go back past it).
    Eliminate(Cell, u8),
}

/// When a candidate left the grid, and what took it.
#[derive(Clone, Copy)]
struct Removal {
    at: u32,
    by: Cause,
}

/// What took a candidate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    /// A digit placed in its cell or a peer.
    Placed(Candidate),
    /// The group `groups[i]`.
    Group(usize),
    /// A rule the chain does not follow.
    Unknown,
}

/// A group of candidates locked together, and the removal that locked it;
/// or a nested chain (no members), and its links.
struct Group {
    members: Vec<Candidate>,
    locked_by: Option<Candidate>,
    nested: Vec<Link>,
}

/// A grid under replay: what left it, when and why, and why each placement was forced.
struct Trace<P> {
    grid: P,
    removed: ByCandidate<Removal>,
    /// For each placement: the removed candidate whose removal forced it (none
    /// for the assumption, or a digit that was already alone).
    forced_by: ByCandidate<Option<Candidate>>,
    groups: Vec<Group>,
    clock: u32,
}

/// The links from the first move (the assumption) to the contradiction that the
/// `moves` lead to on `start`: a branch from the assumption to each candidate
/// the contradiction took away, each in the chain's order; empty when the moves
/// leave the grid whole.
pub(super) fn contradiction_links<P: Marks>(start: &P, moves: &[Move]) -> Vec<Link> {
    let trace = replay(start, moves);
    let Some(broken) = trace.breaking() else {
        return Vec::new();
    };
    // One branch for each candidate the contradiction took away (a cell's
    // every digit, or a digit's every place in a house), those removed first
    // first, each from the assumption; links two branches share are given once.
    // A branch that goes back to a removal by a rule that is no single (in a
    // dynamic chain) rather than to the assumption comes after those that do.
    let assumption = match moves.first() {
        Some(&Move::Place(cell, digit)) => Some((cell, digit)),
        _ => None,
    };
    let (mut branches, rest): (Vec<_>, Vec<_>) = broken
        .into_iter()
        .map(|removed| trace.back_from(removed))
        .partition(|branch| branch.first().map(|link| link.start) == assumption);
    branches.extend(rest);
    let mut links: Vec<Link> = Vec::new();
    join_links(&mut links, branches.into_iter().flatten());
    links
}

/// Adds to `links` those of `more` it does not hold yet, in their order:
/// branches that share their start are drawn once.
pub(super) fn join_links(links: &mut Vec<Link>, more: impl IntoIterator<Item = Link>) {
    for link in more {
        if !links.contains(&link) {
            links.push(link);
        }
    }
}

/// A trial's moves replayed on the grid it started from: the chain to any
/// candidate they placed or removed.
pub(super) struct Replay<P>(Trace<P>);

impl<P: Marks> Replay<P> {
    /// Replays `moves` (the assumption first) on `start`.
    pub(super) fn new(start: &P, moves: &[Move]) -> Replay<P> {
        Replay(replay(start, moves))
    }

    /// The links from the assumption to `target`, which the moves placed
    /// (`on`) or removed: one branch of a forcing chain whose branches all
    /// lead there; empty when no forced move leads there.
    pub(super) fn links_to(&self, target: Candidate, on: bool) -> Vec<Link> {
        if !on {
            return self.0.back_from(target);
        }
        let Some(&Some(cause)) = self.0.forced_by.get(&target) else {
            return Vec::new();
        };
        let mut links = self.0.back_from(cause);
        links.push(Link {
            start: cause,
            end: target,
            strong: true,
        });
        links
    }
}

/// The grid `start` after `moves`, with what took each candidate and what
/// forced each placement.
fn replay<P: Marks>(start: &P, moves: &[Move]) -> Trace<P> {
    let mut trace = Trace {
        grid: start.clone(),
        removed: ByCandidate::new(start),
        forced_by: ByCandidate::new(start),
        groups: Vec::new(),
        clock: 0,
    };
    let mut by = Cause::Unknown;
    for step in moves {
        match step {
            Move::Place(cell, digit) => {
                trace.place(*cell, *digit);
                by = Cause::Unknown;
            }
            Move::Group(members) => {
                by = Cause::Group(trace.groups.len());
                let locked_by = trace.locking(members);
                trace.groups.push(Group {
                    members: members.clone(),
                    locked_by,
                    nested: Vec::new(),
                });
            }
            Move::Nested(links) => {
                by = Cause::Group(trace.groups.len());
                trace.groups.push(Group {
                    members: Vec::new(),
                    locked_by: None,
                    nested: links.clone(),
                });
            }
            Move::Eliminate(cell, digit) => trace.remove((*cell, *digit), by),
        }
    }
    trace
}

impl<P: Marks> Trace<P> {
    fn place(&mut self, cell: Cell, digit: u8) {
        if self.grid.value(cell) != 0 || self.grid.candidates(cell) & bit(digit) == 0 {
            return;
        }
        let why = self.trigger(cell, digit);
        self.forced_by.insert((cell, digit), why);
        let by = Cause::Placed((cell, digit));
        for other in digits(self.grid.candidates(cell) & !bit(digit)) {
            self.remove((cell, other), by);
        }
        for at in 0..self.grid.peers_of(cell).len() {
            let peer = usize::from(self.grid.peers_of(cell)[at]);
            self.remove((peer, digit), by);
        }
        self.grid.place(cell, digit);
    }

    fn remove(&mut self, (cell, digit): Candidate, by: Cause) {
        if self.grid.candidates(cell) & bit(digit) == 0 {
            return;
        }
        self.clock += 1;
        self.removed
            .insert((cell, digit), Removal { at: self.clock, by });
        self.grid.eliminate(cell, digit);
    }

    /// Of the candidates whose removal left `digit` alone in `cell` (its other
    /// digits) or in one of its houses (the digit's other places), the set that
    /// was complete first: its last removal, the one that forced the placement.
    fn trigger(&self, cell: Cell, digit: u8) -> Option<Candidate> {
        let size = self.grid.size() as u8;
        let mut first = Earliest(None);
        if self.grid.candidates(cell) == bit(digit) {
            first.take(self.latest((1..=size).filter(|&d| d != digit).map(|d| (cell, d))));
        }
        for &house in self.grid.houses_of(cell) {
            let house = usize::from(house);
            let cells = self.grid.house(house);
            let places = self.grid.places(house, digit);
            let alone = places.count_ones() == 1
                && usize::from(cells[places.trailing_zeros() as usize]) == cell;
            if alone {
                let others = cells.iter().map(|&other| usize::from(other));
                first.take(self.latest(others.filter(|&other| other != cell).map(|c| (c, digit))));
            }
        }
        first.0.map(|(_, candidate)| candidate)
    }

    /// The removal that locked a group: of the houses holding all its cells
    /// where its digit has no other place, the one whose other places went
    /// first, and the last of them to go.
    fn locking(&self, members: &[Candidate]) -> Option<Candidate> {
        let &(first, digit) = members.first()?;
        let cells: Vec<Cell> = members.iter().map(|&(cell, _)| cell).collect();
        let mut reasons: Vec<Vec<Candidate>> = Vec::new();
        for &house in self.grid.houses_of(first) {
            let house = usize::from(house);
            let all = self.grid.house(house);
            let holds_all = cells
                .iter()
                .all(|cell| all.iter().any(|&c| usize::from(c) == *cell));
            let others: Vec<Candidate> = all
                .iter()
                .map(|&c| (usize::from(c), digit))
                .filter(|(c, _)| !cells.contains(c))
                .collect();
            let locked = others
                .iter()
                .all(|&(c, d)| self.grid.candidates(c) & bit(d) == 0);
            if holds_all && locked {
                reasons.push(others);
            }
        }
        reasons
            .into_iter()
            .filter_map(|reason| self.latest(reason))
            .min_by_key(|&(at, _)| at)
            .map(|(_, candidate)| candidate)
    }

    /// The candidate of `set` removed last in the replay, with when.
    fn latest(&self, set: impl IntoIterator<Item = Candidate>) -> Option<(u32, Candidate)> {
        set.into_iter()
            .filter_map(|candidate| Some((self.removed.get(&candidate)?.at, candidate)))
            .max_by_key(|&(at, _)| at)
    }

    /// What broke the grid first (the cell left without a candidate, or the
    /// house left without a place for a digit, whose last removal came first):
    /// the candidates the moves took from it, in the order they went.
    fn breaking(&self) -> Option<Vec<Candidate>> {
        let size = self.grid.size();
        // The reason whose last removal came first: a cell, or a house and digit.
        let mut first = Earliest(None);
        for cell in 0..self.grid.shape().cells() {
            if self.grid.value(cell) == 0 && self.grid.candidates(cell) == 0 {
                let latest = self.latest((1..=size as u8).map(|d| (cell, d)));
                first.take(latest.map(|(at, _)| (at, (None, cell, 0))));
            }
        }
        for house in 0..self.grid.house_count() {
            let cells = self.grid.house(house);
            let held = cells.iter().fold(0, |held, &cell| {
                held | bit(self.grid.value(usize::from(cell)))
            });
            for digit in 1..=size as u8 {
                if held & bit(digit) == 0 && self.grid.places(house, digit) == 0 {
                    let all = cells.iter().map(|&c| (usize::from(c), digit));
                    let latest = self.latest(all);
                    first.take(latest.map(|(at, _)| (at, (Some(house), 0, digit))));
                }
            }
        }
        let first: Vec<Candidate> = match first.0?.1 {
            (None, cell, _) => (1..=size as u8).map(|d| (cell, d)).collect(),
            (Some(house), _, digit) => self
                .grid
                .house(house)
                .iter()
                .map(|&c| (usize::from(c), digit))
                .collect(),
        };
        let mut taken: Vec<(u32, Candidate)> = first
            .into_iter()
            .filter_map(|candidate| Some((self.removed.get(&candidate)?.at, candidate)))
            .collect();
        taken.sort_unstable();
        Some(taken.into_iter().map(|(_, candidate)| candidate).collect())
    }

    /// The links from the assumption to the removal `last`, followed back
    /// through the placement that made each removal and the removal that
    /// forced each placement.
    fn back_from(&self, last: Candidate) -> Vec<Link> {
        let mut links = Vec::new();
        let mut removed = last;
        // Each round goes one placement back: at most one round a placement.
        // Each round goes back one placement or one group: at most one round
        // a move.
        for _ in 0..=self.forced_by.count + self.groups.len() {
            let Some(removal) = self.removed.get(&removed) else {
                break;
            };
            let cause = match removal.by {
                Cause::Placed(placed) => {
                    links.push(Link {
                        start: placed,
                        end: removed,
                        strong: false,
                    });
                    let Some(&Some(cause)) = self.forced_by.get(&placed) else {
                        break;
                    };
                    links.push(Link {
                        start: cause,
                        end: placed,
                        strong: true,
                    });
                    cause
                }
                // A group is drawn as its members: weak links from each to what
                // it removed, strong ones into each from what locked it (one of
                // them is true).
                Cause::Group(index) => {
                    let group = &self.groups[index];
                    links.extend(group.nested.iter().rev().copied());
                    for &member in group.members.iter().rev() {
                        links.push(Link {
                            start: member,
                            end: removed,
                            strong: false,
                        });
                    }
                    let Some(cause) = group.locked_by else {
                        break;
                    };
                    for &member in group.members.iter().rev() {
                        links.push(Link {
                            start: cause,
                            end: member,
                            strong: true,
                        });
                    }
                    cause
                }
                Cause::Unknown => break,
            };
            removed = cause;
        }
        links.reverse();
        links
    }
}

/// A value for some candidates of a grid, looked up by the candidate.
struct ByCandidate<T> {
    values: Vec<Option<T>>,
    size: usize,
    /// How many candidates have one.
    count: usize,
}

impl<T: Copy> ByCandidate<T> {
    fn new<P: Marks>(grid: &P) -> ByCandidate<T> {
        let size = grid.size();
        ByCandidate {
            values: vec![None; grid.shape().cells() * size],
            size,
            count: 0,
        }
    }

    fn get(&self, &(cell, digit): &Candidate) -> Option<&T> {
        let at = cell * self.size + usize::from(digit).checked_sub(1)?;
        self.values.get(at)?.as_ref()
    }

    fn insert(&mut self, (cell, digit): Candidate, value: T) {
        let Some(at) = usize::from(digit)
            .checked_sub(1)
            .map(|d| cell * self.size + d)
        else {
            return;
        };
        if let Some(slot) = self.values.get_mut(at) {
            self.count += usize::from(slot.is_none());
            *slot = Some(value);
        }
    }
}

/// The earliest of some removals, each the last of its set (the first set to be
/// complete), with what it stands for.
struct Earliest<T>(Option<(u32, T)>);

impl<T> Earliest<T> {
    fn take(&mut self, found: Option<(u32, T)>) {
        if let Some(found) = found
            && self.0.as_ref().is_none_or(|(best, _)| found.0 < *best)
        {
            self.0 = Some(found);
        }
    }
}
