//! `Algorithm::Propagation`: bitmask candidates, naked and hidden singles at every
//! node, branching on the empty cell with the fewest candidates.

use super::grid::{Grid, Placed};
use super::singles::{Consistency, fixpoint};
use super::{Found, Interrupted, Reason, Recorder, Sink};
use crate::board::{Board, CELLS};

/// An open guess: where the trail stood before it, its cell, and the digits not
/// yet tried there.
struct Branch {
    trail_len: usize,
    cell: u8,
    untried: u16,
}

pub(super) fn search<S: Sink>(
    board: &Board,
    recorder: &mut Recorder<'_, '_, S>,
    wanted: u32,
) -> Result<Found, Interrupted> {
    let mut grid = Grid::new(board);
    let mut found = Found::new(wanted);
    let mut trail: Vec<Placed> = Vec::with_capacity(CELLS);
    let mut branches: Vec<Branch> = Vec::with_capacity(CELLS);
    loop {
        let depth = branches.len() as u32;
        let dead_end = match fixpoint(&mut grid, recorder, &mut trail, depth)? {
            Consistency::Contradiction => true,
            Consistency::Consistent => match most_constrained(&grid) {
                None => {
                    found.record(&grid.cells);
                    true
                }
                Some((cell, untried)) => {
                    branches.push(Branch {
                        trail_len: trail.len(),
                        cell,
                        untried,
                    });
                    false
                }
            },
        };
        if dead_end && found.count >= wanted {
            return Ok(found);
        }
        // Take the next untried digit of the newest open branch, undoing what the
        // previous digit led to; branches with nothing left are closed.
        loop {
            let Some(branch) = branches.last_mut() else {
                grid.undo_to(recorder, &mut trail, 0)?;
                return Ok(found);
            };
            let (keep, cell) = (branch.trail_len, branch.cell);
            if branch.untried == 0 {
                branches.pop();
                grid.undo_to(recorder, &mut trail, keep)?;
                continue;
            }
            let digit = branch.untried.trailing_zeros() as u8 + 1;
            branch.untried &= branch.untried - 1;
            let depth = branches.len() as u32;
            grid.undo_to(recorder, &mut trail, keep)?;
            let guess = Placed {
                cell,
                digit,
                reason: Reason::Guess,
                depth,
            };
            grid.place(recorder, &mut trail, guess)?;
            break;
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
