//! `Algorithm::Propagation`: bitmask candidates, naked and hidden singles at every
//! node, branching on the empty cell with the fewest candidates. Resumable state:
//! a pause can come after any placement or backtrack.
//! Knows nothing of who listens to its events or of other engines.

use super::grid::{Grid, Placed};
use super::singles::{Fixpoint, Settled};
use super::{Found, Interrupted, Reason, Recorder, Sink, Status};
use crate::board::{Board, CELLS};

/// The search's state: the grid, every placement in order (to take back), the open
/// guesses, and what it is doing.
#[derive(Clone)]
pub(super) struct Propagation {
    grid: Grid,
    trail: Vec<Placed>,
    branches: Vec<Branch>,
    phase: Phase,
}

/// An open guess: where the trail stood before it, its cell, and the digits not
/// yet tried there.
#[derive(Clone, Copy)]
struct Branch {
    trail_len: usize,
    cell: u8,
    untried: u16,
}

#[derive(Clone, Copy)]
enum Phase {
    /// Propagating singles at the newest node.
    Settle(Fixpoint),
    /// Picking the next digit of the newest open guess.
    Next,
    /// Taking back the trail beyond `keep`, then going on with `then`.
    Undo { keep: usize, then: Then },
}

#[derive(Clone, Copy)]
enum Then {
    /// Every guess is closed: the search is over.
    Exhausted,
    /// A guess was closed: go on with the one before it.
    Next,
    /// Place this guess and propagate.
    Guess(Placed),
}

impl Propagation {
    pub(super) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        loop {
            self.phase = match self.phase {
                Phase::Settle(fixpoint) => match self.settle(fixpoint, recorder, found)? {
                    Some(status) => return Ok(status),
                    None => Phase::Next,
                },
                Phase::Next => self.next_guess(),
                Phase::Undo { keep, then } => {
                    if self.grid.undo_to(recorder, &mut self.trail, keep)? == Status::Paused {
                        return Ok(Status::Paused);
                    }
                    match then {
                        Then::Exhausted => return Ok(Status::Done),
                        Then::Next => Phase::Next,
                        Then::Guess(guess) => {
                            self.grid.place(recorder, &mut self.trail, guess)?;
                            self.phase = Phase::Settle(Fixpoint::START);
                            if recorder.pausing() {
                                return Ok(Status::Paused);
                            }
                            Phase::Settle(Fixpoint::START)
                        }
                    }
                }
            };
        }
    }

    /// Propagates singles at the newest node from where `fixpoint` stood; then
    /// records a solution or opens a guess on the most constrained cell. The
    /// status to return (paused, or done when a dead end completes the search),
    /// or `None` to go on with the next guess.
    fn settle<S: Sink>(
        &mut self,
        mut fixpoint: Fixpoint,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Option<Status>, Interrupted> {
        let depth = self.branches.len() as u32;
        let settled = fixpoint.run(&mut self.grid, recorder, &mut self.trail, depth);
        // Where to go on from, should this run pause or be interrupted.
        self.phase = Phase::Settle(fixpoint);
        let dead_end = match settled? {
            Settled::Paused => return Ok(Some(Status::Paused)),
            Settled::Contradiction => true,
            Settled::Consistent => match most_constrained(&self.grid) {
                None => {
                    found.record(&self.grid.cells);
                    true
                }
                Some((cell, untried)) => {
                    self.branches.push(Branch {
                        trail_len: self.trail.len(),
                        cell,
                        untried,
                    });
                    false
                }
            },
        };
        if dead_end && found.count >= found.wanted {
            return Ok(Some(Status::Done));
        }
        Ok(None)
    }

    pub(super) fn new(board: &Board) -> Propagation {
        Propagation {
            grid: Grid::new(board),
            trail: Vec::with_capacity(CELLS),
            branches: Vec::with_capacity(CELLS),
            phase: Phase::Settle(Fixpoint::START),
        }
    }

    /// Takes the next untried digit of the newest open guess, after undoing what
    /// the previous digit led to; guesses with nothing left are closed.
    fn next_guess(&mut self) -> Phase {
        let Some(branch) = self.branches.last_mut() else {
            return Phase::Undo {
                keep: 0,
                then: Then::Exhausted,
            };
        };
        let (keep, cell) = (branch.trail_len, branch.cell);
        if branch.untried == 0 {
            self.branches.pop();
            return Phase::Undo {
                keep,
                then: Then::Next,
            };
        }
        let digit = branch.untried.trailing_zeros() as u8 + 1;
        branch.untried &= branch.untried - 1;
        let guess = Placed {
            cell,
            digit,
            reason: Reason::Guess,
            depth: self.branches.len() as u32,
        };
        Phase::Undo {
            keep,
            then: Then::Guess(guess),
        }
    }
}

/// The empty cell with the fewest candidates and those candidates, or `None` when
/// the grid is full. Called after a consistent fixpoint, so no empty cell has fewer
/// than two.
fn most_constrained(grid: &Grid) -> Option<(u8, u16)> {
    let mut best: Option<(u8, u16)> = None;
    let mut best_count = u32::MAX;
    for cell in 0..CELLS {
        if grid.cells[cell] != 0 {
            continue;
        }
        let candidates = grid.candidates(cell);
        let count = candidates.count_ones();
        if count < best_count {
            best = Some((cell as u8, candidates));
            best_count = count;
            if count <= 2 {
                break;
            }
        }
    }
    best
}
