//! What the contradiction rungs share, whatever the grid: how deep the forced
//! moves after an assumption go ([`Depth`]), a trial under way and how it
//! ended, the grids that bring their own trials ([`Trials`]), and the rating of
//! the step a contradiction makes, with Sudoku Explainer's length modifier.

use super::chains::{Move, contradiction_links};
use super::marks::Marks;
use super::net::rating_with_length;
use super::step::{Candidate, Link, LogicStep, Technique};
use super::{cages, cycles, intersections, lines, multiple};
use crate::board::Cell;

/// What the propagation after an assumption may use. Under a variant's
/// rules, the rules that are no house (thermometers, neighbours, cage sums,
/// innies and outies) move too at every depth but `OneDigit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Depth {
    /// Hidden singles of the assumed digit only.
    OneDigit,
    /// Naked and hidden singles of every digit.
    Singles,
    /// Singles, and pointing and claiming.
    Locked,
    /// Singles, pointing and claiming, and the static forcing chains and
    /// cycles of the trial's grid (a chain nested in the chain).
    Nested,
    /// All of `Nested`, and the static cell and region forcing chains of the
    /// trial's grid.
    NestedMultiple,
    /// All of `NestedMultiple`, and the dynamic forcing chains (contradictions
    /// by singles) of the trial's grid.
    NestedDynamic,
}

/// A grid the contradiction rungs can try candidates on: each kind of grid
/// brings trials made for it (the 9x9 one here, the others in `wide_trials`).
pub(super) trait Trials: Marks {
    /// The candidate whose assumption leads to a contradiction at `depth` in
    /// the fewest forced moves, eliminated as a step of `technique`; `None`
    /// when none does, or when `stop` says to stop first.
    fn contradiction(
        &self,
        depth: Depth,
        technique: Technique,
        stop: &dyn Fn() -> bool,
    ) -> Option<LogicStep>;
}

/// A trial under way: an assumption made, forced moves to go on with.
pub(super) trait Attempt {
    /// Makes forced moves until the grid breaks, none is left, or `limit`
    /// moves (counting the assumption) are made; a capped trial goes on from
    /// where it stopped when asked again with a higher limit.
    fn go_on(&mut self, limit: usize) -> Trial;
}

/// A grid under forced moves, as the trials of every kind of grid keep it:
/// what a move reads and makes. Each is an [`Attempt`] by the same loop.
pub(super) trait Forcing {
    /// The pencil-mark grid the moves change.
    type Grid: Marks;

    fn grid(&self) -> &Self::Grid;

    /// Whether it broke, how deep it goes, how far it is.
    fn progress(&mut self) -> &mut Progress;

    /// The next single to place, if any.
    fn next_single(&mut self) -> Option<(Cell, u8)>;

    /// Writes `digit` into `cell`, takes it from the peers, and notes what
    /// that broke or left single.
    fn place(&mut self, cell: Cell, digit: u8);

    /// Takes `digit` from the candidates of `cell`, noting the same.
    fn eliminate(&mut self, cell: Cell, digit: u8);

    /// Makes the moves of one step of a variant's rules that are no house
    /// (thermometers, neighbours, cage sums, innies and outies); false when
    /// there is none.
    fn rule_move(&mut self) -> bool {
        let grid = self.grid();
        if grid.rules().is_none() {
            return false;
        }
        let step = lines::thermometer(grid)
            .or_else(|| lines::non_consecutive(grid))
            .or_else(|| cages::cage_combination(grid))
            .or_else(|| cages::innies_outies(grid));
        self.moved_by(step)
    }

    /// Makes the placements and eliminations of `step`, when there is one,
    /// which comes from a rule or a nested chain, not from a group: a traced
    /// chain stops there.
    fn moved_by(&mut self, step: Option<LogicStep>) -> bool {
        let Some(step) = step else {
            return false;
        };
        self.nested(&step.links);
        for &(cell, digit) in &step.placements {
            self.place(cell, digit);
        }
        for &(cell, digit) in &step.eliminations {
            self.eliminate(cell, digit);
        }
        true
    }

    /// Notes the candidates of a group the eliminations that follow come from
    /// (a trial that keeps its moves keeps it).
    fn group(&mut self, _members: &[Candidate]) {}

    /// Notes the links of a nested chain (or a rule's step) the moves that
    /// follow come from (a trial that keeps its moves keeps them).
    fn nested(&mut self, _links: &[Link]) {}

    /// Makes the placement or eliminations of one static forcing chain or
    /// cycle of the grid, the first found; false when there is none.
    fn chained(&mut self) -> bool {
        let step = cycles::first(self.grid());
        self.moved_by(step)
    }

    /// Makes the placement or eliminations of one static cell or region
    /// forcing chain of the grid, the first found; false when there is none.
    fn multiple_chained(&mut self) -> bool {
        let step = multiple::first(self.grid());
        self.moved_by(step)
    }

    /// The step of a dynamic forcing chain (a contradiction by singles) of
    /// the grid, the shortest, when the grid brings such trials.
    fn dynamic_step(&self) -> Option<LogicStep> {
        None
    }

    /// Makes the elimination of [`Forcing::dynamic_step`]; false when there is none.
    fn dynamic_chained(&mut self) -> bool {
        let step = self.dynamic_step();
        self.moved_by(step)
    }

    /// Makes the eliminations of one pointing or claiming; false when there is none.
    fn locked(&mut self) -> bool {
        let Some(step) = intersections::first_locked(self.grid()) else {
            return false;
        };
        self.group(&step.pattern);
        for &(cell, digit) in &step.eliminations {
            self.eliminate(cell, digit);
        }
        true
    }
}

/// A trial whose moves are kept (the assumption first, pushed by whoever makes
/// it), to trace the chain behind its contradiction (`chains`).
pub(super) struct Logged<T> {
    pub(super) inner: T,
    pub(super) moves: Vec<Move>,
}

impl<T: Forcing> Forcing for Logged<T> {
    type Grid = T::Grid;

    fn grid(&self) -> &T::Grid {
        self.inner.grid()
    }

    fn progress(&mut self) -> &mut Progress {
        self.inner.progress()
    }

    fn next_single(&mut self) -> Option<(Cell, u8)> {
        self.inner.next_single()
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        self.moves.push(Move::Place(cell, digit));
        self.inner.place(cell, digit);
    }

    fn eliminate(&mut self, cell: Cell, digit: u8) {
        self.moves.push(Move::Eliminate(cell, digit));
        self.inner.eliminate(cell, digit);
    }

    fn group(&mut self, members: &[Candidate]) {
        self.moves.push(Move::Group(members.to_vec()));
    }

    fn nested(&mut self, links: &[Link]) {
        self.moves.push(Move::Nested(links.to_vec()));
    }

    fn dynamic_step(&self) -> Option<LogicStep> {
        self.inner.dynamic_step()
    }
}

impl<T: Forcing> Logged<T> {
    /// Runs `trial` (its assumption, the candidate `step` removes, made) for
    /// up to `limit` moves, keeping them, and gives `step` the chain from the
    /// assumption to where the grid `start` broke (the links it shows) and
    /// its rating by that chain and every chain nested in the trial: Sudoku
    /// Explainer adds a nested chain's complexity to the chain's, and the
    /// chain rests on the trial's nested chains through what they removed.
    pub(super) fn trace(step: &mut LogicStep, start: &T::Grid, trial: T, limit: usize) {
        let Some(&candidate) = step.eliminations.first() else {
            return;
        };
        let mut logged = Logged {
            inner: trial,
            moves: vec![Move::Place(candidate.0, candidate.1)],
        };
        logged.go_on(limit);
        step.links = contradiction_links(start, &logged.moves);
        rate_by_chain(step, nested_nodes(&logged.moves));
    }
}

/// The candidates of the chains nested in a trial's `moves`, each chain's
/// counted alone.
pub(super) fn nested_nodes(moves: &[Move]) -> usize {
    moves
        .iter()
        .map(|one| match one {
            Move::Nested(links) => nodes(links),
            _ => 0,
        })
        .sum()
}

impl<T: Forcing> Attempt for T {
    fn go_on(&mut self, limit: usize) -> Trial {
        loop {
            let Progress {
                broken,
                depth,
                moves,
            } = *self.progress();
            if broken {
                return Trial::Broke(moves);
            }
            if moves >= limit {
                return Trial::Capped;
            }
            match self.next_single() {
                Some((cell, digit)) => self.place(cell, digit),
                None if depth != Depth::OneDigit && self.rule_move() => {}
                None if depth >= Depth::Locked && self.locked() => {}
                None if depth >= Depth::Nested && self.chained() => {}
                None if depth >= Depth::NestedMultiple && self.multiple_chained() => {}
                None if depth >= Depth::NestedDynamic && self.dynamic_chained() => {}
                None => return Trial::Held,
            }
            self.progress().moves += 1;
        }
    }
}

/// How a trial under forced moves stands.
#[derive(Debug, Clone, Copy)]
pub(super) struct Progress {
    /// Some cell has neither digit nor candidate, or some house has a digit
    /// neither placed nor with a place.
    pub(super) broken: bool,
    /// What the trial's moves may use.
    pub(super) depth: Depth,
    /// The moves made so far, the assumption included.
    pub(super) moves: usize,
}

impl Progress {
    /// Before any move: whole, moves of singles.
    pub(super) const START: Progress = Progress {
        broken: false,
        depth: Depth::Singles,
        moves: 0,
    };
}

/// How one trial ended.
pub(super) enum Trial {
    /// The grid broke after this many moves.
    Broke(usize),
    /// No move was left, and the grid holds.
    Held,
    /// The limit of moves was reached first.
    Capped,
}

/// The step that eliminates the candidate whose assumption broke the grid
/// in `moves` moves, rated by the technique and the length.
pub(super) fn broken_by(moves: usize, candidate: (Cell, u8), technique: Technique) -> LogicStep {
    let mut step = LogicStep::eliminating(technique, vec![candidate], vec![candidate]);
    step.rating = rating_with_length(technique, moves);
    step
}

/// Rates a contradiction step by its chain: its technique's rating plus the
/// length modifier of the candidates its links join (the chain's nodes, as
/// Sudoku Explainer counts a chain's length, both branches of a contradiction
/// together) and `nested` more; by `moves` (as `broken_by` did) when it has no
/// links.
pub(super) fn rate_by_chain(step: &mut LogicStep, nested: usize) {
    if step.links.is_empty() {
        return;
    }
    step.rating = rating_with_length(step.technique, nodes(&step.links) + nested);
}

/// The distinct candidates `links` join.
fn nodes(links: &[Link]) -> usize {
    let mut nodes: Vec<Candidate> = links
        .iter()
        .flat_map(|link| [link.start, link.end])
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    nodes.len()
}
