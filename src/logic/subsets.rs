//! Naked and hidden subsets (pairs, triples, quads) within a unit.

use super::pencil::{Digits, Pencil, UNITS, bit, digits};
use super::step::{Candidate, LogicStep, Technique};

/// The subsets of positions 0..9 with `size` members.
fn combinations(size: u32) -> impl Iterator<Item = u16> {
    (0u16..512).filter(move |set| set.count_ones() == size)
}

/// The first naked subset of `size` cells in a unit that removes a candidate.
pub(super) fn naked(pencil: &Pencil, size: u32, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for unit in UNITS {
        let candidates: Vec<Digits> = unit
            .iter()
            .map(|&c| pencil.candidates(usize::from(c)))
            .collect();
        for set in combinations(size) {
            let members = (0..9).filter(|at| set & 1 << at != 0);
            if members.clone().any(|at| candidates[at] == 0) {
                continue;
            }
            let union = members.clone().fold(0, |union, at| union | candidates[at]);
            if union.count_ones() != size {
                continue;
            }
            let eliminations: Vec<Candidate> = (0..9)
                .filter(|at| set & 1 << at == 0)
                .flat_map(|at| {
                    let cell = usize::from(unit[at]);
                    digits(candidates[at] & union).map(move |digit| (cell, digit))
                })
                .collect();
            if !eliminations.is_empty() {
                let pattern = members
                    .flat_map(|at| {
                        let cell = usize::from(unit[at]);
                        digits(candidates[at]).map(move |digit| (cell, digit))
                    })
                    .collect();
                found.push(LogicStep {
                    technique,
                    pattern,
                    placements: Vec::new(),
                    eliminations,
                });
            }
        }
    }
    found
}

/// The first hidden subset of `size` digits in a unit that removes a candidate.
pub(super) fn hidden(pencil: &Pencil, size: u32, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for (index, unit) in UNITS.iter().enumerate() {
        let places: Vec<u16> = (1..=9).map(|digit| pencil.places(index, digit)).collect();
        for set in combinations(size) {
            let members = (0..9usize).filter(|d| set & 1 << d != 0);
            if members.clone().any(|d| places[d] == 0) {
                continue;
            }
            let cells = members.clone().fold(0, |union, d| union | places[d]);
            if cells.count_ones() != size {
                continue;
            }
            let kept: Digits = members.clone().fold(0, |kept, d| kept | bit(d as u8 + 1));
            let in_cells = (0..9)
                .filter(|at| cells & 1 << at != 0)
                .map(|at| usize::from(unit[at]));
            let eliminations: Vec<Candidate> = in_cells
                .clone()
                .flat_map(|cell| digits(pencil.candidates(cell) & !kept).map(move |d| (cell, d)))
                .collect();
            if !eliminations.is_empty() {
                let pattern = in_cells
                    .flat_map(|cell| digits(pencil.candidates(cell) & kept).map(move |d| (cell, d)))
                    .collect();
                found.push(LogicStep {
                    technique,
                    pattern,
                    placements: Vec::new(),
                    eliminations,
                });
            }
        }
    }
    found
}
