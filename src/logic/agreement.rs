//! Sudoku Explainer's dynamic cell and region forcing chains, on the 9x9
//! grid: where no candidate's assumption breaks the grid at a depth
//! (`forcing.rs`), each digit of a cell, or each place of a digit in a house,
//! is assumed in turn and its trial run to its end at that depth. One of them
//! holds, so what every one of them places is true and what every one removes
//! is false. The easiest such conclusion is taken: rated by the technique
//! plus SE's length modifier over the candidates of all its branches' chains
//! together (and the chains nested in them).

use super::chains::{Move, Replay, join_links};
use super::forcing::{Forced, contradiction};
use super::pencil::{Pencil, UNITS, bit, digits};
use super::step::{Candidate, Link, LogicStep, Technique};
use super::trials::{Attempt, Depth, Forcing, Logged, Trial, Trials, nested_nodes, rate_by_chain};
use crate::board::CELLS;

impl Trials for Pencil {
    /// A contradiction first; at every depth past one digit's singles, the
    /// cells' and houses' forcing chains where there is none. `stop` is
    /// asked before each trial (a nested one may take a while).
    fn contradiction(
        &self,
        depth: Depth,
        technique: Technique,
        stop: &dyn Fn() -> bool,
    ) -> Option<LogicStep> {
        contradiction(self, depth, technique, stop).or_else(|| {
            if depth == Depth::OneDigit || stop() {
                return None;
            }
            agreement(self, depth, technique, stop)
        })
    }
}

/// One assumption's trial, run to its end: its moves, the grid it left, and
/// (once asked for) its moves replayed.
struct Branch {
    moves: Vec<Move>,
    end: Pencil,
    replay: Option<Replay<Pencil>>,
}

/// The easiest conclusion every assumption of a cell's digits, or of a
/// digit's places in a house, leads to at `depth`; `None` when there is
/// none, or when `stop` says to stop.
fn agreement(
    pencil: &Pencil,
    depth: Depth,
    technique: Technique,
    stop: &dyn Fn() -> bool,
) -> Option<LogicStep> {
    let start = Forced::new(pencil);
    if start.progress.broken {
        return None;
    }
    let mut branches: Vec<Option<Branch>> = (0..CELLS * 9).map(|_| None).collect();
    for cell in (0..CELLS).filter(|&cell| pencil.candidates(cell).count_ones() >= 2) {
        for digit in digits(pencil.candidates(cell)) {
            if stop() {
                return None;
            }
            let mut trial = start.clone();
            trial.assume(cell, digit, depth);
            let mut logged = Logged {
                inner: trial,
                moves: vec![Move::Place(cell, digit)],
            };
            // A trial that breaks is a contradiction, found before this.
            if let Trial::Held = logged.go_on(usize::MAX) {
                branches[slot(cell, digit)] = Some(Branch {
                    end: logged.grid().clone(),
                    moves: logged.moves,
                    replay: None,
                });
            }
        }
    }
    let mut best: Option<LogicStep> = None;
    for group in groups(pencil) {
        if group
            .iter()
            .any(|&(cell, digit)| branches[slot(cell, digit)].is_none())
        {
            continue;
        }
        for (target, on) in agreed(pencil, &branches, &group) {
            let step = forced(pencil, &mut branches, &group, technique, (target, on));
            if best.as_ref().is_none_or(|best| step.rating < best.rating) {
                best = Some(step);
            }
        }
    }
    best
}

/// The cells with two digits or more, each one's candidates; then the places
/// of each digit in each house where it has two or more.
fn groups(pencil: &Pencil) -> Vec<Vec<Candidate>> {
    let mut out: Vec<Vec<Candidate>> = (0..CELLS)
        .filter(|&cell| pencil.candidates(cell).count_ones() >= 2)
        .map(|cell| digits(pencil.candidates(cell)).map(|d| (cell, d)).collect())
        .collect();
    for (unit, cells) in UNITS.iter().enumerate() {
        for digit in 1..=9 {
            let places = pencil.places(unit, digit);
            if places.count_ones() >= 2 {
                out.push(
                    (0..9)
                        .filter(|&at| places & 1 << at != 0)
                        .map(|at| (usize::from(cells[at]), digit))
                        .collect(),
                );
            }
        }
    }
    out
}

/// What every branch of `group` places (true) or removes (false) that the
/// grid still has open.
fn agreed(
    pencil: &Pencil,
    branches: &[Option<Branch>],
    group: &[Candidate],
) -> Vec<(Candidate, bool)> {
    let ends: Vec<&Pencil> = group
        .iter()
        .filter_map(|&(cell, digit)| branches[slot(cell, digit)].as_ref())
        .map(|branch| &branch.end)
        .collect();
    let mut out = Vec::new();
    for cell in (0..CELLS).filter(|&cell| pencil.value(cell) == 0) {
        for digit in digits(pencil.candidates(cell)) {
            if ends.iter().all(|end| end.value(cell) == digit) {
                out.push(((cell, digit), true));
            } else if ends
                .iter()
                .all(|end| end.value(cell) != digit && end.candidates(cell) & bit(digit) == 0)
            {
                out.push(((cell, digit), false));
            }
        }
    }
    out
}

/// The step making `target` true (`on`) or false, which every branch of
/// `group` leads to, with the links of all of them.
fn forced(
    pencil: &Pencil,
    branches: &mut [Option<Branch>],
    group: &[Candidate],
    technique: Technique,
    (target, on): (Candidate, bool),
) -> LogicStep {
    let mut links: Vec<Link> = Vec::new();
    let mut nested = 0;
    for &(cell, digit) in group {
        let Some(branch) = branches[slot(cell, digit)].as_mut() else {
            continue;
        };
        let replay = branch
            .replay
            .get_or_insert_with(|| Replay::new(pencil, &branch.moves));
        join_links(&mut links, replay.links_to(target, on));
        nested += nested_nodes(&branch.moves);
    }
    let mut step = if on {
        LogicStep {
            pattern: group.to_vec(),
            ..LogicStep::placing(technique, target)
        }
    } else {
        LogicStep::eliminating(technique, group.to_vec(), vec![target])
    };
    step.links = links;
    rate_by_chain(&mut step, nested);
    step
}

/// Where candidate (`cell`, `digit`) of a 9x9 grid stands in a table of all
/// 729.
fn slot(cell: usize, digit: u8) -> usize {
    cell * 9 + usize::from(digit - 1)
}
