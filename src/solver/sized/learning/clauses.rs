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
    /// A learned clause of one literal: true for good, at level 0.
    Learned,
}

/// A learned clause.
#[derive(Clone)]
pub(super) struct Clause {
    pub(super) lits: Vec<Lit>,
    /// Guess levels among its literals when learned (lower: more useful).
    pub(super) lbd: u32,
    pub(super) deleted: bool,
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
}
