//! The wide engine at sizes other than 9x9: a search that learns from its dead
//! ends (conflict-driven clause learning, as SAT solvers do), over one
//! true-or-false variable a cell and digit ("digit d is in cell c").
//!
//! The rules are 4 x N x N groups of N variables of which exactly one is true:
//! each cell holds one digit, and each row, column and box holds each digit in
//! one cell. They are propagated natively: a true variable makes the rest of
//! its groups false, a group with one variable left not false makes it true (a
//! naked single for a cell's group, a hidden single for a house's), and a house
//! whose places left for a digit all lie where it crosses another house (a row
//! or column and a box) rules the digit out of the rest of the other (pointing
//! and claiming). A dead end is explained back to the guesses that caused it;
//! the clause that rules the cause out (shortened: placements named instead of
//! the digits they ruled out, and literals implied by the others dropped) is
//! kept and propagated like the rules (two watched literals), the search jumps
//! back to where the clause bites, and guesses go to the variables that took
//! part in recent dead ends (activity that decays), always as "the digit is in
//! the cell", which settles a whole cell and its houses at once (a guess that
//! a digit is not there settles little). It starts over after a Luby number of
//! dead ends, keeping what it learned, and forgets the half of its clauses
//! that were least useful (by how many guess levels they span) now and then,
//! so memory stays bounded.
//!
//! Events: a variable turning true places its digit (a guess, or the single
//! that forced it; a learned clause forcing it counts as a naked single, since
//! it rules out the cell's other digits); a placement taken back on a jump or a
//! restart is a backtrack. Counting goes on after a solution with a clause
//! that excludes the guesses that led to it. Deterministic, so a resumed
//! stream sees the same search; the state lives here between runs, so a paused
//! search goes on where it stopped.

use super::branching::luby;
use crate::board::Grid;
use crate::solver::{Found, Interrupted, Reason, Recorder, Sink, Status};

mod analyze;
mod clauses;
mod heap;
mod propagate;
mod tables;
#[cfg(test)]
mod tests;

use analyze::Scratch;
use clauses::{Conflict, Lit, Store, Watch, Why, positive, var};
use heap::Heap;
use tables::Tables;

/// The search's state.
#[derive(Clone)]
pub(in crate::solver) struct Learning {
    tables: &'static Tables,
    n: usize,
    cells: Vec<u8>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    level: Vec<u32>,
    why: Vec<Why>,
    trail: Vec<Lit>,
    /// Where each guess level starts on the trail.
    levels: Vec<usize>,
    /// Trail entries below this have had their consequences drawn.
    head: usize,
    /// Per group: a bit for each of its members not false (counted once its
    /// entry on the trail has had its consequences drawn).
    open: Vec<u64>,
    clauses: Store,
    /// Per literal: the clauses watching it (they look at it when it turns false).
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    seen: Vec<u8>,
    learnt: Vec<Lit>,
    scratch: Scratch,
    conflicts: u64,
    /// Dead ends left before the next restart, and which restart is next.
    until_restart: u64,
    restarts: u64,
    /// Dead ends at which clauses are next thinned out.
    next_reduce: u64,
    started: bool,
    /// Set once the search is over (exhausted or done).
    finished: bool,
    /// A solution found before this search began, to be ruled out.
    excluded: Option<Vec<u8>>,
}

const RESTART_UNIT: u64 = 100;
/// How much slower older dead ends count in a variable's activity.
const DECAY: f64 = 0.95;

impl Learning {
    /// The search of `grid`'s solutions other than `excluded` (a solution
    /// found already, when counting goes on).
    pub(in crate::solver) fn new(grid: &Grid, excluded: Option<Vec<u8>>) -> Learning {
        let shape = grid.shape();
        let geometry = shape.geometry();
        let n = shape.size();
        let cells = shape.cells();
        let vars = cells * n;
        Learning {
            tables: Tables::of(geometry),
            n,
            cells: grid.cells().to_vec(),
            value: vec![0; vars],
            level: vec![0; vars],
            why: vec![Why::Decision; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::new(),
            head: 0,
            open: vec![u64::MAX >> (64 - n); 4 * cells],
            clauses: Store::default(),
            watches: vec![Vec::new(); 2 * vars],
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Heap::new(vars),
            seen: vec![0; vars],
            learnt: Vec::new(),
            scratch: Scratch::default(),
            conflicts: 0,
            until_restart: RESTART_UNIT,
            restarts: 0,
            next_reduce: 2000,
            started: false,
            finished: false,
            excluded,
        }
    }

    /// The four groups of variable `v`: its cell (the group of the same
    /// number), and its digit in its row, column and box.
    #[inline(always)]
    pub(super) fn groups_of(&self, v: usize) -> [usize; 4] {
        self.tables.groups[v].map(|g| g as usize)
    }

    /// The cell of variable `v`.
    #[inline(always)]
    pub(super) fn cell_of(&self, v: usize) -> usize {
        self.tables.groups[v][0] as usize
    }

    /// The `i`-th variable of group `g`.
    #[inline(always)]
    pub(super) fn member(&self, g: usize, i: usize) -> usize {
        self.tables.members[g * self.n + i] as usize
    }

    #[inline(always)]
    pub(super) fn lit_value(&self, lit: Lit) -> i8 {
        let v = self.value[var(lit)];
        if lit & 1 == 0 { v } else { -v }
    }

    pub(super) fn depth(&self) -> u32 {
        self.levels.len() as u32
    }

    /// The event reason of a true variable.
    fn reason_of(&self, v: usize) -> Reason {
        match self.why[v] {
            Why::Decision => Reason::Guess,
            Why::Group(g) if (g as usize) >= self.cells.len() => Reason::HiddenSingle,
            _ => Reason::NakedSingle,
        }
    }

    /// Takes back every assignment above `level` (with events), keeping the
    /// counts of the groups true to what is left.
    fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        keep: usize,
    ) -> Result<(), Interrupted> {
        while self.trail.len() > keep {
            let lit = self.trail.pop().expect("above keep");
            let v = var(lit);
            let index = self.trail.len();
            if lit & 1 == 0 {
                let cell = self.cell_of(v);
                if self.why[v] != Why::Given {
                    let reason = self.reason_of(v);
                    recorder.backtrack(cell, self.cells[cell], reason, self.level[v])?;
                }
                self.cells[cell] = 0;
            } else if index < self.head {
                for (g, slot) in self.groups_of(v).into_iter().zip(self.tables.slots[v]) {
                    self.open[g] |= 1 << slot;
                }
            }
            self.value[v] = 0;
            self.heap.insert(v, &self.activity);
        }
        self.head = self.head.min(keep);
        Ok(())
    }

    /// Jumps back to guess level `level`.
    fn jump<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        level: usize,
    ) -> Result<(), Interrupted> {
        if level >= self.levels.len() {
            return Ok(());
        }
        let keep = self.levels[level];
        self.undo_to(recorder, keep)?;
        self.levels.truncate(level);
        Ok(())
    }

    /// The next guess: the most active unassigned variable, made true.
    fn decide(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[v] == 0 {
                return Some(positive(v));
            }
        }
        None
    }

    /// Sets up the givens; a conflict when they contradict at once.
    fn start<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
    ) -> Result<Option<Conflict>, Interrupted> {
        self.started = true;
        for v in 0..self.value.len() {
            self.heap.insert(v, &self.activity);
        }
        let givens: Vec<(usize, u8)> = self
            .cells
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .map(|(c, &d)| (c, d))
            .collect();
        self.cells.iter_mut().for_each(|d| *d = 0);
        let mut given = vec![false; self.cells.len()];
        for (cell, digit) in givens {
            given[cell] = true;
            let v = cell * self.n + usize::from(digit) - 1;
            if let Some(conflict) = self.assign(recorder, positive(v), Why::Given)? {
                return Ok(Some(conflict));
            }
        }
        if let Some(solution) = self.excluded.take() {
            // Some cell that is not a given holds another digit.
            self.learnt = (0..solution.len())
                .filter(|&cell| !given[cell])
                .map(|cell| positive(cell * self.n + usize::from(solution[cell]) - 1) | 1)
                .collect();
            match self.learnt.len() {
                0 => return Ok(Some(Conflict::Pair(0, 0))),
                1 => {
                    let lit = self.learnt[0];
                    return self.assign(recorder, lit, Why::Learned);
                }
                _ => {
                    self.learn(true);
                }
            }
        }
        Ok(None)
    }

    /// Ends an exhausted search: every placement taken back, so a replay ends
    /// at the givens.
    fn exhausted<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
    ) -> Result<Status, Interrupted> {
        self.finished = true;
        self.undo_to(recorder, 0)?;
        self.levels.clear();
        Ok(Status::Done)
    }

    pub(in crate::solver) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        if self.finished {
            return Ok(Status::Done);
        }
        if !self.started && self.start(recorder)?.is_some() {
            return self.exhausted(recorder);
        }
        loop {
            if let Some(conflict) = self.propagate(recorder)? {
                self.conflicts += 1;
                if self.levels.is_empty() {
                    return self.exhausted(recorder);
                }
                let back = self.analyze(conflict);
                self.jump(recorder, back)?;
                let asserting = self.learnt[0];
                let why = if self.learnt.len() == 1 {
                    Why::Learned
                } else {
                    Why::Clause(self.learn(false))
                };
                if self.assign(recorder, asserting, why)?.is_some() {
                    // The clause asserts a literal that is free after the jump.
                    return self.exhausted(recorder);
                }
                self.until_restart = self.until_restart.saturating_sub(1);
                if self.until_restart == 0 {
                    self.restarts += 1;
                    self.until_restart = RESTART_UNIT * luby(self.restarts + 1);
                    self.jump(recorder, 0)?;
                }
                if self.conflicts >= self.next_reduce {
                    self.next_reduce = self.conflicts + 2000 + 300 * (self.restarts.min(50));
                    self.reduce();
                }
            } else {
                match self.decide() {
                    Some(lit) => {
                        self.levels.push(self.trail.len());
                        // After a full propagation every variable of a filled
                        // cell is false: a guess never lands on one.
                        let clash = self.assign(recorder, lit, Why::Decision)?;
                        debug_assert!(clash.is_none());
                    }
                    None => {
                        if found.record_sized(&self.cells) {
                            self.finished = true;
                            return Ok(Status::Done);
                        }
                        // Counting on: rule out this solution's guesses.
                        let guesses: Vec<Lit> =
                            self.levels.iter().map(|&at| self.trail[at] ^ 1).collect();
                        if guesses.is_empty() {
                            return self.exhausted(recorder);
                        }
                        self.jump(recorder, 0)?;
                        self.learnt = guesses;
                        if self.learnt.len() == 1 {
                            let lit = self.learnt[0];
                            if self.assign(recorder, lit, Why::Learned)?.is_some() {
                                return self.exhausted(recorder);
                            }
                        } else {
                            self.learn(true);
                        }
                    }
                }
            }
            if recorder.pausing() {
                return Ok(Status::Paused);
            }
        }
    }
}
