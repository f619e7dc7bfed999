//! Techniques that rest on the puzzle having one solution (the service checks
//! that before it explains or rates): the unique rectangle of type 1 and the
//! bivalue universal grave with one extra candidate (BUG+1).

use super::marks::{Marks, digits};
use super::step::{Candidate, LogicStep, Technique};

/// Unique rectangles of type 1: four empty cells on two rows, two columns and
/// two boxes, three holding just {a, b} and the fourth {a, b} and more. Were the
/// fourth a or b, a and b could swap in the rectangle: two solutions. So the
/// fourth loses a and b.
pub(super) fn unique_rectangles<P: Marks>(pencil: &P) -> Vec<LogicStep> {
    let shape = pencil.shape();
    let n = shape.size();
    let mut found = Vec::new();
    for r1 in 0..n {
        for r2 in r1 + 1..n {
            for c1 in 0..n {
                for c2 in c1 + 1..n {
                    let corners = [r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2];
                    // Two boxes (or regions), each holding a side: at
                    // classic boxes one side shared implies the other, in a
                    // jigsaw it does not.
                    let b = corners.map(|cell| pencil.area_of(cell));
                    let two_boxes = (b[0] == b[1] && b[2] == b[3] && b[0] != b[2])
                        || (b[0] == b[2] && b[1] == b[3] && b[0] != b[1]);
                    if two_boxes && let Some(step) = rectangle(pencil, corners) {
                        found.push(step);
                    }
                }
            }
        }
    }
    found
}

fn rectangle<P: Marks>(pencil: &P, corners: [usize; 4]) -> Option<LogicStep> {
    let sets: [u64; 4] = corners.map(|cell| pencil.candidates(cell));
    if sets.contains(&0) {
        return None;
    }
    let pairs: Vec<usize> = (0..4).filter(|&i| sets[i].count_ones() == 2).collect();
    if pairs.len() != 3 {
        return None;
    }
    let pair = sets[pairs[0]];
    let extra = (0..4).find(|i| !pairs.contains(i))?;
    if pairs.iter().any(|&i| sets[i] != pair) || sets[extra] & pair != pair {
        return None;
    }
    let pattern: Vec<Candidate> = corners
        .iter()
        .flat_map(|&cell| digits(pair).map(move |digit| (cell, digit)))
        .collect();
    let eliminations = digits(pair).map(|digit| (corners[extra], digit)).collect();
    Some(LogicStep::eliminating(
        Technique::UniqueRectangle,
        pattern,
        eliminations,
    ))
}

/// BUG+1: every empty cell holds two candidates but one, which holds three.
/// Without the digit of that cell that has three places in its row, every digit
/// would have two places in every unit, a grid with two solutions; so that
/// digit goes there.
pub(super) fn bug_plus_one<P: Marks>(pencil: &P) -> Option<LogicStep> {
    let shape = pencil.shape();
    let n = shape.size();
    let mut extra = None;
    for cell in 0..shape.cells() {
        match pencil.candidates(cell).count_ones() {
            0 | 2 => {}
            3 if extra.is_none() => extra = Some(cell),
            _ => return None,
        }
    }
    let cell = extra?;
    let units: Vec<usize> = pencil
        .houses_of(cell)
        .iter()
        .map(|&u| usize::from(u))
        .collect();
    let digit = digits(pencil.candidates(cell)).find(|&digit| {
        units
            .iter()
            .all(|&unit| pencil.places(unit, digit).count_ones() == 3)
    })?;
    // The grave: without that candidate, every digit not yet placed in a unit
    // has exactly two places there.
    let grave = (0..pencil.house_count()).all(|unit| {
        (1..=n as u8).all(|d| {
            let places = pencil.places(unit, d).count_ones();
            let extra = u32::from(d == digit && units.contains(&unit));
            pencil.holds(unit, d) && places == 0 || places == 2 + extra
        })
    });
    if !grave {
        return None;
    }
    let pattern = (0..shape.cells())
        .filter(|&other| pencil.candidates(other) != 0)
        .flat_map(|other| digits(pencil.candidates(other)).map(move |d| (other, d)))
        .collect();
    Some(LogicStep {
        technique: Technique::BugPlusOne,
        rating: Technique::BugPlusOne.rating(),
        pattern,
        placements: vec![(cell, digit)],
        eliminations: Vec::new(),
        links: Vec::new(),
    })
}
