//! `Algorithm::Backtracking`: the classic row-major backtracking, step for step.

use super::grid::{Grid, row_major};
use super::{Found, Interrupted, Recorder, Sink};
use crate::board::Board;

pub(super) fn search<S: Sink>(
    board: &Board,
    recorder: &mut Recorder<'_, '_, S>,
    wanted: u32,
) -> Result<Found, Interrupted> {
    let mut grid = Grid::new(board);
    let mut found = Found::new(wanted);
    row_major(&mut grid, recorder, &mut found, 0)?;
    Ok(found)
}
