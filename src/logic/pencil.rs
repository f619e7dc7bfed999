//! The pencil-mark grid the logical solver reasons on: each cell's digit, or the
//! set of digits it may still hold. Built from a board (every candidate a peer does
//! not rule out) or read from a pencil-mark grid text (for technique tests), and
//! changed only by placements and eliminations. Knows nothing of techniques.

use super::marks::Marks;
use crate::board::{Board, CELLS, Cell, Shape, box_of, col_of, row_of};

/// Bit `d - 1` for digit `d`.
pub type Digits = u16;

/// All nine digits.
pub const ALL: Digits = 0x1FF;

pub use crate::board::{PEERS, UNITS};

/// Each cell's row, column and box, as indices into `UNITS`, with the cell's
/// position in each.
pub const CELL_UNITS: [[(u8, u8); 3]; CELLS] = {
    let mut units = [[(0u8, 0u8); 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (row_of(cell), col_of(cell));
        units[cell] = [
            (row as u8, col as u8),
            (9 + col as u8, row as u8),
            (18 + box_of(cell) as u8, ((row % 3) * 3 + col % 3) as u8),
        ];
        cell += 1;
    }
    units
};

/// A pencil-mark grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pencil {
    /// The digit of each cell, 0 when empty.
    values: [u8; CELLS],
    /// The candidates of each empty cell (0 for a filled one).
    candidates: [Digits; CELLS],
    /// For each unit and digit, the positions of the unit where the digit is a
    /// candidate: `candidates` seen by unit, kept with it.
    places: [[u16; 9]; 27],
}

/// Why a pencil-mark text is no grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPencil(pub String);

impl Pencil {
    /// The grid of `board`: each empty cell holds every digit no peer holds.
    pub fn new(board: &Board) -> Pencil {
        let values = *board.cells();
        let mut candidates = [0; CELLS];
        for (cell, candidates) in candidates.iter_mut().enumerate() {
            if values[cell] == 0 {
                let taken = PEERS[cell]
                    .iter()
                    .fold(0, |taken, &peer| taken | bit(values[usize::from(peer)]));
                *candidates = ALL & !taken;
            }
        }
        Pencil::with(values, candidates)
    }

    /// The grid of these digits and candidates, its places counted.
    fn with(values: [u8; CELLS], candidates: [Digits; CELLS]) -> Pencil {
        let mut places = [[0; 9]; 27];
        for (cell, units) in CELL_UNITS.iter().enumerate() {
            for digit in digits(candidates[cell]) {
                for &(unit, at) in units {
                    places[usize::from(unit)][usize::from(digit - 1)] |= 1 << at;
                }
            }
        }
        Pencil {
            values,
            candidates,
            places,
        }
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
        let mut values = [0; CELLS];
        let mut candidates = [0; CELLS];
        for (cell, word) in cells.iter().enumerate() {
            let mut digits = 0;
            for c in word.chars() {
                match c.to_digit(10) {
                    Some(d @ 1..=9) => digits |= bit(d as u8),
                    _ => return Err(BadPencil(format!("cell {}: {word:?}", cell + 1))),
                }
            }
            if digits.count_ones() == 1 {
                values[cell] = digits.trailing_zeros() as u8 + 1;
            } else {
                candidates[cell] = digits;
            }
        }
        Ok(Pencil::with(values, candidates))
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
    #[inline]
    pub fn places(&self, unit: usize, digit: u8) -> u16 {
        self.places[unit][usize::from(digit - 1)]
    }

    /// The places of every digit in `unit`, digit 1 first.
    pub fn unit_places(&self, unit: usize) -> &[u16; 9] {
        &self.places[unit]
    }

    /// True when `digit` already stands in `unit`.
    pub fn holds(&self, unit: usize, digit: u8) -> bool {
        UNITS[unit]
            .iter()
            .any(|&cell| self.values[usize::from(cell)] == digit)
    }

    /// Writes `digit` into `cell` and takes it from the candidates of its peers.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        self.fill(cell, digit);
        for &peer in &PEERS[cell] {
            self.eliminate(usize::from(peer), digit);
        }
    }

    /// Writes `digit` into `cell`, which keeps no candidate, and leaves its
    /// peers as they are: for a caller that took the digit from them itself.
    pub fn fill(&mut self, cell: Cell, digit: u8) {
        for other in digits(self.candidates[cell]) {
            self.eliminate(cell, other);
        }
        self.values[cell] = digit;
    }

    /// Takes `digit` from the candidates of `cell`, if it is one.
    #[inline]
    pub fn eliminate(&mut self, cell: Cell, digit: u8) {
        if self.candidates[cell] & bit(digit) != 0 {
            self.candidates[cell] &= !bit(digit);
            for &(unit, at) in &CELL_UNITS[cell] {
                self.places[usize::from(unit)][usize::from(digit - 1)] &= !(1 << at);
            }
        }
    }

    /// The grid's cells as a puzzle line, `.` for empty.
    pub fn to_line(&self) -> String {
        Board::with_cells(self.values).to_line()
    }
}

impl Marks for Pencil {
    fn shape(&self) -> Shape {
        Shape::CLASSIC
    }

    #[inline]
    fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    #[inline]
    fn candidates(&self, cell: Cell) -> u64 {
        u64::from(self.candidates[cell])
    }

    #[inline]
    fn places(&self, unit: usize, digit: u8) -> u64 {
        u64::from(self.places[unit][usize::from(digit - 1)])
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        Pencil::place(self, cell, digit);
    }

    #[inline]
    fn eliminate(&mut self, cell: Cell, digit: u8) {
        Pencil::eliminate(self, cell, digit);
    }

    fn is_solved(&self) -> bool {
        Pencil::is_solved(self)
    }

    fn holds(&self, unit: usize, digit: u8) -> bool {
        Pencil::holds(self, unit, digit)
    }
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

    /// The places of every digit in every unit, counted from the candidates.
    fn recount(pencil: &Pencil) -> Vec<u16> {
        (0..27)
            .flat_map(|unit| (1..=9).map(move |digit| (unit, digit)))
            .map(|(unit, digit)| {
                (0..9)
                    .filter(|&at| pencil.candidates(usize::from(UNITS[unit][at])) & bit(digit) != 0)
                    .fold(0, |places, at| places | 1 << at)
            })
            .collect()
    }

    #[test]
    fn places_follow_placements_and_eliminations() {
        let board = Board::parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        )
        .unwrap();
        let mut pencil = Pencil::new(&board);
        let kept = |pencil: &Pencil| -> Vec<u16> {
            (0..27)
                .flat_map(|unit| (1..=9).map(move |digit| pencil.places(unit, digit)))
                .collect()
        };
        assert_eq!(kept(&pencil), recount(&pencil));
        pencil.place(1, 1);
        pencil.eliminate(80, 9);
        pencil.eliminate(80, 9);
        pencil.place(40, 5);
        pencil.eliminate(2, 2);
        assert_eq!(pencil.value(40), 5);
        assert_eq!(pencil.candidates(41) & bit(5), 0);
        assert_eq!(pencil.places(18 + 4, 5), 0);
        assert_eq!(kept(&pencil), recount(&pencil));
        let text = Pencil::parse(&"123456789 ".repeat(81)).unwrap();
        assert_eq!(kept(&text), recount(&text));
        assert_eq!(text.places(0, 1), 0x1FF);
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
