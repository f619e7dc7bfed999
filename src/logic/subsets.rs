//! Naked and hidden subsets (pairs, triples, quads) within a unit.

use super::marks::{Marks, bit, cells_at, digits, low_bits, members, subsets};
use super::step::{Candidate, LogicStep, Technique};

/// The positions whose set has from 1 to `size` members: only they can be part
/// of a subset of `size`.
fn eligible(sets: &[u64], size: u32) -> u64 {
    sets.iter()
        .enumerate()
        .filter(|(_, set)| (1..=size).contains(&set.count_ones()))
        .fold(0, |mask, (at, _)| mask | 1 << at)
}

/// Every naked subset of `size` cells in a unit that removes a candidate.
pub(super) fn naked<P: Marks>(pencil: &P, size: u32, technique: Technique) -> Vec<LogicStep> {
    let n = pencil.size();
    let mut candidates = [0u64; 64];
    let mut found = Vec::new();
    for unit in 0..pencil.house_count() {
        let cells = pencil.house(unit);
        for (at, &cell) in cells.iter().enumerate() {
            candidates[at] = pencil.candidates(usize::from(cell));
        }
        let open = eligible(&candidates[..n], size);
        if open.count_ones() < size {
            continue;
        }
        for set in subsets(open, size) {
            let union = members(set).fold(0, |union, at| union | candidates[at]);
            if union.count_ones() != size {
                continue;
            }
            let listed = |positions: u64, digits_of: &dyn Fn(usize) -> u64| -> Vec<Candidate> {
                members(positions)
                    .flat_map(|at| {
                        let cell = usize::from(cells[at]);
                        digits(digits_of(at)).map(move |digit| (cell, digit))
                    })
                    .collect()
            };
            let others = low_bits(n) & !set;
            let eliminations = listed(others, &|at| candidates[at] & union);
            if !eliminations.is_empty() {
                let pattern = listed(set, &|at| candidates[at]);
                found.push(LogicStep::eliminating(technique, pattern, eliminations));
            }
        }
    }
    found
}

/// Every hidden subset of `size` digits in a unit that removes a candidate.
pub(super) fn hidden<P: Marks>(pencil: &P, size: u32, technique: Technique) -> Vec<LogicStep> {
    let n = pencil.size();
    let mut places = [0u64; 64];
    let mut found = Vec::new();
    for unit in 0..pencil.house_count() {
        for (d, places) in places[..n].iter_mut().enumerate() {
            *places = pencil.places(unit, d as u8 + 1);
        }
        let open = eligible(&places[..n], size);
        if open.count_ones() < size {
            continue;
        }
        for set in subsets(open, size) {
            let cells = members(set).fold(0, |union, d| union | places[d]);
            if cells.count_ones() != size {
                continue;
            }
            let kept = members(set).fold(0, |kept, d| kept | bit(d as u8 + 1));
            let in_cells = cells_at(pencil.house(unit), cells);
            let listed = |digits_of: &dyn Fn(u64) -> u64| -> Vec<Candidate> {
                in_cells
                    .clone()
                    .flat_map(|cell| {
                        digits(digits_of(pencil.candidates(cell))).map(move |d| (cell, d))
                    })
                    .collect()
            };
            let eliminations = listed(&|held| held & !kept);
            if !eliminations.is_empty() {
                let pattern = listed(&|held| held & kept);
                found.push(LogicStep::eliminating(technique, pattern, eliminations));
            }
        }
    }
    found
}
