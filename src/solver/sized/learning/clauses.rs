//! The learning search's literals, clauses, watches and the reasons of
//! values and dead ends.

/// A literal: variable `v` true is `2v`, false is `2v + 1`.
pub(super) type Lit = u32;

#[inline(always)]
pub(super) fn var(lit: Lit) -> usize {
    (lit >> 1) as usize
}

#[inline(always)]
pub(super) fn positive(v: usize) -> Lit {
    (v as Lit) << 1
}

/// Why a variable has its value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Why {
    /// A given (true) of the puzzle.
    Given,
    /// A guess.
    Decision,
    /// True: every other variable of this group is false.
    Group(u32),
    /// False: this variable of one of its groups is true.
    Pair(u32),
    /// Forced by this learned clause (its first literal).
    Clause(u32),
    /// False: its digit's last places in a house lie where that house
    /// crosses this variable's house, by cut `code >> 6` for digit
    /// `code & 63`.
    Cut(u32),
    /// A learned clause of one literal: true for good, at level 0.
    Learned,
}

/// The learned clauses, one after another in one vector (a clause's
/// literals sit next to its header, and clauses learned together sit
/// together): a clause is the offset of its header, which holds its length
/// and its guess-level count when learned (lower: more useful; 0: kept for
/// good). Forgotten clauses leave a hole until the holes are half the store;
/// then the live ones move together.
#[derive(Clone, Default)]
pub(super) struct Store {
    words: Vec<u32>,
    /// Words in forgotten clauses.
    holes: usize,
}

/// Header words before a clause's literals: its length and its level count.
const HEADER: usize = 2;
/// The level count of a forgotten clause.
const GONE: u32 = u32::MAX;

impl Store {
    /// Keeps `lits` (two or more) with level count `lbd`; the new clause.
    pub(super) fn add(&mut self, lits: &[Lit], lbd: u32) -> u32 {
        let at = self.words.len() as u32;
        self.words.push(lits.len() as u32);
        self.words.push(lbd);
        self.words.extend_from_slice(lits);
        at
    }

    pub(super) fn lits(&self, c: u32) -> &[Lit] {
        let at = c as usize;
        &self.words[at + HEADER..at + HEADER + self.words[at] as usize]
    }

    pub(super) fn lits_mut(&mut self, c: u32) -> &mut [Lit] {
        let at = c as usize;
        let len = self.words[at] as usize;
        &mut self.words[at + HEADER..at + HEADER + len]
    }

    pub(super) fn lbd(&self, c: u32) -> u32 {
        self.words[c as usize + 1]
    }

    pub(super) fn is_gone(&self, c: u32) -> bool {
        self.lbd(c) == GONE
    }

    pub(super) fn forget(&mut self, c: u32) {
        self.words[c as usize + 1] = GONE;
        self.holes += HEADER + self.words[c as usize] as usize;
    }

    /// Every clause kept, forgotten ones included (check [`Store::is_gone`]).
    pub(super) fn all(&self) -> impl Iterator<Item = u32> + '_ {
        let mut at = 0;
        std::iter::from_fn(move || {
            let c = at;
            at += HEADER + *self.words.get(c)? as usize;
            Some(c as u32)
        })
    }

    /// Moves the live clauses together when the holes are half the store;
    /// the clauses that moved, as (before, after) in order of `before`.
    pub(super) fn compact(&mut self) -> Option<Vec<(u32, u32)>> {
        if self.holes * 2 < self.words.len() {
            return None;
        }
        let mut moved = Vec::new();
        let mut words = Vec::with_capacity(self.words.len() - self.holes);
        for c in self.all().filter(|&c| !self.is_gone(c)) {
            moved.push((c, words.len() as u32));
            let at = c as usize;
            words.extend_from_slice(&self.words[at..at + HEADER + self.words[at] as usize]);
        }
        self.words = words;
        self.holes = 0;
        Some(moved)
    }
}

/// A clause watching a literal, with another of its literals: when that one
/// is true the clause is satisfied and need not be read.
#[derive(Clone, Copy)]
pub(super) struct Watch {
    pub(super) clause: u32,
    pub(super) blocker: Lit,
}

/// What went wrong at a dead end.
#[derive(Clone, Copy)]
pub(super) enum Conflict {
    /// Two variables of a group both true.
    Pair(u32, u32),
    /// Every variable of a group false.
    Group(u32),
    /// Every literal of a learned clause false.
    Clause(u32),
    /// This variable true against a cut (variable, [`Why::Cut`]'s code).
    Cut(u32, u32),
}
