//! Generation at the very top of the scale (a rating range from 10.0): random
//! puzzles rated 10 or more are too rare to wait for, so such a puzzle starts
//! from one of the hardest known (public lists, rated 10.6 to 11.9 by Sudoku
//! Explainer), remade by a random one of the grid's isomorphisms (the digits
//! relabelled, the bands and the rows within each band shuffled, the stacks and
//! the columns within each likewise, the grid transposed or not), then changed:
//! a given moved to an empty cell (the solution's digit) while the puzzle stays
//! unique, and dug again to a minimal puzzle (the generator's part). The
//! ladder rates what comes out; the caller keeps it only in its range, as
//! every attempt.

use super::random::Random;
use crate::board::CELLS;

/// The lowest `range.low` that starts from the hardest known puzzles.
pub(super) const FROM: f64 = 10.0;

/// Some of the hardest puzzles known, every 9th of those `se_rated_hardest`
/// (public: the forum's hardest lists with their published ratings) rates
/// 10.5 or more.
const HARDEST: [&str; 12] = [
    "........9.5...913....1..56.2.4...8...9.5....6....2......7..1...8...4..7..3.6....1",
    "1.3..6.8.4.6.8.1...8........3...46..5.7.....2...2....7...5...9.....9.....1...84..",
    "1...5.7.......9..6.8.7...4.........47....51....6.....2..8.1......1.93.2.9..5..3..",
    ".2..5......71.9...9.8........16...7.7....4.9..4....3......4.5.......3..26..8...1.",
    ".23.5.....567....27..........4...8..3...7...6.....1.9.5...6...3...9...1......84..",
    "..34..7.........368....3..52......5.3....5.62.9....1..6.8..2....4..9........1....",
    "..3..6.89...1..2......7...4..6..8.9....2....1.7..4....36...5.....5...9..8......3.",
    "...4..7......8...6..9..2.5.2....5.1.....7...8...6..5..3.5...4....1..3.9.9.2......",
    "98.76.54.7.5.9.6...64......5.8.........32.4.5...1.....4....79.6.9.....84..6...75.",
    "98.76.5..7.59.4....46.85...67.....98...8.........9..5.5.....4.....6...32....7.61.",
    "98.76.5..7.5..98...64..8....976.4.5....95........87....76...4...4.....32...4...8.",
    ".2.4..7....6.....17...3......5....6..4.2..9.......5..8..1..8....9..7.......92.3..",
];

/// One of the listed puzzles, picked by `random`, under a random
/// isomorphism of the grid: one solution, as many givens.
pub(super) fn remade_hardest(random: &mut Random) -> [u8; CELLS] {
    let listed = HARDEST[random.below(HARDEST.len() as u64) as usize];
    let mut cells = [0u8; CELLS];
    for (slot, byte) in cells.iter_mut().zip(listed.bytes()) {
        *slot = if byte == b'.' { 0 } else { byte - b'0' };
    }
    remade(&cells, random)
}

/// `cells` under a random isomorphism of the grid.
fn remade(cells: &[u8; CELLS], random: &mut Random) -> [u8; CELLS] {
    let mut digits: Vec<u8> = (1..=9).collect();
    random.shuffle(&mut digits);
    let rows = line_order(random);
    let cols = line_order(random);
    let transpose = random.below(2) == 1;
    let mut out = [0u8; CELLS];
    for (cell, slot) in out.iter_mut().enumerate() {
        let (row, col) = (rows[cell / 9], cols[cell % 9]);
        let (row, col) = if transpose { (col, row) } else { (row, col) };
        let value = cells[row * 9 + col];
        *slot = if value == 0 {
            0
        } else {
            digits[usize::from(value - 1)]
        };
    }
    out
}

/// A random order of the nine rows (or columns) that keeps bands whole: the
/// bands shuffled, and the lines within each.
fn line_order(random: &mut Random) -> [usize; 9] {
    let mut bands = [0usize, 1, 2];
    random.shuffle(&mut bands);
    let mut order = [0usize; 9];
    for (at, band) in bands.iter().enumerate() {
        let mut lines = [0usize, 1, 2];
        random.shuffle(&mut lines);
        for (k, line) in lines.iter().enumerate() {
            order[at * 3 + k] = band * 3 + line;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::solver::{Algorithm, Control, count_solutions};

    #[test]
    fn a_remade_grid_keeps_its_givens_count_and_one_solution() {
        let mut random = Random::new(9);
        for listed in HARDEST {
            let board = Board::parse(listed).unwrap();
            let remade = remade(board.cells(), &mut random);
            let count = |cells: &[u8; CELLS]| cells.iter().filter(|&&v| v != 0).count();
            assert_eq!(count(&remade), count(board.cells()));
            let report = count_solutions(
                &Board::with_cells(remade),
                Algorithm::Propagation,
                &Control::UNTIMED,
            )
            .unwrap();
            assert_eq!(report.solution_count, 1, "{listed}");
        }
    }
}
