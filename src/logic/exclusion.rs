//! Aligned pair and triplet exclusion, as Sudoku Explainer defines them: two
//! (three) cells, and the cells of two (two or three) digits that see them
//! all, two or more of them. A choice of digits for the cells is excluded
//! when two cells that see each other take one digit, or when it takes all
//! some cell seeing them all holds (it would be left empty). A digit of one
//! of the cells that only excluded choices use goes.

use super::marks::{Marks, members as bits};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Cell;

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
/// three cells, one of two or three digits seeing another (as Sudoku
/// Explainer picks the third among the cells that may exclude for the
/// first two), with two or more cells excluding for all three. On 9x9
/// grids and smaller only: wider ones have too many triplets to try at every
/// step (a third of the time on 16x16), and Sudoku Explainer has no such
/// sizes to agree with.
pub(super) fn aligned_triplet<P: Marks>(pencil: &P) -> Option<LogicStep> {
    if pencil.size() > 9 {
        return None;
    }
    let bases = bases(pencil, 3);
    let words = pencil.shape().cells().div_ceil(64);
    // Each base's excluders as a set over the cells, `words` words a base.
    let mut sets = vec![0u64; bases.len() * words];
    for (set, (_, excluders)) in sets.chunks_mut(words).zip(&bases) {
        for &cell in excluders {
            set[cell / 64] |= 1 << (cell % 64);
        }
    }
    let set = |i: usize| &sets[i * words..][..words];
    let mut index = vec![usize::MAX; pencil.shape().cells()];
    for (at, &(cell, _)) in bases.iter().enumerate() {
        index[cell] = at;
    }
    // Sudoku Explainer's third cell: a base of two or three digits that
    // sees one of the first two.
    let third = |r: Cell, p: Cell, q: Cell| {
        (2..=3).contains(&pencil.candidates(r).count_ones())
            && (pencil.sees(r, p) || pencil.sees(r, q))
    };
    let (mut pair, mut common) = (vec![0u64; words], vec![0u64; words]);
    for i in 0..bases.len() {
        for j in i + 1..bases.len() {
            if meet(&mut pair, set(i), set(j)) < 2 {
                continue;
            }
            let (a, b) = (bases[i].0, bases[j].0);
            let (near_a, near_b) = (&bases[i].1, &bases[j].1);
            let twins = near_a
                .iter()
                .chain(near_b.iter().filter(|c| !near_a.contains(c)));
            for &c in twins.filter(|&&c| c != a && c != b && index[c] != usize::MAX) {
                let k = index[c];
                // Each triplet once: from the first of its pairs (in the
                // bases' order) that finds it.
                let earlier = (k < j && third(b, a, c)) || (k < i && third(a, b, c));
                if earlier || meet(&mut common, &pair, set(k)) < 2 {
                    continue;
                }
                let excluders: Vec<usize> = (0..words)
                    .flat_map(|word| bits(common[word]).map(move |at| word * 64 + at))
                    .collect();
                if let Some(step) = exclude_three(pencil, [a, b, c], &excluders) {
                    return Some(step);
                }
            }
        }
    }
    None
}

/// Writes the cells in both `a` and `b` into `out`; how many there are.
fn meet(out: &mut [u64], a: &[u64], b: &[u64]) -> u32 {
    let mut count = 0;
    for ((out, a), b) in out.iter_mut().zip(a).zip(b) {
        *out = a & b;
        count += out.count_ones();
    }
    count
}

/// The step of the triplet `cells` with the cells `common` that see all
/// three, when a digit of one of them is used by no allowed choice.
fn exclude_three<P: Marks>(pencil: &P, cells: [Cell; 3], common: &[usize]) -> Option<LogicStep> {
    let digits = cells.map(|cell| pencil.candidates(cell));
    let see = [(0, 1), (0, 2), (1, 2)].map(|(i, j)| pencil.sees(cells[i], cells[j]));
    // The excluders that a choice can empty: those of the set's digits only.
    let all = digits[0] | digits[1] | digits[2];
    let sets: Vec<u64> = common
        .iter()
        .map(|&cell| pencil.candidates(cell))
        .filter(|&set| set & !all == 0)
        .collect();
    let allowed = |choice: [usize; 3]| {
        let [x, y, z] = choice;
        !(x == y && see[0] || x == z && see[1] || y == z && see[2])
            && sets
                .iter()
                .all(|&set| set & !((1u64 << x) | (1 << y) | (1 << z)) != 0)
    };
    // Each digit of each cell not yet in an allowed choice: the first
    // allowed choice with it marks its three digits used.
    let mut used = [0u64; 3];
    for (m, &set) in digits.iter().enumerate() {
        for d in bits(set) {
            if used[m] >> d & 1 == 1 {
                continue;
            }
            let [p, q] = [(m + 1) % 3, (m + 2) % 3];
            let choice = bits(digits[p])
                .flat_map(|e| bits(digits[q]).map(move |f| (e, f)))
                .map(|(e, f)| {
                    let mut choice = [0; 3];
                    (choice[m], choice[p], choice[q]) = (d, e, f);
                    choice
                })
                .find(|&choice| allowed(choice));
            if let Some(choice) = choice {
                for (k, digit) in choice.into_iter().enumerate() {
                    used[k] |= 1 << digit;
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
