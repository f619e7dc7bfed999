//! Hints: given a player's position and the puzzle's solution, the player's
//! digits that contradict it, and the next step from the position without
//! them. Knows nothing of how the solution was found: it only marks digits
//! wrong, and places one from it only when the techniques run out.

use super::ladder::next_step_until;
use super::pencil::Pencil;
use super::step::{Candidate, LogicStep};
use super::trials::Trials;
use super::wide::WidePencil;
use std::sync::Arc;

use crate::board::{Cell, CellAt, Grid, Layout};

/// A position that changes one of the puzzle's givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedGiven {
    /// The cell.
    pub cell: Cell,
    /// N: cells in a row of the grid.
    pub side: usize,
    /// What the position holds there (0 for empty).
    pub holds: u8,
    /// The given.
    pub given: u8,
}

impl std::fmt::Display for ChangedGiven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cell = CellAt {
            cell: self.cell,
            side: self.side,
        };
        let holds = match self.holds {
            0 => ".".to_owned(),
            digit => digit.to_string(),
        };
        write!(
            f,
            "{cell} holds {holds} but the puzzle gives {} there",
            self.given
        )
    }
}

/// The first given of `givens` (N x N cells, row-major) that `position`
/// does not hold, if any.
pub fn changed_given(givens: &[u8], position: &[u8]) -> Option<ChangedGiven> {
    let side = givens.len().isqrt();
    (0..givens.len()).find_map(|cell| {
        let (given, holds) = (givens[cell], position[cell]);
        (given != 0 && holds != given).then_some(ChangedGiven {
            cell,
            side,
            holds,
            given,
        })
    })
}

/// What comes next from a position.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// A step of the ladder.
    Logic(LogicStep),
    /// The techniques run out: the empty cell with the fewest candidates,
    /// filled from the solution.
    Search(Candidate),
}

/// A hint for a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// The position's digits that contradict the solution, row-major.
    pub wrong: Vec<Candidate>,
    /// The next step from the position without them; `None` when it is solved.
    pub next: Option<Next>,
}

/// The hint for `position` (the givens and the player's digits, N x N cells)
/// of the puzzle whose solution is `solution`, of any shape, under a
/// variant's `rules` when given.
pub fn hint(
    position: &[u8],
    solution: &Grid,
    rules: Option<&Arc<Layout>>,
    stop: &dyn Fn() -> bool,
) -> Hint {
    let mut right = position.to_vec();
    let mut wrong = Vec::new();
    for (cell, value) in right.iter_mut().enumerate() {
        if *value != 0 && *value != solution.get(cell) {
            wrong.push((cell, *value));
            *value = 0;
        }
    }
    let right = Grid::with_cells(solution.shape(), right);
    let next = match (rules, right.to_board()) {
        (Some(layout), _) => next_from(&WidePencil::with_rules(&right, layout), solution, stop),
        (None, Some(board)) => next_from(&Pencil::new(&board), solution, stop),
        (None, None) => next_from(&WidePencil::new(&right), solution, stop),
    };
    Hint { wrong, next }
}

/// What comes next from `pencil`: `None` when it is solved. The longest
/// rungs ask `stop` and give up when it says so (the search step then).
fn next_from<P: Trials>(pencil: &P, solution: &Grid, stop: &dyn Fn() -> bool) -> Option<Next> {
    if pencil.is_solved() {
        return None;
    }
    if let Some(step) = next_step_until(pencil, stop) {
        return Some(Next::Logic(step));
    }
    let cell = (0..pencil.shape().cells())
        .filter(|&cell| pencil.value(cell) == 0)
        .min_by_key(|&cell| pencil.candidates(cell).count_ones())
        .unwrap_or(0);
    Some(Next::Search((cell, solution.get(cell))))
}
