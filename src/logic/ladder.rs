//! The ladder: the techniques easiest first on a pencil-mark grid, one step
//! found and applied at a time, and a whole logical solve ([`Explanation`]).
//! Rating a solve is `rating.rs`'s.

use super::marks::Marks;
use super::pencil::Pencil;
use super::step::{LogicStep, Technique};
use super::trials::{Depth, Trials};
use super::wide::WidePencil;
use super::{
    cages, cycles, exclusion, fish, grave, intersections, lines, links, multiple, singles, subsets,
    uniqueness, wings,
};
use std::sync::Arc;

use crate::board::{Board, Grid, Layout};

/// The easiest step the ladder finds on `pencil`, if any.
pub fn next_step(pencil: &Pencil) -> Option<LogicStep> {
    next_step_until(pencil, &|| false)
}

/// The first step of `technique` on `pencil`.
pub fn find(pencil: &Pencil, technique: Technique) -> Option<LogicStep> {
    find_with(pencil, technique, &mut Found::default(), &|| false)
}

/// The easiest step the ladder finds on `pencil` of any shape, if any; the
/// longest rungs (the contradictions) ask `stop` as they go and give up
/// when it says so.
pub(super) fn next_step_until<P: Trials>(pencil: &P, stop: &dyn Fn() -> bool) -> Option<LogicStep> {
    next_step_below(pencil, f64::INFINITY, stop)
}

/// [`next_step_until`], trying no technique rated above `ceiling`.
fn next_step_below<P: Trials>(
    pencil: &P,
    ceiling: f64,
    stop: &dyn Fn() -> bool,
) -> Option<LogicStep> {
    let mut found = Found::default();
    Technique::LADDER
        .into_iter()
        .filter(|technique| technique.rating() <= ceiling + 1e-9)
        .find_map(|technique| find_with(pencil, technique, &mut found, stop))
}

/// What two rungs of the ladder look for on the same grid (a direct form and
/// its plain one), looked for once.
#[derive(Default)]
struct Found {
    pointing: Option<Vec<LogicStep>>,
    claiming: Option<Vec<LogicStep>>,
    hidden_pairs: Option<Vec<LogicStep>>,
    hidden_triples: Option<Vec<LogicStep>>,
    cycles: Option<Option<LogicStep>>,
    multiple: Option<Option<LogicStep>>,
    loops: Option<Option<LogicStep>>,
    grave: Option<Option<LogicStep>>,
}

impl Found {
    fn pointing<P: Marks>(&mut self, pencil: &P) -> &[LogicStep] {
        self.pointing
            .get_or_insert_with(|| intersections::pointing(pencil))
    }

    fn claiming<P: Marks>(&mut self, pencil: &P) -> &[LogicStep] {
        self.claiming
            .get_or_insert_with(|| intersections::claiming(pencil))
    }

    fn hidden_pairs<P: Marks>(&mut self, pencil: &P) -> &[LogicStep] {
        self.hidden_pairs
            .get_or_insert_with(|| subsets::hidden(pencil, 2, Technique::HiddenPair))
    }

    /// The easiest forcing chain or cycle: one search for the five rungs.
    fn cycles<P: Marks>(&mut self, pencil: &P, stop: &dyn Fn() -> bool) -> Option<&LogicStep> {
        self.cycles
            .get_or_insert_with(|| cycles::easiest(pencil, stop))
            .as_ref()
    }

    /// The easiest unique rectangle or loop: one search for their rungs.
    fn loops<P: Marks>(&mut self, pencil: &P) -> Option<&LogicStep> {
        self.loops
            .get_or_insert_with(|| {
                pencil
                    .uniqueness_holds()
                    .then(|| uniqueness::easiest(pencil))
                    .flatten()
            })
            .as_ref()
    }

    /// The easiest BUG step: one search for its rungs.
    fn grave<P: Marks>(&mut self, pencil: &P) -> Option<&LogicStep> {
        self.grave
            .get_or_insert_with(|| {
                pencil
                    .uniqueness_holds()
                    .then(|| grave::easiest(pencil))
                    .flatten()
            })
            .as_ref()
    }

    /// The easiest cell or region forcing chain: one search for both rungs.
    fn multiple<P: Marks>(&mut self, pencil: &P, stop: &dyn Fn() -> bool) -> Option<&LogicStep> {
        self.multiple
            .get_or_insert_with(|| multiple::easiest(pencil, stop))
            .as_ref()
    }

    /// The step of `technique` when it is the easiest of its group's one
    /// search (unique loops, BUG, static chains and cycles, cell and region
    /// forcing chains).
    fn easiest<P: Marks>(
        &mut self,
        pencil: &P,
        technique: Technique,
        stop: &dyn Fn() -> bool,
    ) -> Option<LogicStep> {
        use Technique::*;
        let step = match technique {
            UniqueRectangle | UniqueRectangleType2 | UniqueRectangleType3
            | UniqueRectangleType4 | UniqueLoop | UniqueLoopType2 | UniqueLoopType3
            | UniqueLoopType4 => self.loops(pencil),
            BugPlusOne | BugType2 | BugType3 | BugType4 => self.grave(pencil),
            CellForcingChain | RegionForcingChain => self.multiple(pencil, stop),
            _ => self.cycles(pencil, stop),
        };
        step.filter(|step| step.technique == technique).cloned()
    }

    fn hidden_triples<P: Marks>(&mut self, pencil: &P) -> &[LogicStep] {
        self.hidden_triples
            .get_or_insert_with(|| subsets::hidden(pencil, 3, Technique::HiddenTriple))
    }
}

/// [`find`], with what an easier rung already found on this grid.
fn find_with<P: Trials>(
    pencil: &P,
    technique: Technique,
    found: &mut Found,
    stop: &dyn Fn() -> bool,
) -> Option<LogicStep> {
    use Technique::*;
    let first = |steps: Vec<LogicStep>| steps.into_iter().next();
    let boxes = |_: &LogicStep, unit: usize| pencil.is_area(unit);
    let own = |step: &LogicStep, unit: usize| singles::hidden_in(pencil, step, unit);
    match technique {
        FullHouse => singles::full_house(pencil),
        HiddenSingleBox => singles::hidden_single(pencil, true),
        HiddenSingleLine => singles::hidden_single(pencil, false),
        NakedSingle => singles::naked_single(pencil),
        Thermometer => lines::thermometer(pencil),
        NonConsecutive => lines::non_consecutive(pencil),
        CageCombination => cages::cage_combination(pencil),
        InniesOuties => cages::innies_outies(pencil),
        DirectPointing => direct(pencil, found.pointing(pencil), technique, &boxes),
        DirectClaiming => direct(pencil, found.claiming(pencil), technique, &boxes),
        DirectHiddenPair => direct(pencil, found.hidden_pairs(pencil), technique, &own),
        DirectHiddenTriple => direct(pencil, found.hidden_triples(pencil), technique, &own),
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
        UniqueRectangle | UniqueRectangleType2 | UniqueRectangleType3 | UniqueRectangleType4
        | UniqueLoop | UniqueLoopType2 | UniqueLoopType3 | UniqueLoopType4 | BugPlusOne
        | BugType2 | BugType3 | BugType4 | BidirectionalXCycle | BidirectionalYCycle
        | ForcingXChain | BidirectionalCycle | ForcingChain | CellForcingChain
        | RegionForcingChain => found.easiest(pencil, technique, stop),
        AlignedPairExclusion => exclusion::aligned_pair(pencil),
        // Sudoku Explainer takes the easiest of its chains and this: it
        // goes first when no cycle or forcing chain rates 7.5 or less.
        AlignedTripletExclusion => match found.cycles(pencil, stop) {
            Some(step) if step.rating <= technique.rating() + 1e-9 => None,
            _ => exclusion::aligned_triplet(pencil),
        },
        NishioForcingChain => pencil.contradiction(Depth::OneDigit, technique, stop),
        DynamicForcingChain => pencil.contradiction(Depth::Singles, technique, stop),
        DynamicForcingChainPlus => pencil.contradiction(Depth::Locked, technique, stop),
        NestedForcingChain => pencil.contradiction(Depth::Nested, technique, stop),
        NestedMultipleForcingChain => pencil.contradiction(Depth::NestedMultiple, technique, stop),
        NestedDynamicForcingChain => pencil.contradiction(Depth::NestedDynamic, technique, stop),
    }
}

/// The first of `steps` whose eliminations leave a hidden single in a house
/// that `counts` for the step, as a step of `technique` that makes them and
/// places the single.
/// Pointing and claiming count singles in boxes only, hidden sets in the
/// house they are hidden in only: that is what agrees with Sudoku
/// Explainer's direct forms (measured against `serate`).
fn direct<P: Marks>(
    pencil: &P,
    steps: &[LogicStep],
    technique: Technique,
    counts: &dyn Fn(&LogicStep, usize) -> bool,
) -> Option<LogicStep> {
    steps.iter().find_map(|step| {
        let single = singles::revealed_single(pencil, step, &|unit| counts(step, unit))?;
        Some(LogicStep {
            technique,
            rating: technique.rating(),
            placements: vec![single],
            ..step.clone()
        })
    })
}

/// Applies a step's placements and eliminations.
pub fn apply<P: Marks>(pencil: &mut P, step: &LogicStep) {
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
    /// The grid's digits where the ladder stopped (solved, or stuck),
    /// row-major, 0 for empty.
    pub end: Vec<u8>,
}

impl Explanation {
    /// True when the ladder solved the puzzle.
    pub fn solved(&self) -> bool {
        self.end.iter().all(|&value| value != 0)
    }
}

/// Solves `board` with the ladder until it is solved or no technique applies.
pub fn explain(board: &Board) -> Explanation {
    explain_while(board, f64::INFINITY, || true)
}

/// [`explain`], asking `go_on` before each step (a caller's stop signal or
/// deadline); a solve it stops ends where it was, neither solved nor stuck.
/// No technique rated above `ceiling` is tried: a puzzle that needs one ends
/// stuck, rated beyond the ladder (what a generator wants of a puzzle it
/// would turn down anyway, rated above its range: the chains are the slowest
/// rungs).
pub fn explain_while(board: &Board, ceiling: f64, go_on: impl FnMut() -> bool) -> Explanation {
    solve(Pencil::new(board), ceiling, go_on, &|| false)
}

/// The logical solve of a grid of any shape, under a variant's `rules` when
/// given (the layout of the grid's shape), asking `go_on` before each step
/// and `stop` within the longest ones: a solve either stops ends where it
/// was, neither solved nor stuck.
pub fn explain_grid(
    grid: &Grid,
    rules: Option<&Arc<Layout>>,
    go_on: impl FnMut() -> bool,
    stop: &dyn Fn() -> bool,
) -> Explanation {
    if let Some(layout) = rules {
        return solve(
            WidePencil::with_rules(grid, layout),
            f64::INFINITY,
            go_on,
            stop,
        );
    }
    match grid.to_board() {
        Some(board) => solve(Pencil::new(&board), f64::INFINITY, go_on, stop),
        None => solve(WidePencil::new(grid), f64::INFINITY, go_on, stop),
    }
}

/// The ladder's steps from `pencil` until it is solved, stuck or stopped.
fn solve<P: Trials>(
    mut pencil: P,
    ceiling: f64,
    mut go_on: impl FnMut() -> bool,
    stop: &dyn Fn() -> bool,
) -> Explanation {
    let mut steps = Vec::new();
    while !pencil.is_solved() && go_on() {
        let Some(step) = next_step_below(&pencil, ceiling, stop) else {
            break;
        };
        apply(&mut pencil, &step);
        steps.push(step);
    }
    Explanation {
        steps,
        end: pencil.values(),
    }
}
