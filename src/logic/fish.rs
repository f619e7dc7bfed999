//! Basic fish: a digit confined, in `size` rows (columns), to the same `size`
//! columns (rows) — X-Wing, Swordfish, Jellyfish.

use super::pencil::{Pencil, UNITS, bit, subsets};
use super::step::{Candidate, LogicStep, Technique};

/// The first fish of `size` lines that removes a candidate.
pub(super) fn fish(pencil: &Pencil, size: u32, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for digit in 1..=9u8 {
        // Rows as bases (covers: columns), then columns as bases.
        for (bases, covers) in [(0usize, 9usize), (9, 0)] {
            let places: [u16; 9] = std::array::from_fn(|line| pencil.places(bases + line, digit));
            // Only lines with 2 to `size` places can be bases.
            let open = (0..9usize)
                .filter(|&line| (2..=size).contains(&places[line].count_ones()))
                .fold(0u16, |open, line| open | 1 << line);
            for set in subsets(open, size) {
                let lines = (0..9usize).filter(|line| set & 1 << line != 0);
                let cover = lines.clone().fold(0, |cover, line| cover | places[line]);
                if cover.count_ones() != size {
                    continue;
                }
                let eliminations: Vec<Candidate> = (0..9usize)
                    .filter(|line| cover & 1 << line != 0)
                    .flat_map(|line| UNITS[covers + line].iter().enumerate())
                    .filter(|&(at, _)| set & 1 << at == 0)
                    .map(|(_, &cell)| usize::from(cell))
                    .filter(|&cell| pencil.candidates(cell) & bit(digit) != 0)
                    .map(|cell| (cell, digit))
                    .collect();
                if !eliminations.is_empty() {
                    let pattern = lines
                        .flat_map(|line| {
                            UNITS[bases + line]
                                .iter()
                                .map(|&cell| usize::from(cell))
                                .filter(|&cell| pencil.candidates(cell) & bit(digit) != 0)
                        })
                        .map(|cell| (cell, digit))
                        .collect();
                    found.push(LogicStep::eliminating(technique, pattern, eliminations));
                }
            }
        }
    }
    found
}
