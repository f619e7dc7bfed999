//! Single-digit patterns of two strong links (a unit where a digit has exactly
//! two places) joined by a weak one: A=B-C=D, so A or D holds the digit and
//! every cell seeing both loses it. Skyscraper: both strong links in parallel
//! lines, B and C sharing a line across them; 2-String Kite: one in a row, one in
//! a column, B and C sharing a box.

use super::marks::{Marks, bit, cells_at};
use super::step::{Candidate, Link, LogicStep, Technique};

/// The strong links of `digit` in rows (`rows`) or columns: their two cells.
fn strong_links<P: Marks>(pencil: &P, digit: u8, rows: bool) -> Vec<(usize, usize)> {
    let n = pencil.size();
    let units = if rows { 0..n } else { n..2 * n };
    units
        .filter_map(|unit| {
            let places = pencil.places(unit, digit);
            (places.count_ones() == 2).then(|| {
                let mut cells = cells_at(pencil.house(unit), places);
                (cells.next().unwrap_or(0), cells.next().unwrap_or(0))
            })
        })
        .collect()
}

/// Every Skyscraper (`kite` false) or 2-String Kite (true) that removes a candidate.
pub(super) fn two_links<P: Marks>(pencil: &P, kite: bool, technique: Technique) -> Vec<LogicStep> {
    let shape = pencil.shape();
    let (row_of, col_of, box_of) = (
        |cell| shape.row_of(cell),
        |cell| shape.col_of(cell),
        |cell| pencil.area_of(cell),
    );
    let sees = |a, b| pencil.sees(a, b);
    let mut found = Vec::new();
    for digit in 1..=shape.size() as u8 {
        let rows = strong_links(pencil, digit, true);
        let cols = strong_links(pencil, digit, false);
        let pairs: Vec<((usize, usize), (usize, usize))> = if kite {
            rows.iter()
                .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
                .collect()
        } else {
            let same = |links: &[(usize, usize)]| -> Vec<_> {
                links
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &l)| links[i + 1..].iter().map(move |&m| (l, m)))
                    .collect()
            };
            [same(&rows), same(&cols)].concat()
        };
        for ((p, q), (r, s)) in pairs {
            for (a, b, c, d) in [(p, q, r, s), (q, p, r, s), (p, q, s, r), (q, p, s, r)] {
                let distinct = a != c && a != d && b != c && b != d;
                let joined = if kite {
                    box_of(b) == box_of(c)
                } else {
                    // Parallel links: B and C share the crossing line, A and D do not.
                    let same_line =
                        |x: usize, y: usize| row_of(x) == row_of(y) || col_of(x) == col_of(y);
                    same_line(b, c) && !same_line(a, d)
                };
                if !distinct || !joined || !sees(b, c) {
                    continue;
                }
                let eliminations: Vec<Candidate> = (0..shape.cells())
                    .filter(|&x| pencil.candidates(x) & bit(digit) != 0)
                    .filter(|&x| sees(x, a) && sees(x, d) && ![b, c].contains(&x))
                    .map(|x| (x, digit))
                    .collect();
                if !eliminations.is_empty() {
                    found.push(linked(technique, digit, [a, b, c, d], eliminations));
                }
            }
        }
    }
    found
}

/// The step of two strong links `a = b` and `c = d` of `digit` joined by the
/// weak `b - c`: whichever end is false, the other is true.
fn linked(
    technique: Technique,
    digit: u8,
    [a, b, c, d]: [usize; 4],
    eliminations: Vec<Candidate>,
) -> LogicStep {
    let mut step = LogicStep::eliminating(
        technique,
        [a, b, c, d].map(|x| (x, digit)).to_vec(),
        eliminations,
    );
    step.links = [(a, b, true), (b, c, false), (c, d, true)]
        .map(|(start, end, strong)| Link {
            start: (start, digit),
            end: (end, digit),
            strong,
        })
        .to_vec();
    step
}
