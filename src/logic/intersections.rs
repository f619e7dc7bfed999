//! Locked candidates: pointing (a box's places for a digit on one line) and
//! claiming (a line's places for a digit in one box). Under a variant's rules,
//! the places of a digit in any house take it from every cell that sees them
//! all: pointing when the house is no row or column, claiming when it is one.

use super::marks::{Marks, cells_at, low_bits, members};
use super::step::{Candidate, LogicStep, Technique};
use crate::board::Shape;

/// The cells of a house (`cells`) at the positions `places`, as candidates
/// of `digit`.
fn at(cells: &[u16], places: u64, digit: u8) -> Vec<Candidate> {
    cells_at(cells, places).map(|cell| (cell, digit)).collect()
}

/// The positions `first, first + step, ...`, `count` of them.
fn spaced(first: usize, step: usize, count: usize) -> u64 {
    (0..count).fold(0, |set, k| set | 1 << (first + k * step))
}

/// The unit of the other kind that holds all of `places` (the places of a
/// digit in `base`), with the positions there of the cells it shares with
/// the base: for a box, its row or its column; for a line, its box.
fn covers(shape: Shape, base: usize, places: u64) -> [Option<(usize, u64)>; 2] {
    let (n, rows, cols) = (shape.size(), shape.box_rows(), shape.box_cols());
    let first = places.trailing_zeros() as usize;
    let within = |set: u64| places & !set == 0;
    if base >= 2 * n {
        // A box: `rows` rows of `cols` positions.
        let b = base - 2 * n;
        let (top, left) = ((b / rows) * rows, (b % rows) * cols);
        let (row, col) = (first / cols, first % cols);
        [
            within(low_bits(cols) << (row * cols)).then(|| (top + row, low_bits(cols) << left)),
            within(spaced(col, cols, rows)).then(|| (n + left + col, low_bits(rows) << top)),
        ]
    } else if base < n {
        // A row: its positions are columns, `cols` to a box.
        let stack = first / cols;
        let cover = within(low_bits(cols) << (stack * cols)).then(|| {
            let boxed = (base / rows) * rows + stack;
            (2 * n + boxed, low_bits(cols) << ((base % rows) * cols))
        });
        [cover, None]
    } else {
        // A column: its positions are rows, `rows` to a box.
        let column = base - n;
        let band = first / rows;
        let cover = within(low_bits(rows) << (band * rows)).then(|| {
            let boxed = band * rows + column / cols;
            (2 * n + boxed, spaced(column % cols, cols, rows))
        });
        [cover, None]
    }
}

/// Every intersection of a unit in `bases` with a unit of the other kind
/// that holds every place of a digit in the base and still has the digit
/// elsewhere: the rest of the other unit loses it.
fn locked<P: Marks>(pencil: &P, boxes: bool, technique: Technique) -> Vec<LogicStep> {
    if pencil.rules().is_some() {
        return seen_by_all(pencil, boxes, technique, usize::MAX);
    }
    let shape = pencil.shape();
    let n = shape.size();
    let bases = if boxes { 2 * n..3 * n } else { 0..2 * n };
    let mut found = Vec::new();
    for base in bases {
        for digit in 1..=n as u8 {
            let places = pencil.places(base, digit);
            if places.count_ones() < 2 {
                continue;
            }
            for (cover, shared) in covers(shape, base, places).into_iter().flatten() {
                let outside = pencil.places(cover, digit) & !shared;
                if outside != 0 {
                    found.push(LogicStep::eliminating(
                        technique,
                        at(pencil.house(base), places, digit),
                        at(pencil.house(cover), outside, digit),
                    ));
                }
            }
        }
    }
    found
}

/// Every house of a variant (a row or column when not `boxes`, any other
/// house when it is) whose places for a digit are all seen by cells outside
/// it that still hold the digit: those cells lose it. `most` of them at the
/// most. Worked on bit sets over the cells: the cells holding each digit, and
/// each place's peers (a grid without them has none found).
fn seen_by_all<P: Marks>(
    pencil: &P,
    boxes: bool,
    technique: Technique,
    most: usize,
) -> Vec<LogicStep> {
    let (n, cells) = (pencil.size(), pencil.shape().cells());
    let words = cells.div_ceil(64);
    let mut holding = vec![0u64; n * words];
    for cell in 0..cells {
        for d in members(pencil.candidates(cell)) {
            holding[d * words + cell / 64] |= 1 << (cell % 64);
        }
    }
    let (mut inside, mut seen) = (vec![0u64; words], vec![0u64; words]);
    let mut found = Vec::new();
    for base in (0..pencil.house_count()).filter(|&unit| (unit >= 2 * n) == boxes) {
        let house = pencil.house(base);
        inside.fill(0);
        for &cell in house {
            inside[usize::from(cell) / 64] |= 1 << (cell % 64);
        }
        for digit in 1..=n as u8 {
            let places = pencil.places(base, digit);
            if places.count_ones() < 2 {
                continue;
            }
            let d = usize::from(digit - 1);
            for (word, at) in seen.iter_mut().zip(0..) {
                *word = holding[d * words + at] & !inside[at];
            }
            for place in cells_at(house, places) {
                let Some(peers) = pencil.peer_set(place) else {
                    return found;
                };
                seen.iter_mut()
                    .zip(peers)
                    .for_each(|(word, peers)| *word &= peers);
            }
            let eliminations: Vec<Candidate> = (0..words)
                .flat_map(|at| members(seen[at]).map(move |bit| (at * 64 + bit, digit)))
                .collect();
            if !eliminations.is_empty() {
                let pattern = at(house, places, digit);
                found.push(LogicStep::eliminating(technique, pattern, eliminations));
                if found.len() >= most {
                    return found;
                }
            }
        }
    }
    found
}

/// The first pointing or claiming on `pencil`, looked for no further.
pub(super) fn first_locked<P: Marks>(pencil: &P) -> Option<LogicStep> {
    if pencil.rules().is_some() {
        let first = |boxes, technique| seen_by_all(pencil, boxes, technique, 1).pop();
        return first(true, Technique::Pointing).or_else(|| first(false, Technique::Claiming));
    }
    pointing(pencil).into_iter().chain(claiming(pencil)).next()
}

/// Pointing: a box's places for a digit on one row or column.
pub(super) fn pointing<P: Marks>(pencil: &P) -> Vec<LogicStep> {
    locked(pencil, true, Technique::Pointing)
}

/// Claiming: a row's or column's places for a digit in one box.
pub(super) fn claiming<P: Marks>(pencil: &P) -> Vec<LogicStep> {
    locked(pencil, false, Technique::Claiming)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cover of `places` in `base` worked out cell by cell from the houses.
    fn by_cells(shape: Shape, base: usize, places: u64) -> Vec<(usize, u64)> {
        let geometry = shape.geometry();
        let n = shape.size();
        let cells: Vec<usize> = cells_at(geometry.unit(base), places).collect();
        let others = if base >= 2 * n {
            0..2 * n
        } else {
            2 * n..3 * n
        };
        others
            .filter(|&cover| {
                let house = geometry.unit(cover);
                cells.iter().all(|&cell| house.contains(&(cell as u16)))
            })
            .map(|cover| {
                let shared = (0..n)
                    .filter(|&at| geometry.unit(base).contains(&geometry.unit(cover)[at]))
                    .fold(0, |set, at| set | 1 << at);
                (cover, shared)
            })
            .collect()
    }

    #[test]
    fn covers_are_the_houses_holding_every_place() {
        for (rows, cols) in [(3, 3), (2, 3), (3, 2), (2, 4), (4, 3), (5, 5)] {
            let shape = Shape::new(rows, cols).unwrap();
            let n = shape.size();
            for base in 0..3 * n {
                for places in [0b11u64, 0b101, 1 << (n - 1) | 1 << (n - 2), 0b1001] {
                    let mut found: Vec<_> =
                        covers(shape, base, places).into_iter().flatten().collect();
                    found.sort_unstable();
                    assert_eq!(
                        found,
                        by_cells(shape, base, places),
                        "{shape} {base} {places:b}"
                    );
                }
            }
        }
    }
}
