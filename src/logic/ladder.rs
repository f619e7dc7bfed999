//! The ladder: the techniques easiest first on a pencil-mark grid, one step
//! found and applied at a time, and a whole logical solve ([`Explanation`]).
//! Rating a solve is `rating.rs`'s.

use super::pencil::Pencil;
use super::step::{LogicStep, Technique};
use super::{fish, forcing, intersections, links, singles, subsets, uniqueness, wings};
use crate::board::Board;

/// The easiest step the ladder finds on `pencil`, if any.
pub fn next_step(pencil: &Pencil) -> Option<LogicStep> {
    let mut found = Found::default();
    Technique::LADDER
        .into_iter()
        .find_map(|technique| find_with(pencil, technique, &mut found))
}

/// The first step of `technique` on `pencil`.
pub fn find(pencil: &Pencil, technique: Technique) -> Option<LogicStep> {
    find_with(pencil, technique, &mut Found::default())
}

/// What two rungs of the ladder look for on the same grid (a direct form and
/// its plain one), looked for once.
#[derive(Default)]
struct Found {
    pointing: Option<Vec<LogicStep>>,
    claiming: Option<Vec<LogicStep>>,
    hidden_pairs: Option<Vec<LogicStep>>,
    hidden_triples: Option<Vec<LogicStep>>,
}

impl Found {
    fn pointing(&mut self, pencil: &Pencil) -> &[LogicStep] {
        self.pointing
            .get_or_insert_with(|| intersections::pointing(pencil))
    }

    fn claiming(&mut self, pencil: &Pencil) -> &[LogicStep] {
        self.claiming
            .get_or_insert_with(|| intersections::claiming(pencil))
    }

    fn hidden_pairs(&mut self, pencil: &Pencil) -> &[LogicStep] {
        self.hidden_pairs
            .get_or_insert_with(|| subsets::hidden(pencil, 2, Technique::HiddenPair))
    }

    fn hidden_triples(&mut self, pencil: &Pencil) -> &[LogicStep] {
        self.hidden_triples
            .get_or_insert_with(|| subsets::hidden(pencil, 3, Technique::HiddenTriple))
    }
}

/// [`find`], with what an easier rung already found on this grid.
fn find_with(pencil: &Pencil, technique: Technique, found: &mut Found) -> Option<LogicStep> {
    use Technique::*;
    let first = |steps: Vec<LogicStep>| steps.into_iter().next();
    match technique {
        FullHouse => singles::full_house(pencil),
        HiddenSingleBox => singles::hidden_single(pencil, true),
        HiddenSingleLine => singles::hidden_single(pencil, false),
        NakedSingle => singles::naked_single(pencil),
        DirectPointing => direct(pencil, found.pointing(pencil), technique, 18..27),
        DirectClaiming => direct(pencil, found.claiming(pencil), technique, 18..27),
        DirectHiddenPair => direct(pencil, found.hidden_pairs(pencil), technique, 0..27),
        DirectHiddenTriple => direct(pencil, found.hidden_triples(pencil), technique, 0..27),
        Pointing => found.pointing(pencil).first().cloned(),
        Claiming => found.claiming(pencil).first().cloned(),
        NakedPair => first(subsets::naked(pencil, 2, technique)),
        NakedTriple => first(subsets::naked(pencil, 3, technique)),
        NakedQuad => first(subsets::naked(pencil, 4, technique)),
        HiddenPair => found.hidden_pairs(pencil).first().cloned(),
        HiddenTriple => found.hidden_triples(pencil).first().cloned(),
        HiddenQuad => first(subsets::hidden(pencil, 4, technique)),
        XWing => first(fish::fish(pencil, 2, technique)),
        Swordfish => first(fish::fish(pencil, 3, technique)),
        Jellyfish => first(fish::fish(pencil, 4, technique)),
        Skyscraper => first(links::two_links(pencil, false, technique)),
        TwoStringKite => first(links::two_links(pencil, true, technique)),
        XyWing => first(wings::wings(pencil, false, technique)),
        XyzWing => first(wings::wings(pencil, true, technique)),
        UniqueRectangle => first(uniqueness::unique_rectangles(pencil)),
        BugPlusOne => uniqueness::bug_plus_one(pencil),
        ForcingXChain => forcing::contradiction(pencil, forcing::Depth::OneDigit, technique),
        ForcingChain => forcing::contradiction(pencil, forcing::Depth::Singles, technique),
        DynamicForcingChain => forcing::contradiction(pencil, forcing::Depth::Locked, technique),
    }
}

/// The first of `steps` whose eliminations leave a hidden single in one of
/// `units`, as a step of `technique` that makes them and places the single.
/// Pointing and claiming count singles in boxes only: that is what agrees with
/// Sudoku Explainer's direct forms (measured against `serate`).
fn direct(
    pencil: &Pencil,
    steps: &[LogicStep],
    technique: Technique,
    units: std::ops::Range<usize>,
) -> Option<LogicStep> {
    steps.iter().find_map(|step| {
        let single = singles::revealed_single(pencil, step, units.clone())?;
        Some(LogicStep {
            technique,
            rating: technique.rating(),
            placements: vec![single],
            ..step.clone()
        })
    })
}

/// Applies a step's placements and eliminations.
pub fn apply(pencil: &mut Pencil, step: &LogicStep) {
    for &(cell, digit) in &step.placements {
        pencil.place(cell, digit);
    }
    for &(cell, digit) in &step.eliminations {
        pencil.eliminate(cell, digit);
    }
}

/// A logical solve of a puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// Every step, in order.
    pub steps: Vec<LogicStep>,
    /// The grid where the ladder stopped (solved, or stuck).
    pub end: Pencil,
}

impl Explanation {
    /// True when the ladder solved the puzzle.
    pub fn solved(&self) -> bool {
        self.end.is_solved()
    }
}

/// Solves `board` with the ladder until it is solved or no technique applies.
pub fn explain(board: &Board) -> Explanation {
    explain_while(board, || true)
}

/// [`explain`], asking `go_on` before each step (a caller's stop signal or
/// deadline); a solve it stops ends where it was, neither solved nor stuck.
pub fn explain_while(board: &Board, mut go_on: impl FnMut() -> bool) -> Explanation {
    let mut pencil = Pencil::new(board);
    let mut steps = Vec::new();
    while !pencil.is_solved() && go_on() {
        let Some(step) = next_step(&pencil) else {
            break;
        };
        apply(&mut pencil, &step);
        steps.push(step);
    }
    Explanation { steps, end: pencil }
}
