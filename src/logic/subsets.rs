//! Naked and hidden subsets (pairs, triples, quads) within a unit.

use super::pencil::{Digits, Pencil, UNITS, bit, digits, subsets};
use super::step::{Candidate, LogicStep, Technique};

/// The positions whose set has from 1 to `size` members: only they can be part
/// of a subset of `size`.
fn eligible(sets: &[u16], size: u32) -> u16 {
    sets.iter()
        .enumerate()
        .filter(|(_, set)| (1..=size).contains(&set.count_ones()))
        .fold(0, |mask, (at, _)| mask | 1 << at)
}

/// The first naked subset of `size` cells in a unit that removes a candidate.
pub(super) fn naked(pencil: &Pencil, size: u32, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for unit in UNITS {
        let candidates: [Digits; 9] = unit.map(|c| pencil.candidates(usize::from(c)));
        let open = eligible(&candidates, size);
        if open.count_ones() < size {
            continue;
        }
        for set in subsets(open, size) {
            let members = (0..9).filter(|at| set & 1 << at != 0);
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
                found.push(LogicStep::eliminating(technique, pattern, eliminations));
            }
        }
    }
    found
}

/// The first hidden subset of `size` digits in a unit that removes a candidate.
pub(super) fn hidden(pencil: &Pencil, size: u32, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for (index, unit) in UNITS.iter().enumerate() {
        let places = pencil.unit_places(index);
        let open = eligible(places, size);
        if open.count_ones() < size {
            continue;
        }
        for set in subsets(open, size) {
            let members = (0..9usize).filter(|d| set & 1 << d != 0);
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
                found.push(LogicStep::eliminating(technique, pattern, eliminations));
            }
        }
    }
    found
}
