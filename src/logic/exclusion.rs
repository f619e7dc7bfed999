//! Aligned pair and triplet exclusion, as Sudoku Explainer defines them: two
//! (three) cells, and the cells of two (two or three) digits that see them
//! all, two or more of them. A choice of digits for the cells is excluded
//! when two cells that see each other take one digit, or when it takes all
//! some cell seeing them all holds (it would be left empty). A digit of one
//! of the cells that only excluded choices use goes.

use super::marks::{Marks, members as bits};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Cell;
use std::collections::HashSet;

/// The first aligned pair exclusion on `pencil` that removes anything.
pub(super) fn aligned_pair<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let bases = bases(pencil, 2);
    for (i, (a, a_excluders)) in bases.iter().enumerate() {
        for (b, b_excluders) in &bases[i + 1..] {
            let common: Vec<usize> = a_excluders
                .iter()
                .filter(|cell| b_excluders.contains(cell))
                .copied()
                .collect();
            if common.len() < 2 {
                continue;
            }
            if let Some(step) = exclude(pencil, [*a, *b], &common) {
                return Some(step);
            }
        }
    }
    None
}

/// The cells a set may be made of, each with its peers of two to `most`
/// digits (the cells that may exclude a choice): cells of two digits or more
/// with such a peer, none while a peer holds one digit only (a naked single
/// is waiting).
fn bases<P: Marks>(pencil: &P, most: u32) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    for cell in 0..pencil.shape().cells() {
        if pencil.candidates(cell).count_ones() < 2 {
            continue;
        }
        let mut excluders = Vec::new();
        let mut single = false;
        for &peer in pencil.peers_of(cell) {
            let peer = usize::from(peer);
            match pencil.candidates(peer).count_ones() {
                1 => single = true,
                count if (2..=most).contains(&count) => excluders.push(peer),
                _ => {}
            }
        }
        if !single && !excluders.is_empty() {
            out.push((cell, excluders));
        }
    }
    out
}

/// The step of the pair `cells` with the bivalue cells `common` that see
/// both, when a digit of either is used by no allowed pair.
fn exclude<P: Marks>(pencil: &P, cells: [usize; 2], common: &[usize]) -> Option<LogicStep> {
    let digits = cells.map(|cell| pencil.candidates(cell));
    let see = pencil.sees(cells[0], cells[1]);
    // The digits each cell takes in some allowed pair.
    let mut used = [0u64; 2];
    for x in bits(digits[0]) {
        for y in bits(digits[1]) {
            let pair = (1u64 << x) | (1 << y);
            let allowed = !(x == y && see)
                && common
                    .iter()
                    .all(|&cell| pencil.candidates(cell) & !pair != 0);
            if allowed {
                used[0] |= 1 << x;
                used[1] |= 1 << y;
            }
        }
    }
    excluded(
        pencil,
        Technique::AlignedPairExclusion,
        &cells,
        &used,
        common,
    )
}

/// The first aligned triplet exclusion on `pencil` that removes anything:
/// two cells of the set, and a third of two or three digits that excludes
/// for one of them, as Sudoku Explainer looks for them.
pub(super) fn aligned_triplet<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let bases = bases(pencil, 3);
    let mut seen = HashSet::new();
    for (i, (a, a_excluders)) in bases.iter().enumerate() {
        for (b, b_excluders) in &bases[i + 1..] {
            let twins = a_excluders.iter().chain(b_excluders);
            for third in twins.filter(|&&cell| cell != *a && cell != *b) {
                let Some((_, c_excluders)) = bases.iter().find(|(cell, _)| cell == third) else {
                    continue;
                };
                let mut key = [*a, *b, *third];
                key.sort_unstable();
                if !seen.insert(key) {
                    continue;
                }
                let common: Vec<usize> = a_excluders
                    .iter()
                    .filter(|cell| b_excluders.contains(cell) && c_excluders.contains(cell))
                    .copied()
                    .collect();
                if common.len() >= 2
                    && let Some(step) = exclude_three(pencil, key, &common)
                {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// The step of the triplet `cells` with the cells `common` that see all
/// three, when a digit of one of them is used by no allowed choice.
fn exclude_three<P: Marks>(pencil: &P, cells: [Cell; 3], common: &[usize]) -> Option<LogicStep> {
    let digits = cells.map(|cell| pencil.candidates(cell));
    let see = [(0, 1), (0, 2), (1, 2)].map(|(i, j)| pencil.sees(cells[i], cells[j]));
    let mut used = [0u64; 3];
    for x in bits(digits[0]) {
        for y in bits(digits[1]) {
            if x == y && see[0] {
                continue;
            }
            for z in bits(digits[2]) {
                if (x == z && see[1]) || (y == z && see[2]) {
                    continue;
                }
                let choice = (1u64 << x) | (1 << y) | (1 << z);
                if common
                    .iter()
                    .all(|&cell| pencil.candidates(cell) & !choice != 0)
                {
                    used[0] |= 1 << x;
                    used[1] |= 1 << y;
                    used[2] |= 1 << z;
                }
            }
        }
    }
    excluded(
        pencil,
        Technique::AlignedTripletExclusion,
        &cells,
        &used,
        common,
    )
}

/// The step of `technique` on the set `cells`, each keeping the digits
/// `used` by some allowed choice, excluded by the cells `common`; none when
/// every digit is used.
fn excluded<P: Marks>(
    pencil: &P,
    technique: Technique,
    cells: &[Cell],
    used: &[u64],
    common: &[usize],
) -> Option<LogicStep> {
    let mut eliminations: Vec<Candidate> = Vec::new();
    for (&cell, &used) in cells.iter().zip(used) {
        let unused = pencil.candidates(cell) & !used;
        eliminations.extend(bits(unused).map(|bit| (cell, bit as u8 + 1)));
    }
    if eliminations.is_empty() {
        return None;
    }
    let pattern = cells
        .iter()
        .chain(common)
        .flat_map(|&cell| bits(pencil.candidates(cell)).map(move |bit| (cell, bit as u8 + 1)))
        .collect();
    Some(LogicStep::eliminating(technique, pattern, eliminations))
}
