//! Sudoku Explainer's first chaining rung, forcing chains and cycles: from each
//! candidate, what follows from taking it as true (or as false) along the
//! static links of `net.rs`.
//!
//! Two results, rated as SE rates them:
//! - a bidirectional cycle: the chain from a true candidate comes back to it,
//!   so the loop holds both ways round and, either way, every other candidate
//!   of a digit seen by a true end of the loop one way and by one the other way
//!   goes (X-cycle: one digit, house links; Y-cycle: bivalue cells; 6.5, or
//!   7.0 with both kinds of link);
//! - a forcing chain: a candidate's assumption forces its own opposite (true
//!   makes it false: it goes; false makes it true: it is placed); 6.6 with
//!   X-links only, 7.0 with both.
//!
//! The length modifier counts the chain's distinct candidates and states, as
//! SE counts them. Of all it finds, the rung gives the lowest rating, the
//! shorter chain of two equal ones. Written over `Marks` houses, so it holds
//! for every shape and under a variant's houses.

use super::marks::{Marks, members as bits};
use super::net::{Kinds, Net, ROOT, keep_easier, pattern, rating_with_length};
use super::step::{Candidate, LogicStep, Technique};

/// The easiest bidirectional cycle or forcing chain on `pencil`, if any; asks
/// `stop` before each candidate and gives up when it says so.
pub(super) fn easiest<P: Marks>(pencil: &P, stop: &dyn Fn() -> bool) -> Option<LogicStep> {
    search(pencil, false, stop)
}

/// The first forcing chain (of X- and Y-links both) found on `pencil`, not
/// the easiest: what a chain nested in a dynamic one moves by.
pub(super) fn first<P: Marks>(pencil: &P) -> Option<LogicStep> {
    search(pencil, true, &|| false)
}

fn search<P: Marks>(pencil: &P, first: bool, stop: &dyn Fn() -> bool) -> Option<LogicStep> {
    let mut net = Net::new(pencil);
    let passes: &[Kinds] = if first {
        // A forcing chain of both kinds reaches whatever a cycle or a chain of
        // one kind removes or places: the first of them is all a nested
        // chain needs, without searching every cycle of a grid that has none.
        &[Kinds { x: true, y: true }]
    } else {
        &[
            Kinds { x: true, y: false },
            Kinds { x: false, y: true },
            Kinds { x: true, y: true },
        ]
    };
    let mut best: Option<(LogicStep, usize)> = None;
    for &kinds in passes {
        // Every step with both kinds rates 7.0 or more.
        if kinds.x && kinds.y && best.as_ref().is_some_and(|(step, _)| step.rating <= 7.0) {
            break;
        }
        net.set_kinds(kinds);
        for candidate in net.sources() {
            if stop() {
                return None;
            }
            // What a chain must beat to be kept: a search stops at the length
            // where nothing it finds could (the first found of equals is kept).
            let bound = best.as_ref().map(|(step, length)| (step.rating, *length));
            let found = if first {
                net.forcings(candidate, None)
            } else {
                net.from(candidate, bound)
            };
            for found in found {
                keep_easier(&mut best, found);
                if first {
                    return best.map(|(step, _)| step);
                }
            }
        }
    }
    best.map(|(step, _)| step)
}

impl<P: Marks> Net<'_, P> {
    /// The candidates a chain of this pass may start from: every candidate of
    /// a cell with two or more (Y-cycles only from bivalue cells).
    fn sources(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for cell in 0..self.pencil.shape().cells() {
            let digits = self.pencil.candidates(cell);
            let count = digits.count_ones();
            if count < 2 || (!self.kinds.x && count != 2) {
                continue;
            }
            out.extend(bits(digits).map(|bit| (cell * self.n + bit) as u32));
        }
        out
    }

    /// The steps found from `candidate` in this pass, each with its length;
    /// none that `bound` (a rating and a length) beats or equals.
    fn from(&mut self, candidate: u32, bound: Option<(f64, usize)>) -> Vec<(LogicStep, usize)> {
        let mut found = Vec::new();
        for end in self.cycles(candidate, bound) {
            found.extend(self.cycle_step(end));
        }
        if self.kinds.x {
            found.extend(self.forcings(candidate, bound));
        }
        found
    }

    /// The forcing chains from `candidate` assumed true and assumed false.
    fn forcings(&mut self, candidate: u32, bound: Option<(f64, usize)>) -> Vec<(LogicStep, usize)> {
        let mut found = Vec::new();
        for start_on in [true, false] {
            if let Some(end) = self.forcing(candidate, start_on, bound) {
                found.push(self.forcing_step(end));
            }
        }
        found
    }

    /// The technique of this pass's cycles.
    fn cycle_technique(&self) -> Technique {
        match (self.kinds.x, self.kinds.y) {
            (true, false) => Technique::BidirectionalXCycle,
            (false, true) => Technique::BidirectionalYCycle,
            _ => Technique::BidirectionalCycle,
        }
    }

    /// The technique of this pass's forcing chains.
    fn forcing_technique(&self) -> Technique {
        if self.kinds.y {
            Technique::ForcingChain
        } else {
            Technique::ForcingXChain
        }
    }

    /// Marks the candidates the chain to node `at` passes through false, with
    /// a new stamp (which it returns).
    fn mark_passed_off(&mut self, mut at: u32) -> u64 {
        self.stamp += 1;
        while at != ROOT {
            let node = self.nodes[at as usize];
            if !node.on {
                self.stamps[node.candidate as usize] = self.stamp;
            }
            at = node.parent;
        }
        self.stamp
    }

    /// The loops back to `source` true, breadth first: the nodes that close
    /// them (each a true `source` whose parents run round the loop). A
    /// candidate's false state may be reached again by another way round (a
    /// loop needs the way that does not pass through it), its true state once.
    /// Stops at the length where a loop of this pass could not beat `bound`.
    fn cycles(&mut self, source: u32, bound: Option<(f64, usize)>) -> Vec<u32> {
        self.reset();
        let mut ends = Vec::new();
        let root = self.push(source, true, ROOT);
        self.mark(root);
        let [mut on_queue, mut off_queue] = self.take_queues();
        on_queue.push(root);
        let mut length = 0;
        while !on_queue.is_empty() || !off_queue.is_empty() {
            length += 2;
            // The loops closed in this round are `length` states long.
            if beaten(bound, self.cycle_technique(), length) {
                break;
            }
            for at in on_queue.drain(..) {
                let candidate = self.nodes[at as usize].candidate;
                let passed = self.mark_passed_off(at);
                for index in self.implied(candidate, true) {
                    let next = self.implied_at(true, index);
                    if self.stamps[next as usize] != passed {
                        let node = self.push(next, false, at);
                        self.mark(node);
                        off_queue.push(node);
                    }
                }
            }
            for at in off_queue.drain(..) {
                let candidate = self.nodes[at as usize].candidate;
                for index in self.implied(candidate, false) {
                    let next = self.implied_at(false, index);
                    if length >= 4 && next == source {
                        ends.push(self.push(next, true, at));
                    }
                    if self.reached_on[next as usize] == ROOT {
                        let node = self.push(next, true, at);
                        self.mark(node);
                        on_queue.push(node);
                    }
                }
            }
        }
        self.queues = [on_queue, off_queue];
        ends
    }

    /// The shortest chain from `source` assumed true (`start_on`) or false
    /// to its opposite: the node that ends it. Breadth first, a level at a
    /// time; stops at the length where it could not beat `bound`.
    fn forcing(&mut self, source: u32, start_on: bool, bound: Option<(f64, usize)>) -> Option<u32> {
        self.reset();
        let root = self.push(source, start_on, ROOT);
        let [mut level, mut next_level] = self.take_queues();
        level.push(root);
        self.mark(root);
        // A chain ending in the next level has this many states (all distinct).
        let mut length = 2;
        while !level.is_empty() && !beaten(bound, self.forcing_technique(), length) {
            for position in 0..level.len() {
                let at = level[position];
                let node = self.nodes[at as usize];
                for index in self.implied(node.candidate, node.on) {
                    let next = self.implied_at(node.on, index);
                    let on = !node.on;
                    if next == source && on != start_on {
                        self.queues = [level, next_level];
                        return Some(self.push(next, on, at));
                    }
                    let seen = if on {
                        &self.reached_on
                    } else {
                        &self.reached_off
                    };
                    if seen[next as usize] == ROOT {
                        let child = self.push(next, on, at);
                        self.mark(child);
                        next_level.push(child);
                    }
                }
            }
            level.clear();
            std::mem::swap(&mut level, &mut next_level);
            length += 1;
        }
        self.queues = [level, next_level];
        None
    }

    /// The step of the loop closed at node `end`, when it removes anything.
    fn cycle_step(&self, end: u32) -> Option<(LogicStep, usize)> {
        let chain = self.chain(end);
        let cells: Vec<usize> = chain.iter().map(|&n| self.candidate(n).0).collect();
        let mut seen = [Vec::new(), Vec::new()];
        for &node in &chain[1..] {
            let (cell, digit) = self.candidate(node);
            for &peer in self.pencil.peers_of(cell) {
                let peer = usize::from(peer);
                if !cells.contains(&peer) && self.pencil.candidates(peer) & (1 << (digit - 1)) != 0
                {
                    seen[usize::from(node.on)].push((peer, digit));
                }
            }
        }
        let mut eliminations: Vec<Candidate> = seen[1]
            .iter()
            .filter(|c| seen[0].contains(c))
            .copied()
            .collect();
        eliminations.sort_unstable();
        eliminations.dedup();
        if eliminations.is_empty() {
            return None;
        }
        let technique = self.cycle_technique();
        let (links, length) = self.links(&chain);
        let mut step = LogicStep::eliminating(technique, pattern(&links), eliminations);
        step.links = links;
        Some(self.rated(step, length))
    }

    /// The step of the forcing chain ending at node `end`: its start removed
    /// (true made it false) or placed (false made it true).
    fn forcing_step(&self, end: u32) -> (LogicStep, usize) {
        let chain = self.chain(end);
        let technique = self.forcing_technique();
        let target = self.candidate(chain[0]);
        let (links, length) = self.links(&chain);
        let mut step = if chain[0].on {
            LogicStep::eliminating(technique, pattern(&links), vec![target])
        } else {
            LogicStep {
                pattern: pattern(&links),
                ..LogicStep::placing(technique, target)
            }
        };
        step.links = links;
        self.rated(step, length)
    }
}

/// Whether a chain of `technique`, `length` states long, would be no easier than
/// `bound`'s (rating, length), so that `keep_easier` would not keep it.
fn beaten(bound: Option<(f64, usize)>, technique: Technique, length: usize) -> bool {
    bound.is_some_and(|bound| {
        (
            rating_with_length(technique, length.saturating_sub(2)),
            length,
        ) >= bound
    })
}
