//! XY-Wing and XYZ-Wing: a pivot cell and two pincers among its peers, which
//! between them force a digit `z` into one of the pincers (or the pivot): every
//! cell that sees all of them loses `z`.

use super::marks::{Marks, bit, digits};
use super::step::{Candidate, Link, LogicStep, Technique};

/// Every XY-Wing (`with_pivot` false: the pivot holds x and y) or XYZ-Wing
/// (true: the pivot holds x, y and z) that removes a candidate.
pub(super) fn wings<P: Marks>(
    pencil: &P,
    with_pivot: bool,
    technique: Technique,
) -> Vec<LogicStep> {
    let shape = pencil.shape();
    let sees = |a, b| pencil.sees(a, b);
    let mut found = Vec::new();
    let size = if with_pivot { 3 } else { 2 };
    for pivot in 0..shape.cells() {
        let peers = pencil.peers_of(pivot);
        let held = pencil.candidates(pivot);
        if held.count_ones() != size {
            continue;
        }
        let mut pincers: Vec<usize> = peers
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&c| pencil.candidates(c).count_ones() == 2)
            .collect();
        pincers.sort_unstable();
        for (i, &a) in pincers.iter().enumerate() {
            for &b in &pincers[i + 1..] {
                let (ca, cb) = (pencil.candidates(a), pencil.candidates(b));
                let z = ca & cb;
                if ca == cb || z.count_ones() != 1 {
                    continue;
                }
                let fits = if with_pivot {
                    (ca | cb) == held
                } else {
                    (ca | cb) & !z == held && held & z == 0
                };
                if !fits {
                    continue;
                }
                let digit = z.trailing_zeros() as u8 + 1;
                let eliminations: Vec<Candidate> = (0..shape.cells())
                    .filter(|&c| pencil.candidates(c) & bit(digit) != 0)
                    .filter(|&c| c != pivot && sees(c, a) && sees(c, b))
                    .filter(|&c| !with_pivot || sees(c, pivot))
                    .map(|c| (c, digit))
                    .collect();
                if !eliminations.is_empty() {
                    let pattern = [pivot, a, b]
                        .into_iter()
                        .flat_map(|c| digits(pencil.candidates(c)).map(move |d| (c, d)))
                        .collect();
                    let mut step = LogicStep::eliminating(technique, pattern, eliminations);
                    if !with_pivot {
                        step.links = xy_chain(pivot, (a, ca), (b, cb), digit);
                    }
                    found.push(step);
                }
            }
        }
    }
    found
}

/// The XY-Wing as a chain from one pincer's `z` to the other's: (z=x) in the
/// first pincer, x seen by the pivot, (x=y) in the pivot, y seen by the second
/// pincer, (y=z) there. Whichever pincer lacks `z`, the other holds it.
fn xy_chain(pivot: usize, (a, ca): (usize, u64), (b, cb): (usize, u64), z: u8) -> Vec<Link> {
    let other = |candidates: u64| (candidates & !bit(z)).trailing_zeros() as u8 + 1;
    let (x, y) = (other(ca), other(cb));
    [
        ((a, z), (a, x), true),
        ((a, x), (pivot, x), false),
        ((pivot, x), (pivot, y), true),
        ((pivot, y), (b, y), false),
        ((b, y), (b, z), true),
    ]
    .map(|(start, end, strong)| Link { start, end, strong })
    .to_vec()
}
