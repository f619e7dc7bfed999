//! `Algorithm::Backtracking` and `Algorithm::Singles` at sizes other than 9x9:
//! the classic row-major backtracking (first empty cell, digits 1..N in order,
//! each checked against its row, column and box), alone or after naked and
//! hidden singles to a fixpoint. Resumable after any step.

use super::work::{Strength, Work};
use crate::board::Grid;
use crate::solver::{Found, Interrupted, Reason, Recorder, Sink, Status};

/// Row-major backtracking over the cells of a grid empty when it began.
#[derive(Clone)]
pub(in crate::solver) struct RowMajor {
    empties: Vec<u16>,
    /// `untried[k]`: the digits still to try at level `k`, as bits.
    untried: Vec<u64>,
    level: usize,
    base_depth: u32,
}

impl RowMajor {
    fn new(work: &Work, base_depth: u32) -> RowMajor {
        let empties: Vec<u16> = (0..work.cells.len())
            .filter(|&cell| work.cells[cell] == 0)
            .map(|cell| cell as u16)
            .collect();
        let mut untried = vec![0; empties.len() + 1];
        untried[0] = work.all;
        RowMajor {
            empties,
            untried,
            level: 0,
            base_depth,
        }
    }

    /// Goes on with the search; `Done` when a wanted solution was reached (the
    /// grid holds it) or every placement it made has been taken back.
    fn run<S: Sink>(
        &mut self,
        work: &mut Work,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        let mut level = self.level;
        loop {
            if level == self.empties.len() {
                if found.record_sized(&work.cells) {
                    self.level = level;
                    return Ok(Status::Done);
                }
            } else {
                let cell = usize::from(self.empties[level]);
                let options = self.untried[level] & work.free(cell);
                if options != 0 {
                    let bit = options & options.wrapping_neg();
                    let digit = bit.trailing_zeros() as u8 + 1;
                    // Digits up to the one placed were tried; the next try starts above it.
                    self.untried[level] = work.all & !(bit | (bit - 1));
                    let depth = self.base_depth + level as u32 + 1;
                    recorder.place(cell, digit, Reason::Guess, depth)?;
                    work.set(cell, digit);
                    level += 1;
                    self.untried[level] = work.all;
                    if recorder.pausing() {
                        self.level = level;
                        return Ok(Status::Paused);
                    }
                    continue;
                }
            }
            if level == 0 {
                self.level = 0;
                return Ok(Status::Done);
            }
            level -= 1;
            let cell = usize::from(self.empties[level]);
            let depth = self.base_depth + level as u32 + 1;
            recorder.backtrack(cell, work.cells[cell], Reason::Guess, depth)?;
            work.clear(cell);
            if recorder.pausing() {
                self.level = level;
                return Ok(Status::Paused);
            }
        }
    }
}

/// Plain row-major backtracking, or singles to a fixpoint first.
#[derive(Clone)]
pub(in crate::solver) struct Classic {
    work: Work,
    phase: Phase,
}

#[derive(Clone)]
enum Phase {
    /// Singles to a fixpoint (`Algorithm::Singles` only).
    Singles,
    Backtracking(RowMajor),
    /// Exhausted: the singles taken back, so a replay ends where it began.
    Undo,
}

impl Classic {
    /// `singles`: fill singles to a fixpoint before backtracking.
    pub(in crate::solver) fn new(grid: &Grid, singles: bool) -> Classic {
        let work = Work::new(grid);
        let phase = if singles {
            Phase::Singles
        } else {
            Phase::Backtracking(RowMajor::new(&work, 0))
        };
        Classic { work, phase }
    }

    pub(in crate::solver) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        loop {
            self.phase = match &mut self.phase {
                Phase::Singles => {
                    self.work.propagate(recorder, Strength::Singles, 0)?;
                    if self.work.broken {
                        Phase::Undo
                    } else {
                        Phase::Backtracking(RowMajor::new(&self.work, 0))
                    }
                }
                Phase::Backtracking(row_major) => {
                    match row_major.run(&mut self.work, recorder, found)? {
                        Status::Paused => return Ok(Status::Paused),
                        Status::Done if found.count < found.wanted => Phase::Undo,
                        Status::Done => return Ok(Status::Done),
                    }
                }
                Phase::Undo => {
                    self.work.undo_to(recorder, 0)?;
                    return Ok(Status::Done);
                }
            };
            if recorder.pausing() {
                return Ok(Status::Paused);
            }
        }
    }
}
