//! The pencil-mark grid the logical solver reasons on: each cell's digit, or the
//! set of digits it may still hold. Built from a board (every candidate a peer does
//! not rule out) or read from a pencil-mark grid text (for technique tests), and
//! changed only by placements and eliminations. Knows nothing of techniques.

use crate::board::{Board, CELLS, Cell, box_of, col_of, row_of};

/// Bit `d - 1` for digit `d`.
pub type Digits = u16;

/// All nine digits.
pub const ALL: Digits = 0x1FF;

pub use crate::board::UNITS;

/// The 20 peers of each cell (its row, column and box, itself not included).
pub const PEERS: [[u8; 20]; CELLS] = {
    let mut peers = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let same_row = row_of(other) == row_of(cell);
            let same_col = col_of(other) == col_of(cell);
            let same_box = box_of(other) == box_of(cell);
            if other != cell && (same_row || same_col || same_box) {
                peers[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// A pencil-mark grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pencil {
    /// The digit of each cell, 0 when empty.
    values: [u8; CELLS],
    /// The candidates of each empty cell (0 for a filled one).
    candidates: [Digits; CELLS],
}

/// Why a pencil-mark text is no grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPencil(pub String);

impl Pencil {
    /// The grid of `board`: each empty cell holds every digit no peer holds.
    pub fn new(board: &Board) -> Pencil {
        let mut pencil = Pencil {
            values: *board.cells(),
            candidates: [0; CELLS],
        };
        let values = pencil.values;
        for (cell, candidates) in pencil.candidates.iter_mut().enumerate() {
            if values[cell] == 0 {
                let taken = PEERS[cell]
                    .iter()
                    .fold(0, |taken, &peer| taken | bit(values[usize::from(peer)]));
                *candidates = ALL & !taken;
            }
        }
        pencil
    }

    /// Reads 81 cells separated by white space: a cell of one digit is solved, a
    /// cell of several digits lists its candidates (the layout of Sudoku
    /// Explainer's and HoDoKu's pencil-mark grids; `|`, `-`, `+` and `.` between
    /// cells are skipped).
    pub fn parse(text: &str) -> Result<Pencil, BadPencil> {
        let cells: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || matches!(c, '|' | '+' | '*'))
            .filter(|word| !word.is_empty() && !word.chars().all(|c| matches!(c, '-' | '.')))
            .collect();
        if cells.len() != CELLS {
            return Err(BadPencil(format!("{} cells, expected 81", cells.len())));
        }
        let mut pencil = Pencil {
            values: [0; CELLS],
            candidates: [0; CELLS],
        };
        for (cell, word) in cells.iter().enumerate() {
            let mut digits = 0;
            for c in word.chars() {
                match c.to_digit(10) {
                    Some(d @ 1..=9) => digits |= bit(d as u8),
                    _ => return Err(BadPencil(format!("cell {}: {word:?}", cell + 1))),
                }
            }
            if digits.count_ones() == 1 {
                pencil.values[cell] = digits.trailing_zeros() as u8 + 1;
            } else {
                pencil.candidates[cell] = digits;
            }
        }
        Ok(pencil)
    }

    /// The digit of `cell`, 0 when empty.
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (none for a filled cell).
    pub fn candidates(&self, cell: Cell) -> Digits {
        self.candidates[cell]
    }

    /// True when every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&value| value != 0)
    }

    /// The cells of `unit` where `digit` is still a candidate, as bits of the
    /// unit's positions 0..9.
    pub fn places(&self, unit: usize, digit: u8) -> u16 {
        UNITS[unit]
            .iter()
            .enumerate()
            .filter(|&(_, &cell)| self.candidates[usize::from(cell)] & bit(digit) != 0)
            .fold(0, |places, (at, _)| places | 1 << at)
    }

    /// True when `digit` already stands in `unit`.
    pub fn holds(&self, unit: usize, digit: u8) -> bool {
        UNITS[unit]
            .iter()
            .any(|&cell| self.values[usize::from(cell)] == digit)
    }

    /// Writes `digit` into `cell` and takes it from the candidates of its peers.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        for &peer in &PEERS[cell] {
            self.candidates[usize::from(peer)] &= !bit(digit);
        }
    }

    /// Takes `digit` from the candidates of `cell`.
    pub fn eliminate(&mut self, cell: Cell, digit: u8) {
        self.candidates[cell] &= !bit(digit);
    }

    /// The grid's cells as a puzzle line, `.` for empty.
    pub fn to_line(&self) -> String {
        Board::with_cells(self.values).to_line()
    }
}

/// The subsets of `mask` (positions 0..9) with `size` members, in increasing
/// order: only the subsets of `mask` are visited, not all 512 sets.
pub fn subsets(mask: u16, size: u32) -> impl Iterator<Item = u16> {
    let mut next = Some(0u16);
    std::iter::from_fn(move || {
        loop {
            let set = next?;
            // The next subset of `mask` above `set`; back to 0 when none is left.
            let after = ((set | !mask & 0x1FF) + 1) & mask;
            next = (after != 0).then_some(after);
            if set.count_ones() == size {
                return Some(set);
            }
        }
    })
}

/// The bit of `digit` (none for 0).
pub const fn bit(digit: u8) -> Digits {
    (1 << digit) >> 1
}

/// The digits of a set, in order.
pub fn digits(set: Digits) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |&digit| set & bit(digit) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_those_of_all_sets_in_order() {
        for mask in [0u16, 0b1, 0b1011_0110, 0x1FF, 0b1_0000_0001] {
            for size in 1..=4 {
                let all: Vec<u16> = (0u16..512)
                    .filter(|set| set & !mask == 0 && set.count_ones() == size)
                    .collect();
                assert_eq!(
                    subsets(mask, size).collect::<Vec<_>>(),
                    all,
                    "{mask:b} {size}"
                );
            }
        }
    }

    #[test]
    fn units_and_peers_are_the_sudoku_ones() {
        for unit in UNITS {
            let mut cells = unit.to_vec();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), 9);
        }
        assert_eq!(UNITS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        for (cell, peers) in PEERS.iter().enumerate() {
            assert!(!peers.contains(&(cell as u8)));
            let count = UNITS
                .iter()
                .flatten()
                .filter(|&&other| usize::from(other) != cell)
                .filter(|&&other| {
                    UNITS
                        .iter()
                        .any(|unit| unit.contains(&(cell as u8)) && unit.contains(&other))
                })
                .copied()
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            assert_eq!(count, 20);
        }
    }

    #[test]
    fn a_board_gives_every_candidate_no_peer_holds() {
        let board = Board::parse(&format!("12{}", ".".repeat(79))).unwrap();
        let pencil = Pencil::new(&board);
        assert_eq!(pencil.candidates(2), ALL & !bit(1) & !bit(2));
        assert_eq!(pencil.candidates(80), ALL);
        assert_eq!(pencil.candidates(0), 0);
        assert_eq!(pencil.value(1), 2);
    }

    #[test]
    fn a_pencil_text_reads_back_as_written() {
        let board = Board::parse(&format!("12{}", ".".repeat(79))).unwrap();
        let pencil = Pencil::new(&board);
        let text: Vec<String> = (0..CELLS)
            .map(|cell| match pencil.value(cell) {
                0 => digits(pencil.candidates(cell))
                    .map(|d| char::from(b'0' + d))
                    .collect(),
                value => value.to_string(),
            })
            .collect();
        assert_eq!(Pencil::parse(&text.join(" ")), Ok(pencil));
        assert!(Pencil::parse("1 2 3").is_err());
    }
}
