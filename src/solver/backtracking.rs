//! `Algorithm::Backtracking`: the classic row-major backtracking, step for step.
//! Knows nothing of who listens to its events or of other engines.

use super::grid::{Grid, RowMajor};
use super::{Found, Interrupted, Recorder, Sink, Status};
use crate::board::Board;

/// The search's state: the grid and where the backtracking stands.
#[derive(Clone)]
pub(super) struct Backtracking {
    grid: Grid,
    row_major: RowMajor,
}

impl Backtracking {
    pub(super) fn new(board: &Board) -> Backtracking {
        let grid = Grid::new(board);
        let row_major = RowMajor::new(&grid, 0);
        Backtracking { grid, row_major }
    }

    pub(super) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        self.row_major.run(&mut self.grid, recorder, found)
    }
}
