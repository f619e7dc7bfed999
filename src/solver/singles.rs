//! `Algorithm::Singles`: naked and hidden singles to a fixpoint, then classic
//! row-major backtracking over the cells still empty. Also owns the singles
//! fixpoint that `Algorithm::Propagation` runs at every node. Both as resumable
//! state: a pause can come after any placement.

use super::grid::{ALL_DIGITS, Grid, Placed, RowMajor, UNITS};
use super::{Found, Interrupted, Reason, Recorder, Sink, Status};
use crate::board::{Board, CELLS};

/// The search's state: the grid, the singles placed (to take back when the search
/// finds nothing), and its phase.
#[derive(Clone)]
pub(super) struct Singles {
    grid: Grid,
    trail: Vec<Placed>,
    phase: Phase,
}

#[derive(Clone)]
// The whole search is boxed (`Engine::Singles`): the phase's size costs nothing.
#[allow(clippy::large_enum_variant)]
enum Phase {
    /// Filling singles.
    Singles(Fixpoint),
    /// Backtracking over the rest.
    Backtracking(RowMajor),
    /// Exhausted: taking the singles back, so a replay ends where it began.
    Undo,
}

impl Singles {
    pub(super) fn new(board: &Board) -> Singles {
        Singles {
            grid: Grid::new(board),
            trail: Vec::with_capacity(CELLS),
            phase: Phase::Singles(Fixpoint::START),
        }
    }

    pub(super) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        loop {
            match &mut self.phase {
                Phase::Singles(fixpoint) => {
                    match fixpoint.run(&mut self.grid, recorder, &mut self.trail, 0)? {
                        Settled::Paused => return Ok(Status::Paused),
                        Settled::Consistent => {
                            self.phase = Phase::Backtracking(RowMajor::new(&self.grid, 0));
                        }
                        Settled::Contradiction => self.phase = Phase::Undo,
                    }
                }
                Phase::Backtracking(row_major) => {
                    match row_major.run(&mut self.grid, recorder, found)? {
                        Status::Paused => return Ok(Status::Paused),
                        Status::Done if found.count < found.wanted => self.phase = Phase::Undo,
                        Status::Done => return Ok(Status::Done),
                    }
                }
                Phase::Undo => return self.grid.undo_to(recorder, &mut self.trail, 0),
            }
        }
    }
}

/// Where a singles fixpoint stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settled {
    /// Paused after a placement: run it again to go on.
    Paused,
    /// Nothing more follows: no empty cell without candidates, no digit without a
    /// place in a unit.
    Consistent,
    /// The grid cannot be completed.
    Contradiction,
}

/// Naked singles, then hidden singles, until nothing changes, as resumable state:
/// which pass it is in and where.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fixpoint {
    stage: Stage,
    /// Whether this round (a naked pass and a hidden pass) placed anything.
    progress: bool,
}

#[derive(Debug, Clone, Copy)]
enum Stage {
    /// Looking for naked singles from this cell on.
    Naked(u8),
    /// Looking for hidden singles from this unit on.
    Hidden(u8),
}

impl Fixpoint {
    /// A fixpoint not yet begun.
    pub(super) const START: Fixpoint = Fixpoint {
        stage: Stage::Naked(0),
        progress: false,
    };

    /// Fills singles, recording each placement on `trail` at `depth`, until nothing
    /// changes or the recorder asks to pause.
    pub(super) fn run<S: Sink>(
        &mut self,
        grid: &mut Grid,
        recorder: &mut Recorder<'_, '_, S>,
        trail: &mut Vec<Placed>,
        depth: u32,
    ) -> Result<Settled, Interrupted> {
        loop {
            if let Stage::Naked(start) = self.stage {
                for cell in usize::from(start)..CELLS {
                    if grid.cells[cell] != 0 {
                        continue;
                    }
                    let candidates = grid.candidates(cell);
                    if candidates == 0 {
                        return Ok(Settled::Contradiction);
                    }
                    if candidates.is_power_of_two() {
                        let digit = candidates.trailing_zeros() as u8 + 1;
                        let placed = Placed {
                            cell: cell as u8,
                            digit,
                            reason: Reason::NakedSingle,
                            depth,
                        };
                        grid.place(recorder, trail, placed)?;
                        self.progress = true;
                        if recorder.pausing() {
                            self.stage = Stage::Naked(cell as u8 + 1);
                            return Ok(Settled::Paused);
                        }
                    }
                }
                self.stage = Stage::Hidden(0);
            }
            if let Stage::Hidden(start) = self.stage {
                for (unit, cells) in UNITS.iter().enumerate().skip(usize::from(start)) {
                    loop {
                        match hidden_single(grid, cells) {
                            Hidden::None => break,
                            Hidden::Contradiction => return Ok(Settled::Contradiction),
                            Hidden::Single(cell, digit) => {
                                let placed = Placed {
                                    cell,
                                    digit,
                                    reason: Reason::HiddenSingle,
                                    depth,
                                };
                                grid.place(recorder, trail, placed)?;
                                self.progress = true;
                                if recorder.pausing() {
                                    self.stage = Stage::Hidden(unit as u8);
                                    return Ok(Settled::Paused);
                                }
                            }
                        }
                    }
                }
                if !self.progress {
                    return Ok(Settled::Consistent);
                }
                *self = Fixpoint::START;
            }
        }
    }
}

enum Hidden {
    None,
    Contradiction,
    Single(u8, u8),
}

/// The first digit with exactly one place left in `unit`.
fn hidden_single(grid: &Grid, unit: &[u8; 9]) -> Hidden {
    let mut placed = 0u16;
    let mut once = 0u16;
    let mut twice = 0u16;
    for &cell in unit {
        let value = grid.cells[cell as usize];
        if value != 0 {
            placed |= 1 << (value - 1);
            continue;
        }
        let candidates = grid.candidates(cell as usize);
        twice |= once & candidates;
        once |= candidates;
    }
    if (once | placed) != ALL_DIGITS {
        return Hidden::Contradiction;
    }
    let singles = once & !twice & !placed;
    if singles == 0 {
        return Hidden::None;
    }
    let bit = singles & singles.wrapping_neg();
    let digit = bit.trailing_zeros() as u8 + 1;
    for &cell in unit {
        if grid.cells[cell as usize] == 0 && grid.candidates(cell as usize) & bit != 0 {
            return Hidden::Single(cell, digit);
        }
    }
    Hidden::None
}
