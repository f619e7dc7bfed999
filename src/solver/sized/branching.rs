//! `Algorithm::Propagation` at sizes other than 9x9 and `Algorithm::Wide` at
//! every size: propagation at every node (singles; for `Wide` box-line
//! reductions too), then a guess on the cell with the fewest candidates, digits
//! in increasing order. Resumable: the stack of guesses is explicit, and each
//! keeps a snapshot of the candidates to come back to.

use super::work::{Placed, Strength, Work};
use crate::board::Grid;
use crate::solver::{Found, Interrupted, Reason, Recorder, Sink, Status};

/// The search's state.
#[derive(Clone)]
pub(in crate::solver) struct Branching {
    work: Work,
    strength: Strength,
    frames: Vec<Frame>,
    /// The candidates as they were when each frame was opened, N x N a frame.
    saved: Vec<u64>,
    next: Next,
}

/// An open guess: its cell, the digits not tried yet, and the trail before it.
#[derive(Clone, Copy)]
struct Frame {
    cell: u16,
    untried: u64,
    trail_len: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Propagate,
    Try,
    Backtrack,
}

impl Branching {
    pub(in crate::solver) fn new(grid: &Grid, strength: Strength) -> Branching {
        Branching {
            work: Work::new(grid),
            strength,
            frames: Vec::new(),
            saved: Vec::new(),
            next: Next::Propagate,
        }
    }

    pub(in crate::solver) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        loop {
            match self.next {
                Next::Propagate => {
                    let depth = self.frames.len() as u32;
                    self.work.propagate(recorder, self.strength, depth)?;
                    self.next = if self.work.broken {
                        Next::Backtrack
                    } else if let Some(cell) = self.fewest_candidates() {
                        self.saved.extend_from_slice(&self.work.candidates);
                        self.frames.push(Frame {
                            cell: cell as u16,
                            untried: self.work.candidates[cell],
                            trail_len: self.work.trail.len(),
                        });
                        Next::Try
                    } else if found.record_sized(&self.work.cells) {
                        return Ok(Status::Done);
                    } else {
                        Next::Backtrack
                    };
                }
                Next::Try => {
                    let depth = self.frames.len() as u32;
                    let Some(frame) = self.frames.last_mut() else {
                        self.next = Next::Backtrack;
                        continue;
                    };
                    let bit = frame.untried & frame.untried.wrapping_neg();
                    frame.untried ^= bit;
                    let guess = Placed {
                        cell: frame.cell,
                        digit: bit.trailing_zeros() as u8 + 1,
                        reason: Reason::Guess,
                        depth,
                    };
                    self.work.place(recorder, guess)?;
                    self.next = Next::Propagate;
                }
                Next::Backtrack => {
                    let Some(&frame) = self.frames.last() else {
                        // Exhausted: take everything back, so a replay ends at the givens.
                        self.work.undo_to(recorder, 0)?;
                        return Ok(Status::Done);
                    };
                    self.work.undo_to(recorder, frame.trail_len)?;
                    let cells = self.work.candidates.len();
                    let start = self.saved.len() - cells;
                    self.work.candidates.copy_from_slice(&self.saved[start..]);
                    if frame.untried == 0 {
                        self.frames.pop();
                        self.saved.truncate(start);
                    } else {
                        self.next = Next::Try;
                    }
                }
            }
            if recorder.pausing() {
                return Ok(Status::Paused);
            }
        }
    }

    /// The empty cell with the fewest candidates (the first of them), or `None`
    /// when the grid is full.
    fn fewest_candidates(&self) -> Option<usize> {
        let mut best = None;
        let mut fewest = u32::MAX;
        for (cell, &options) in self.work.candidates.iter().enumerate() {
            if options == 0 {
                continue;
            }
            let count = options.count_ones();
            if count < fewest {
                (best, fewest) = (Some(cell), count);
                if count <= 2 {
                    break;
                }
            }
        }
        best
    }
}
