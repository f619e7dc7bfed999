//! Sudoku Explainer's multiple forcing chains (8.0): the static implications
//! (`net.rs`) of each digit of a cell taken as true (cell forcing chains), or
//! of each place of a digit in a house (region forcing chains). One of them
//! holds, so what every branch makes true is true, and what every branch makes
//! false is false. As in SE, a cell is a start only with three digits or more,
//! and a house's places of a digit only when its first place's cell is such a
//! start; a branch that meets a contradiction stops there. Rated 8.0 plus
//! SE's length modifier over the states of all the branches' chains together.

use std::collections::VecDeque;

use super::marks::{Marks, members as bits};
use super::net::{Kinds, Net, Node, ROOT, chain, keep_easier, pattern};
use super::step::{LogicStep, Technique};

/// What one candidate taken as true implies: the nodes reached, and the
/// first node of each candidate's true and false state (`ROOT`: not reached).
struct Branch {
    nodes: Vec<Node>,
    on: Vec<u32>,
    off: Vec<u32>,
}

impl Branch {
    /// The node of `state` (a candidate, true or false), if reached.
    fn reached(&self, candidate: u32, on: bool) -> Option<u32> {
        let at = if on { &self.on } else { &self.off }[candidate as usize];
        (at != ROOT).then_some(at)
    }
}

/// The easiest cell or region forcing chain on `pencil`, if any; asks `stop`
/// before each branch and gives up when it says so.
pub(super) fn easiest<P: Marks>(pencil: &P, stop: &dyn Fn() -> bool) -> Option<LogicStep> {
    search(pencil, false, stop)
}

/// The first cell or region forcing chain found on `pencil`, not the
/// easiest: what a chain nested in a dynamic one moves by (level 10.0).
pub(super) fn first<P: Marks>(pencil: &P) -> Option<LogicStep> {
    search(pencil, true, &|| false)
}

fn search<P: Marks>(pencil: &P, first: bool, stop: &dyn Fn() -> bool) -> Option<LogicStep> {
    let mut net = Net::new(pencil);
    net.set_kinds(Kinds { x: true, y: true });
    let n = pencil.size();
    let mut branches: Vec<Option<Branch>> = (0..pencil.shape().cells() * n).map(|_| None).collect();
    let mut best: Option<(LogicStep, usize)> = None;
    for (technique, starts) in [
        (Technique::CellForcingChain, cell_starts(pencil)),
        (Technique::RegionForcingChain, region_starts(pencil)),
    ] {
        for start in starts {
            for &candidate in &start {
                if branches[candidate as usize].is_none() {
                    if stop() {
                        return None;
                    }
                    branches[candidate as usize] = Some(net.implications(candidate));
                }
            }
            let of: Vec<&Branch> = start
                .iter()
                .filter_map(|&c| branches[c as usize].as_ref())
                .collect();
            for found in net.agreed(&of, technique) {
                keep_easier(&mut best, found);
                if first {
                    return best.map(|(step, _)| step);
                }
            }
        }
    }
    best.map(|(step, _)| step)
}

/// The cells with three digits or more: each one's candidates.
fn cell_starts<P: Marks>(pencil: &P) -> Vec<Vec<u32>> {
    let n = pencil.size();
    (0..pencil.shape().cells())
        .filter(|&cell| pencil.candidates(cell).count_ones() > 2)
        .map(|cell| {
            bits(pencil.candidates(cell))
                .map(|bit| (cell * n + bit) as u32)
                .collect()
        })
        .collect()
}

/// The places of each digit in each house, where there are two or more and
/// the first one's cell has three digits or more.
fn region_starts<P: Marks>(pencil: &P) -> Vec<Vec<u32>> {
    let n = pencil.size();
    let mut out = Vec::new();
    for unit in 0..pencil.house_count() {
        let house = pencil.house(unit);
        for bit in 0..n {
            let places = pencil.places(unit, bit as u8 + 1);
            if places.count_ones() < 2 {
                continue;
            }
            let first = usize::from(house[places.trailing_zeros() as usize]);
            if pencil.candidates(first).count_ones() > 2 {
                out.push(
                    bits(places)
                        .map(|at| (usize::from(house[at]) * n + bit) as u32)
                        .collect(),
                );
            }
        }
    }
    out
}

impl<P: Marks> Net<'_, P> {
    /// Everything `source` taken as true implies by static links, true states
    /// before false ones (SE's order); stops at a contradiction.
    fn implications(&mut self, source: u32) -> Branch {
        self.reset();
        let root = self.push(source, true, ROOT);
        self.mark(root);
        let mut ons = VecDeque::from([root]);
        let mut offs = VecDeque::new();
        'walk: while let Some((at, on)) = ons
            .pop_front()
            .map(|at| (at, true))
            .or_else(|| offs.pop_front().map(|at| (at, false)))
        {
            let candidate = self.nodes[at as usize].candidate;
            for index in self.implied(candidate, on) {
                let next = self.implied_at(on, index);
                let slot = next as usize;
                let (opposite, same) = if on {
                    (self.reached_on[slot], self.reached_off[slot])
                } else {
                    (self.reached_off[slot], self.reached_on[slot])
                };
                if opposite != ROOT {
                    break 'walk;
                }
                if same == ROOT {
                    let child = self.push(next, !on, at);
                    self.mark(child);
                    if on { &mut offs } else { &mut ons }.push_back(child);
                }
            }
        }
        Branch {
            nodes: self.nodes.clone(),
            on: self.reached_on.clone(),
            off: self.reached_off.clone(),
        }
    }

    /// The steps of what every branch of `of` implies alike, each with its
    /// length.
    fn agreed(&self, of: &[&Branch], technique: Technique) -> Vec<(LogicStep, usize)> {
        let Some((first, rest)) = of.split_first() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for node in &first.nodes {
            let ends: Option<Vec<u32>> = of
                .iter()
                .map(|branch| branch.reached(node.candidate, node.on))
                .collect();
            let Some(ends) = ends else { continue };
            if rest.is_empty() {
                continue;
            }
            let chains: Vec<Vec<Node>> = of
                .iter()
                .zip(&ends)
                .map(|(branch, &at)| chain(&branch.nodes, at))
                .collect();
            out.push(self.forced(technique, &chains, *node));
        }
        out
    }

    /// The step placing (or removing) `target`, which every chain of `chains`
    /// ends at.
    fn forced(
        &self,
        technique: Technique,
        chains: &[Vec<Node>],
        target: Node,
    ) -> (LogicStep, usize) {
        let mut links = Vec::new();
        let mut length = 0;
        for chain in chains {
            let (branch, states) = self.links(chain);
            links.extend(branch);
            length += states;
        }
        let candidate = self.candidate(target);
        let mut step = if target.on {
            LogicStep {
                pattern: pattern(&links),
                ..LogicStep::placing(technique, candidate)
            }
        } else {
            LogicStep::eliminating(technique, pattern(&links), vec![candidate])
        };
        step.links = links;
        self.rated(step, length)
    }
}
