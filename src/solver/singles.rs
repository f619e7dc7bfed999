//! `Algorithm::Singles`: naked and hidden singles to a fixpoint, then classic
//! row-major backtracking over the cells still empty. Also owns the singles
//! fixpoint that `Algorithm::Propagation` runs at every node. Both as resumable
//! state: a pause can come after any placement.
//! Knows nothing of who listens to its events or of other engines.

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
        let Singles { grid, trail, phase } = self;
        loop {
            *phase = match phase {
                Phase::Singles(fixpoint) => match fixpoint.run(grid, recorder, trail, 0)? {
                    Settled::Paused => return Ok(Status::Paused),
                    Settled::Consistent => Phase::Backtracking(RowMajor::new(grid, 0)),
                    Settled::Contradiction => Phase::Undo,
                },
                Phase::Backtracking(row_major) => match row_major.run(grid, recorder, found)? {
                    Status::Paused => return Ok(Status::Paused),
                    Status::Done if found.count < found.wanted => Phase::Undo,
                    Status::Done => return Ok(Status::Done),
                },
                Phase::Undo => return grid.undo_to(recorder, trail, 0),
            };
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
            let next = match self.stage {
                Stage::Naked(start) => next_naked(grid, start),
                Stage::Hidden(start) => next_hidden(grid, start),
            };
            match (next, self.stage) {
                (Next::Contradiction, _) => return Ok(Settled::Contradiction),
                (Next::Through, Stage::Naked(_)) => self.stage = Stage::Hidden(0),
                (Next::Through, Stage::Hidden(_)) if !self.progress => {
                    return Ok(Settled::Consistent);
                }
                (Next::Through, Stage::Hidden(_)) => *self = Fixpoint::START,
                (Next::Single(cell, digit, reason, resume), _) => {
                    grid.place(recorder, trail, Placed::at(cell, digit, reason, depth))?;
                    self.progress = true;
                    self.stage = resume;
                    if recorder.pausing() {
                        return Ok(Settled::Paused);
                    }
                }
            }
        }
    }
}

/// What a pass finds next.
enum Next {
    /// Nothing more in this pass.
    Through,
    /// The grid cannot be completed.
    Contradiction,
    /// A single to place (cell, digit, why), and where the pass goes on after it.
    Single(u8, u8, Reason, Stage),
}

/// The next naked single from cell `start` on.
fn next_naked(grid: &Grid, start: u8) -> Next {
    for cell in usize::from(start)..CELLS {
        if grid.cells[cell] != 0 {
            continue;
        }
        let candidates = grid.candidates(cell);
        if candidates == 0 {
            return Next::Contradiction;
        }
        if candidates.is_power_of_two() {
            let digit = candidates.trailing_zeros() as u8 + 1;
            let resume = Stage::Naked(cell as u8 + 1);
            return Next::Single(cell as u8, digit, Reason::NakedSingle, resume);
        }
    }
    Next::Through
}

/// The next hidden single from unit `start` on (a unit is looked at again after
/// each of its singles).
fn next_hidden(grid: &Grid, start: u8) -> Next {
    for (unit, cells) in UNITS.iter().enumerate().skip(usize::from(start)) {
        match hidden_single(grid, cells) {
            Hidden::None => {}
            Hidden::Contradiction => return Next::Contradiction,
            Hidden::Single(cell, digit) => {
                let resume = Stage::Hidden(unit as u8);
                return Next::Single(cell, digit, Reason::HiddenSingle, resume);
            }
        }
    }
    Next::Through
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
