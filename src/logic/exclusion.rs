//! Aligned pair exclusion, as Sudoku Explainer defines it: two cells, and the
//! bivalue cells that see both (two or more of them). A pair of digits for the
//! two is excluded when they are one digit and the cells see each other, or
//! when the pair is all some bivalue cell seeing both holds (it would be left
//! empty). A digit of one of the two that only excluded pairs use goes.

use super::marks::{Marks, members as bits};
use super::step::{Candidate, LogicStep, Technique};

/// The first aligned pair exclusion on `pencil` that removes anything.
pub(super) fn aligned_pair<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let bases = bases(pencil);
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

/// The cells a pair may be made of, each with its bivalue peers (the cells
/// that may exclude a pair): cells of two digits or more with such a peer,
/// none while a peer holds one digit only (a naked single is waiting).
fn bases<P: Marks>(pencil: &P) -> Vec<(usize, Vec<usize>)> {
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
                2 => excluders.push(peer),
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
    let mut eliminations: Vec<Candidate> = Vec::new();
    for (k, &cell) in cells.iter().enumerate() {
        eliminations.extend(bits(digits[k] & !used[k]).map(|bit| (cell, bit as u8 + 1)));
    }
    if eliminations.is_empty() {
        return None;
    }
    let pattern = cells
        .iter()
        .chain(common)
        .flat_map(|&cell| bits(pencil.candidates(cell)).map(move |bit| (cell, bit as u8 + 1)))
        .collect();
    Some(LogicStep::eliminating(
        Technique::AlignedPairExclusion,
        pattern,
        eliminations,
    ))
}
