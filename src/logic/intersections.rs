//! Locked candidates: pointing (a box's places for a digit on one line) and
//! claiming (a line's places for a digit in one box).

use super::pencil::{Pencil, UNITS};
use super::step::{Candidate, LogicStep, Technique};

/// The cells of `unit` at the positions `places`, as candidates of `digit`.
fn at(unit: usize, places: u16, digit: u8) -> Vec<Candidate> {
    (0..9)
        .filter(|at| places & 1 << at != 0)
        .map(|at| (usize::from(UNITS[unit][at]), digit))
        .collect()
}

/// Three positions of a unit in a row of bits: a third of a line, or a row
/// of a box.
const THIRD: u16 = 0b111;
/// A column of a box, as positions of the box.
const BOX_COLUMN: u16 = 0b001_001_001;

/// The unit of the other kind that holds all of `places` (the places of a
/// digit in `base`), with the positions there of the cells it shares with
/// the base: for a box, its row or its column; for a line, its box.
fn covers(base: usize, places: u16) -> [Option<(usize, u16)>; 2] {
    let third = (0..3).find(|&k| places & !(THIRD << (3 * k)) == 0);
    if base >= 18 {
        let b = base - 18;
        let col = (0..3).find(|&k| places & !(BOX_COLUMN << k) == 0);
        [
            third.map(|k| (3 * (b / 3) + k, THIRD << (3 * (b % 3)))),
            col.map(|k| (9 + 3 * (b % 3) + k, THIRD << (3 * (b / 3)))),
        ]
    } else {
        let cover = third.map(|j| {
            let (line, rows) = (base % 9, base < 9);
            if rows {
                (18 + 3 * (line / 3) + j, THIRD << (3 * (line % 3)))
            } else {
                (18 + 3 * j + line / 3, BOX_COLUMN << (line % 3))
            }
        });
        [cover, None]
    }
}

/// Every intersection of a unit in `bases` with a unit of the other kind
/// that holds every place of a digit in the base and still has the digit
/// elsewhere: the rest of the other unit loses it.
fn locked(pencil: &Pencil, bases: std::ops::Range<usize>, technique: Technique) -> Vec<LogicStep> {
    let mut found = Vec::new();
    for base in bases {
        for digit in 1..=9 {
            let places = pencil.places(base, digit);
            if places.count_ones() < 2 {
                continue;
            }
            for (cover, shared) in covers(base, places).into_iter().flatten() {
                let outside = pencil.places(cover, digit) & !shared;
                if outside != 0 {
                    found.push(LogicStep::eliminating(
                        technique,
                        at(base, places, digit),
                        at(cover, outside, digit),
                    ));
                }
            }
        }
    }
    found
}

/// Pointing: a box's places for a digit on one row or column.
pub(super) fn pointing(pencil: &Pencil) -> Vec<LogicStep> {
    locked(pencil, 18..27, Technique::Pointing)
}

/// Claiming: a row's or column's places for a digit in one box.
pub(super) fn claiming(pencil: &Pencil) -> Vec<LogicStep> {
    locked(pencil, 0..18, Technique::Claiming)
}
