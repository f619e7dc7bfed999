//! The constraint engine of the variants: one working grid over any list of
//! houses and peers (`grid`, with the branching search's view of it in
//! `node`, its costlier rounds in `rounds` and the houses each round has yet
//! to look at in `dirty`), and each rule that is no house a propagator behind one small trait
//! (`grid::Rule`): cage sums (`cage`), thermometers (`thermometer`),
//! non-consecutive neighbours (`neighbours`). The branching search of the
//! any-size engines drives it.

mod cage;
mod dirty;
mod grid;
mod neighbours;
mod node;
mod rounds;
mod thermometer;

use std::sync::Arc;

use cage::CageSum;
pub(super) use grid::Constrained;
use grid::{Model, Rule};
use neighbours::NonConsecutive;
use thermometer::Thermometer;

use crate::board::Layout;

/// The grid of `givens` under `layout`'s rules, ready to search.
pub(super) fn grid(layout: Arc<Layout>, givens: &[u8]) -> Constrained {
    let rules = rules_of(&layout);
    let hall = layout.variant.cages.iter().any(|cage| cage.sum != 0);
    Constrained::new(Arc::new(Model::new(layout, rules, hall)), givens)
}

/// The rules of a layout that are no house or peer.
fn rules_of(layout: &Layout) -> Vec<Box<dyn Rule>> {
    let variant = &layout.variant;
    let n = layout.size();
    let mut rules: Vec<Box<dyn Rule>> = Vec::new();
    let mut steps = cage::LISTING_STEPS;
    for cage in variant.cages.iter().filter(|cage| cage.sum != 0) {
        rules.push(Box::new(CageSum::new(&cage.cells, cage.sum, n, &mut steps)));
    }
    for cells in &variant.thermometers {
        rules.push(Box::new(Thermometer::new(
            cells,
            n,
            variant.non_consecutive,
        )));
    }
    if variant.non_consecutive {
        rules.push(Box::new(NonConsecutive::new(n)));
    }
    rules
}

#[cfg(test)]
mod tests;
