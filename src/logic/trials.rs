//! What the contradiction rungs share, whatever the grid: how deep the forced
//! moves after an assumption go ([`Depth`]), a trial under way and how it
//! ended, the grids that bring their own trials ([`Trials`]), and the rating of
//! the step a contradiction makes, with Sudoku Explainer's length modifier.

use super::marks::Marks;
use super::step::{LogicStep, Technique};
use crate::board::Cell;

/// What the propagation after an assumption may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Depth {
    /// Hidden singles of the assumed digit only.
    OneDigit,
    /// Naked and hidden singles of every digit.
    Singles,
    /// Singles, and pointing and claiming.
    Locked,
}

/// A grid the contradiction rungs can try candidates on: each kind of grid
/// brings trials made for it (the 9x9 one here, the others in `wide_trials`).
pub(super) trait Trials: Marks {
    /// The candidate whose assumption leads to a contradiction at `depth` in
    /// the fewest forced moves, eliminated as a step of `technique`; `None`
    /// when none does, or when `stop` says to stop first.
    fn contradiction(
        &self,
        depth: Depth,
        technique: Technique,
        stop: &dyn Fn() -> bool,
    ) -> Option<LogicStep>;
}

/// A trial under way: an assumption made, forced moves to go on with.
pub(super) trait Attempt {
    /// Makes forced moves until the grid breaks, none is left, or `limit`
    /// moves (counting the assumption) are made; a capped trial goes on from
    /// where it stopped when asked again with a higher limit.
    fn go_on(&mut self, limit: usize) -> Trial;
}

/// How one trial ended.
pub(super) enum Trial {
    /// The grid broke after this many moves.
    Broke(usize),
    /// No move was left, and the grid holds.
    Held,
    /// The limit of moves was reached first.
    Capped,
}

/// The step that eliminates the candidate whose assumption broke the grid
/// in `moves` moves, rated by the technique and the length.
pub(super) fn broken_by(moves: usize, candidate: (Cell, u8), technique: Technique) -> LogicStep {
    let mut step = LogicStep::eliminating(technique, vec![candidate], vec![candidate]);
    step.rating = (technique.rating() * 10.0 + length_modifier(moves)).round() / 10.0;
    step
}

/// Tenths added for a chain of `moves` forced moves: one more each time the
/// length passes 4, 6, 8, 12, 16, 24, 32, 48, ... (each step half again or a
/// third again the last), the shape of Sudoku Explainer's length modifier.
fn length_modifier(moves: usize) -> f64 {
    let mut tenths = 0.0;
    let mut limit = 4usize;
    let mut grow_by_half = true;
    while moves > limit {
        tenths += 1.0;
        limit = if grow_by_half {
            limit + limit / 2
        } else {
            limit * 4 / 3
        };
        grow_by_half = !grow_by_half;
    }
    tenths
}
