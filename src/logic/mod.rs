//! The logical solver: human techniques applied easiest first on a pencil-mark
//! grid, each step naming its technique, its pattern and what it places or
//! eliminates, and a rating on the Sudoku Explainer scale taken from the hardest
//! step needed. Std only. Every step is found by the logic alone: nothing here
//! consults a solution.
//!
//! - `pencil`: the pencil-mark grid, units and peers;
//! - `step`: techniques with their ratings, and `LogicStep`;
//! - `rating`: a puzzle's rating, the counts per technique, the level names;
//! - `hint`: a player's wrong digits and the next step from their position;
//! - `singles`, `intersections`, `subsets`, `fish`, `links`, `wings`,
//!   `uniqueness`, `forcing`: the techniques.
//!
//! Not yet on the ladder (issue 14 goes on): unique rectangles of types 2 to 6
//! and unique loops, BUG types 2 to 4, aligned pair and triplet exclusion, the
//! chains as Sudoku Explainer builds them (X- and Y-cycles, bidirectional
//! cycles, cell and region forcing chains, nested dynamic chains), and the
//! complexity modifiers of larger wings and fish. The contradictions of
//! `forcing` stand in for the chains (same tiers, length-rated); a puzzle they
//! cannot crack rates [`BEYOND_LADDER`].

mod fish;
mod forcing;
mod hint;
mod intersections;
mod links;
mod pencil;
mod rating;
mod singles;
mod step;
mod subsets;
mod uniqueness;
mod wings;

pub use hint::{ChangedGiven, Hint, Next, changed_given, hint};
pub use pencil::{BadPencil, Pencil};
pub use rating::{BEYOND_LADDER, Level, Rating, RatingRange, TechniqueCount};
pub use step::{Candidate, LogicStep, Technique};

use crate::board::Board;

/// The easiest step the ladder finds on `pencil`, if any.
pub fn next_step(pencil: &Pencil) -> Option<LogicStep> {
    Technique::LADDER
        .into_iter()
        .find_map(|technique| find(pencil, technique))
}

/// The first step of `technique` on `pencil`.
pub fn find(pencil: &Pencil, technique: Technique) -> Option<LogicStep> {
    use Technique::*;
    let first = |steps: Vec<LogicStep>| steps.into_iter().next();
    match technique {
        FullHouse => singles::full_house(pencil),
        HiddenSingleBox => singles::hidden_single(pencil, true),
        HiddenSingleLine => singles::hidden_single(pencil, false),
        NakedSingle => singles::naked_single(pencil),
        DirectPointing => direct(pencil, intersections::pointing(pencil), technique, 18..27),
        DirectClaiming => direct(pencil, intersections::claiming(pencil), technique, 18..27),
        DirectHiddenPair => direct(
            pencil,
            subsets::hidden(pencil, 2, technique),
            technique,
            0..27,
        ),
        DirectHiddenTriple => direct(
            pencil,
            subsets::hidden(pencil, 3, technique),
            technique,
            0..27,
        ),
        Pointing => first(intersections::pointing(pencil)),
        Claiming => first(intersections::claiming(pencil)),
        NakedPair => first(subsets::naked(pencil, 2, technique)),
        NakedTriple => first(subsets::naked(pencil, 3, technique)),
        NakedQuad => first(subsets::naked(pencil, 4, technique)),
        HiddenPair => first(subsets::hidden(pencil, 2, technique)),
        HiddenTriple => first(subsets::hidden(pencil, 3, technique)),
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
    steps: Vec<LogicStep>,
    technique: Technique,
    units: std::ops::Range<usize>,
) -> Option<LogicStep> {
    steps.into_iter().find_map(|step| {
        let single = singles::revealed_single(pencil, &step, units.clone())?;
        Some(LogicStep {
            technique,
            rating: technique.rating(),
            placements: vec![single],
            ..step
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

    /// The rating of the solve.
    pub fn rating(&self) -> Rating {
        Rating::of(self)
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
