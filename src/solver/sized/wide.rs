//! `Algorithm::Wide`: two searches in turn. Most puzzles fall to propagation
//! with Hall sets and a few guesses (`branching`), which costs little to set
//! up; a puzzle that runs that search into [`BUDGET`] dead ends is taken back to
//! its givens and handed to the search that learns from its dead ends
//! (`learning`), which pays off on hard grids. A solution the first search
//! found already is ruled out for the second, so counting stays exact.

use super::branching::Branching;
use super::learning::Learning;
use super::work::Strength;
use crate::board::Grid;
use crate::solver::{Found, Interrupted, Recorder, Sink, Status};

/// Dead ends the first search may run into before the learning search takes over.
const BUDGET: u64 = 200;

/// The search's state: the first search, then (if it gave up) the second.
#[derive(Clone)]
pub(in crate::solver) struct Wide {
    grid: Grid,
    stage: Stage,
}

#[derive(Clone)]
enum Stage {
    Branching(Box<Branching>),
    Learning(Box<Learning>),
}

impl Wide {
    pub(in crate::solver) fn new(grid: &Grid) -> Wide {
        Wide {
            grid: grid.clone(),
            stage: Stage::Branching(Box::new(
                Branching::new(grid, Strength::Hall).with_budget(BUDGET),
            )),
        }
    }

    pub(in crate::solver) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        if let Stage::Branching(search) = &mut self.stage {
            let status = search.run(recorder, found)?;
            if !search.gave_up {
                return Ok(status);
            }
            let excluded = (found.count > 0)
                .then(|| found.first_sized.clone())
                .flatten();
            self.stage = Stage::Learning(Box::new(Learning::new(&self.grid, excluded)));
        }
        match &mut self.stage {
            Stage::Learning(search) => search.run(recorder, found),
            // Handed over above.
            Stage::Branching(_) => Ok(Status::Done),
        }
    }
}
