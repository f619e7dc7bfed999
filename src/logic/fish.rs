//! Basic fish: a digit confined, in `size` rows (columns), to the same `size`
//! columns (rows) — X-Wing, Swordfish, Jellyfish.

use super::marks::{Marks, bit, cells_at, low_bits, members, subsets};
use super::step::{Candidate, LogicStep, Technique};

/// Every fish of `size` lines that removes a candidate.
pub(super) fn fish<P: Marks>(pencil: &P, size: u32, technique: Technique) -> Vec<LogicStep> {
    let n = pencil.size();
    let mut found = Vec::new();
    let mut places = [0u64; 64];
    for digit in 1..=n as u8 {
        let has = |cell: &usize| pencil.candidates(*cell) & bit(digit) != 0;
        // Rows as bases (covers: columns), then columns as bases.
        for (bases, covers) in [(0, n), (n, 0)] {
            for (line, places) in places[..n].iter_mut().enumerate() {
                *places = pencil.places(bases + line, digit);
            }
            // Only lines with 2 to `size` places can be bases.
            let open = (0..n)
                .filter(|&line| (2..=size).contains(&places[line].count_ones()))
                .fold(0u64, |open, line| open | 1 << line);
            for set in subsets(open, size) {
                let cover = members(set).fold(0, |cover, line| cover | places[line]);
                if cover.count_ones() != size {
                    continue;
                }
                // A cover line's position `at` is base line `at`.
                let eliminations: Vec<Candidate> = members(cover)
                    .flat_map(|line| cells_at(pencil.house(covers + line), low_bits(n) & !set))
                    .filter(has)
                    .map(|cell| (cell, digit))
                    .collect();
                if !eliminations.is_empty() {
                    let pattern = members(set)
                        .flat_map(|line| cells_at(pencil.house(bases + line), low_bits(n)))
                        .filter(has)
                        .map(|cell| (cell, digit))
                        .collect();
                    found.push(LogicStep::eliminating(technique, pattern, eliminations));
                }
            }
        }
    }
    found
}
