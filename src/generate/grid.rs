//! Random solution grids: the three boxes of the main diagonal (which share no
//! row, column or box) filled with random permutations, the rest completed by the
//! search, then the grid shuffled by moves that keep a solution a solution (rows
//! within a band, bands, columns within a stack, stacks, a transposition).

use super::Random;
use crate::board::{Board, CELLS};
use crate::solver::{Algorithm, Control, NoEvents, solve};

/// A random complete grid.
pub fn random_solution(random: &mut Random) -> Board {
    loop {
        let mut cells = [0u8; CELLS];
        for band in 0..3 {
            let mut digits = [1, 2, 3, 4, 5, 6, 7, 8, 9];
            random.shuffle(&mut digits);
            for (i, digit) in digits.into_iter().enumerate() {
                cells[(band * 3 + i / 3) * 9 + band * 3 + i % 3] = digit;
            }
        }
        // Three independent boxes always complete; the loop is only a safeguard.
        let Ok(report) = solve(
            &Board::with_cells(cells),
            Algorithm::Bitboard,
            &Control::UNTIMED,
            &mut NoEvents,
        ) else {
            continue;
        };
        if let Some(solution) = report.solution {
            return shuffled(solution.cells(), random);
        }
    }
}

/// `cells` under a random choice of the moves that keep a grid valid.
fn shuffled(cells: &[u8; CELLS], random: &mut Random) -> Board {
    let rows = line_order(random);
    let cols = line_order(random);
    let transpose = random.below(2) == 1;
    let mut out = [0u8; CELLS];
    for (cell, value) in out.iter_mut().enumerate() {
        let (row, col) = (rows[cell / 9], cols[cell % 9]);
        let (row, col) = if transpose { (col, row) } else { (row, col) };
        *value = cells[row * 9 + col];
    }
    Board::with_cells(out)
}

/// A random order of the nine lines that keeps each band together.
fn line_order(random: &mut Random) -> [usize; 9] {
    let mut bands = [0, 1, 2];
    random.shuffle(&mut bands);
    let mut order = [0; 9];
    for (i, band) in bands.into_iter().enumerate() {
        let mut lines = [0, 1, 2];
        random.shuffle(&mut lines);
        for (j, line) in lines.into_iter().enumerate() {
            order[i * 3 + j] = band * 3 + line;
        }
    }
    order
}
