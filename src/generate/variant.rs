//! Generation under variant rules (jigsaw, X, windoku, anti-knight, anti-king,
//! non-consecutive, thermometers, cages and their combinations): random
//! regions when asked, a random solution under the rules (a few random digits
//! completed by the constrained engine), random cages with their sums read
//! off it when asked, then givens taken away a symmetric group at a time
//! while the constrained engine counts one solution; a killer's cages around
//! a given it still needs are then drawn again a few times, kept when fewer
//! givens do. Regions and cages are never minimized; the givens are, unless
//! the caller asks otherwise.

use std::sync::Arc;

use super::random::Random;
use super::symmetry::Symmetry;
use crate::board::{Grid, Layout, Shape, Variant};
use crate::solver::{Algorithm, Control, Interrupted, Mode, NoEvents, Search};

mod shapes;

pub use shapes::{random_cages, random_regions, recage_around};

/// The steps one try at a random solution from random digits may take before
/// the digits are drawn again (a dead end of random digits is usually found
/// in a few hundred).
const TRY_STEPS: u64 = 20_000;

/// Blind random region sets tried before regions are drawn around a solution.
const REGION_TRIES: usize = 3;

/// The steps the search for a solution in blind random regions may take.
const REGION_STEPS: u64 = 5 * TRY_STEPS;

/// The steps the count of the empty grid under cages may take (a killer
/// often needs no givens; when its count is long, digging finds out anyway).
const EMPTY_STEPS: u64 = 200_000;

/// Times the cages around a given a killer still needs are drawn again, each
/// kept when the puzzle then needs fewer givens.
const RECAGE_ROUNDS: usize = 16;

/// What a variant puzzle is made under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantRules {
    /// The grid's shape.
    pub shape: Shape,
    /// The rules asked for (their regions and cages, when these are not drawn).
    pub variant: Variant,
    /// Draw random jigsaw regions (connected, N cells each) for each puzzle.
    pub random_regions: bool,
    /// Draw random killer cages over the whole grid, with their sums, for
    /// each puzzle.
    pub random_cages: bool,
}

/// One generated variant puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedVariant {
    /// The givens: the puzzle has one solution under `variant`.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// The puzzle's full rules: those asked for, with the regions and cages drawn.
    pub variant: Variant,
    /// Whether every group of givens was tried (see [`super::GeneratedGrid::minimal`]).
    pub minimal: bool,
}

/// Why no variant puzzle was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmade {
    /// The caller's control stopped the work (a signal, the deadline, the step cap).
    Stopped(Interrupted),
    /// The rules admit no solution at all.
    NoSolution,
}

/// The next puzzle under `rules` from `random` (see the module's summary).
pub(super) fn generate(
    random: &mut Random,
    rules: &VariantRules,
    symmetry: Symmetry,
    minimal: bool,
    control: &Control<'_>,
) -> Result<GeneratedVariant, Unmade> {
    if let Some(why) = control.interrupted() {
        return Err(Unmade::Stopped(why));
    }
    let (mut variant, solution) = solved_rules(random, rules, control)?;
    if rules.random_cages {
        variant.cages = random_cages(rules.shape, &solution, random);
    }
    let layout = Arc::new(Layout::new(rules.shape, variant.clone()));
    let (mut puzzle, mut finished) = dig(&layout, &solution, symmetry, minimal, random, control);
    if rules.random_cages && minimal && finished {
        (variant, puzzle, finished) = recaged(
            variant,
            puzzle,
            &solution,
            (rules.shape, symmetry),
            random,
            control,
        );
    }
    Ok(GeneratedVariant {
        puzzle: Grid::with_cells(rules.shape, puzzle),
        solution: Grid::with_cells(rules.shape, solution),
        variant,
        minimal: finished && minimal,
    })
}

/// The rules with their random regions drawn, and a random solution under
/// them. Random regions are drawn blind a few times, each given a bounded
/// search for a solution (under anti-knight or windows a layout may admit
/// none, and proving so is long); then around a solution found in the boxes
/// (cells of one digit trade places), which always admits it but moves fewer
/// cells.
fn solved_rules(
    random: &mut Random,
    rules: &VariantRules,
    control: &Control<'_>,
) -> Result<(Variant, Vec<u8>), Unmade> {
    let mut variant = rules.variant.clone();
    if !rules.random_regions {
        let layout = Arc::new(Layout::new(rules.shape, variant.clone()));
        let solution = random_solution(&layout, random, control)?;
        return Ok((variant, solution.ok_or(Unmade::NoSolution)?));
    }
    let bounded = Control {
        max_steps: control.max_steps.min(REGION_STEPS),
        ..*control
    };
    for _ in 0..REGION_TRIES {
        variant.regions = Some(random_regions(rules.shape, None, random));
        let layout = Arc::new(Layout::new(rules.shape, variant.clone()));
        match random_solution(&layout, random, &bounded) {
            Ok(Some(solution)) => return Ok((variant, solution)),
            Ok(None) => {}
            Err(Unmade::Stopped(Interrupted::StepLimit { .. }))
                if bounded.max_steps < control.max_steps => {}
            Err(why) => return Err(why),
        }
    }
    variant.regions = None;
    let layout = Arc::new(Layout::new(rules.shape, variant.clone()));
    let solution = random_solution(&layout, random, control)?.ok_or(Unmade::NoSolution)?;
    variant.regions = Some(random_regions(rules.shape, Some(&solution), random));
    Ok((variant, solution))
}

/// A random solution under `layout`'s rules: a few random digits (fewer each
/// time they lead nowhere) completed by the engine, and last the engine's
/// own first solution of the empty grid; `None` when even that has none.
fn random_solution(
    layout: &Arc<Layout>,
    random: &mut Random,
    control: &Control<'_>,
) -> Result<Option<Vec<u8>>, Unmade> {
    let n = layout.size();
    let cells = layout.cells();
    let seeded = [n / 2, n / 2, n / 3, n / 4, 2, 1, 0];
    for (attempt, &digits) in seeded.iter().enumerate() {
        let last = attempt + 1 == seeded.len();
        let mut givens = vec![0u8; cells];
        for _ in 0..digits {
            let cell = random.below(cells as u64) as usize;
            givens[cell] = 1 + random.below(n as u64) as u8;
            if layout.first_clash(&givens).is_some() {
                givens[cell] = 0;
            }
        }
        let bounded = Control {
            max_steps: if last {
                control.max_steps
            } else {
                control.max_steps.min(TRY_STEPS)
            },
            ..*control
        };
        match first_solution(layout, &givens, &bounded) {
            Ok(Some(solution)) => return Ok(Some(solution)),
            Ok(None) if last => return Ok(None),
            Ok(None) => {}
            Err(why) if last || bounded.max_steps == control.max_steps => {
                return Err(Unmade::Stopped(why));
            }
            Err(Interrupted::StepLimit { .. }) => {}
            Err(why) => return Err(Unmade::Stopped(why)),
        }
    }
    Ok(None)
}

/// The engine's first solution of `givens` under `layout`, if any.
fn first_solution(
    layout: &Arc<Layout>,
    givens: &[u8],
    control: &Control<'_>,
) -> Result<Option<Vec<u8>>, Interrupted> {
    let Some(mut search) =
        Search::constrained(Arc::clone(layout), givens, Algorithm::Wide, Mode::First)
    else {
        return Ok(None);
    };
    let report = search.finish(control, &mut NoEvents)?;
    Ok(report.cells().map(<[u8]>::to_vec))
}

/// The solutions of `givens` under `layout` counted to two; `None` when
/// `control` stopped the count.
fn count(layout: &Arc<Layout>, givens: &[u8], control: &Control<'_>) -> Option<u32> {
    let mut search =
        Search::constrained(Arc::clone(layout), givens, Algorithm::Wide, Mode::CountTwo)?;
    let report = search.finish(control, &mut NoEvents).ok()?;
    Some(report.solution_count)
}

/// The givens of `solution` taken away a symmetric group at a time in random
/// order while it stays the one solution (all of them at once first under
/// cages: a killer often needs none), and whether every group was tried. A
/// count `control` stops keeps the givens as they are.
fn dig(
    layout: &Arc<Layout>,
    solution: &[u8],
    symmetry: Symmetry,
    minimal: bool,
    random: &mut Random,
    control: &Control<'_>,
) -> (Vec<u8>, bool) {
    let empty = vec![0u8; solution.len()];
    let bounded = Control {
        max_steps: control.max_steps.min(EMPTY_STEPS),
        ..*control
    };
    if minimal && !layout.variant.cages.is_empty() && count(layout, &empty, &bounded) == Some(1) {
        return (empty, true);
    }
    let groups = super::symmetry::dig_order(symmetry, layout.size(), minimal, random);
    take_away(layout, solution.to_vec(), &groups, control)
}

/// `cells` (one solution under `layout`) with each group taken away in turn
/// while the solution stays the one, and whether every group was tried.
fn take_away(
    layout: &Arc<Layout>,
    mut cells: Vec<u8>,
    groups: &[Vec<u16>],
    control: &Control<'_>,
) -> (Vec<u8>, bool) {
    for group in groups {
        if group.iter().all(|&cell| cells[usize::from(cell)] == 0) {
            continue;
        }
        let kept = cells.clone();
        for &cell in group {
            cells[usize::from(cell)] = 0;
        }
        match count(layout, &cells, control) {
            Some(1) => {}
            Some(_) => cells = kept,
            None => return (kept, false),
        }
    }
    (cells, true)
}

/// A minimal killer `puzzle` with fewer givens where the cages around one of
/// them drawn again allow it: each round redraws the cages around a random
/// given, and keeps the new cages when the givens are still the one solution
/// under them and taking away what then can go leaves fewer.
fn recaged(
    mut variant: Variant,
    mut puzzle: Vec<u8>,
    solution: &[u8],
    (shape, symmetry): (Shape, Symmetry),
    random: &mut Random,
    control: &Control<'_>,
) -> (Variant, Vec<u8>, bool) {
    for _ in 0..RECAGE_ROUNDS {
        let givens: Vec<usize> = (0..puzzle.len()).filter(|&c| puzzle[c] != 0).collect();
        if givens.is_empty() {
            break;
        }
        let around = givens[random.below(givens.len() as u64) as usize];
        let mut trial = variant.clone();
        trial.cages = recage_around(&variant.cages, around, shape, solution, random);
        let layout = Arc::new(Layout::new(shape, trial.clone()));
        match count(&layout, &puzzle, control) {
            Some(1) => {}
            Some(_) => continue,
            None => return (variant, puzzle, false),
        }
        let groups = super::symmetry::dig_order(symmetry, shape.size(), true, random);
        let (fewer, finished) = take_away(&layout, puzzle.clone(), &groups, control);
        if !finished {
            return (variant, puzzle, false);
        }
        if fewer.iter().filter(|&&d| d != 0).count() < givens.len() {
            (variant, puzzle) = (trial, fewer);
        }
    }
    (variant, puzzle, true)
}

/// Whether `puzzle` has one solution under `layout` and losing any symmetric
/// group of its givens would give it more (counted by the constrained engine).
pub fn is_minimal_variant(layout: &Arc<Layout>, puzzle: &[u8], symmetry: Symmetry) -> bool {
    let counted = |cells: &[u8]| count(layout, cells, &Control::UNTIMED);
    if counted(puzzle) != Some(1) {
        return false;
    }
    symmetry.groups_of(layout.size()).iter().all(|group| {
        let mut cells = puzzle.to_vec();
        if group.iter().any(|&cell| cells[usize::from(cell)] == 0) {
            return true;
        }
        for &cell in group {
            cells[usize::from(cell)] = 0;
        }
        counted(&cells).is_some_and(|count| count > 1)
    })
}

#[cfg(test)]
mod tests;
