//! Hints: given a player's position and the puzzle's solution, the player's
//! digits that contradict it, and the next step from the position without
//! them. Knows nothing of how the solution was found: it only marks digits
//! wrong, and places one from it only when the techniques run out.

use super::pencil::Pencil;
use super::step::{Candidate, LogicStep};
use crate::board::{Board, CELLS, Cell, CellName, cell_char};

/// A position that changes one of the puzzle's givens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChangedGiven {
    /// The cell.
    pub cell: Cell,
    /// What the position holds there (0 for empty).
    pub holds: u8,
    /// The given.
    pub given: u8,
}

impl std::fmt::Display for ChangedGiven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} holds {} but the puzzle gives {} there",
            CellName(self.cell),
            cell_char(self.holds),
            self.given
        )
    }
}

/// The first given of `givens` that `position` does not hold, if any.
pub fn changed_given(givens: &Board, position: &[u8; CELLS]) -> Option<ChangedGiven> {
    (0..CELLS).find_map(|cell| {
        let (given, holds) = (givens.get(cell), position[cell]);
        (given != 0 && holds != given).then_some(ChangedGiven { cell, holds, given })
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

/// The hint for `position` (the givens and the player's digits) of the puzzle
/// whose solution is `solution`.
pub fn hint(position: &[u8; CELLS], solution: &Board) -> Hint {
    let mut right = *position;
    let mut wrong = Vec::new();
    for (cell, value) in right.iter_mut().enumerate() {
        if *value != 0 && *value != solution.get(cell) {
            wrong.push((cell, *value));
            *value = 0;
        }
    }
    let pencil = Pencil::new(&Board::with_cells(right));
    let next = if pencil.is_solved() {
        None
    } else if let Some(step) = super::next_step(&pencil) {
        Some(Next::Logic(step))
    } else {
        let cell = (0..CELLS)
            .filter(|&cell| pencil.value(cell) == 0)
            .min_by_key(|&cell| pencil.candidates(cell).count_ones())
            .unwrap_or(0);
        Some(Next::Search((cell, solution.get(cell))))
    };
    Hint { wrong, next }
}
