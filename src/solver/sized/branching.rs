//! `Algorithm::Propagation` at sizes other than 9x9 and `Algorithm::Wide` at
//! every size: propagation at every node (singles; for `Wide` box-line
//! reductions and Hall sets too), then a two-way guess: a digit in the cell with
//! the fewest candidates (or in a house's place when a digit has two places
//! there), and when that fails, the digit out of the cell. Resumable: the stack
//! of guesses is explicit, and each keeps a snapshot of the candidates to come
//! back to.

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

/// An open guess: the digit placed in the cell, the candidates before it and
/// the trail before it. When the placement fails, the other branch takes the
/// digit out of the cell instead.
#[derive(Clone, Copy)]
struct Frame {
    cell: u16,
    digit: u8,
    trail_len: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Propagate,
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
                    } else if let Some((cell, digit)) = self.choose() {
                        self.saved.extend_from_slice(&self.work.candidates);
                        self.frames.push(Frame {
                            cell: cell as u16,
                            digit,
                            trail_len: self.work.trail.len(),
                        });
                        let guess = Placed {
                            cell: cell as u16,
                            digit,
                            reason: Reason::Guess,
                            depth: depth + 1,
                        };
                        self.work.place(recorder, guess)?;
                        Next::Propagate
                    } else if found.record_sized(&self.work.cells) {
                        return Ok(Status::Done);
                    } else {
                        Next::Backtrack
                    };
                }
                Next::Backtrack => {
                    let Some(frame) = self.frames.pop() else {
                        // Exhausted: take everything back, so a replay ends at the givens.
                        self.work.undo_to(recorder, 0)?;
                        return Ok(Status::Done);
                    };
                    self.work.undo_to(recorder, frame.trail_len)?;
                    let cells = self.work.candidates.len();
                    let start = self.saved.len() - cells;
                    self.work.candidates.copy_from_slice(&self.saved[start..]);
                    self.saved.truncate(start);
                    // The other branch: the digit is not in the cell.
                    self.work
                        .eliminate(usize::from(frame.cell), 1u64 << (frame.digit - 1));
                    self.next = if self.work.broken {
                        Next::Backtrack
                    } else {
                        Next::Propagate
                    };
                }
            }
            if recorder.pausing() {
                return Ok(Status::Paused);
            }
        }
    }

    /// The guess to make: the first empty cell with the fewest candidates per
    /// dead-end weight and its lowest digit, or, when that cell has more than
    /// two candidates and some house has a digit with two places, the digit in
    /// its first place. `None` when the grid is full.
    fn choose(&self) -> Option<(usize, u8)> {
        let work = &self.work;
        // Fewest candidates per weight (count / weight, compared crosswise).
        let mut best = None;
        let (mut fewest, mut heaviest) = (u64::from(u64::BITS) + 1, 1u64);
        for (cell, &options) in work.candidates.iter().enumerate() {
            if options == 0 {
                continue;
            }
            let count = u64::from(options.count_ones());
            let weight = u64::from(work.weight[cell]);
            if count * heaviest < fewest * weight {
                (best, fewest, heaviest) = (Some(cell), count, weight);
                if count == 1 {
                    break;
                }
            }
        }
        let cell = best?;
        let digit = work.candidates[cell].trailing_zeros() as u8 + 1;
        if fewest <= 2 {
            return Some((cell, digit));
        }
        // A digit with two places in some house splits the search as well as a
        // cell with two candidates does.
        for house in 0..3 * work.size {
            let [_, twice, more] = work.tally(house);
            let pairs = twice & !more;
            if pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                let place = work.place_of(house, bit)?;
                return Some((usize::from(place), bit.trailing_zeros() as u8 + 1));
            }
        }
        Some((cell, digit))
    }
}
