//! The implications a chain follows on a pencil-mark grid of any shape, as
//! Sudoku Explainer's chaining builds them: a candidate's true and false
//! states as nodes, each reached from the node that forced it. A weak link
//! (one true makes the other false) joins two places of a digit that share a
//! house, or two digits of a cell; a strong one (one false makes the other
//! true) a digit's only two places in a house (an X-link) or a cell's only two
//! digits (a Y-link). The links are the grid's as it stands (static). The
//! rungs that walk them: `cycles` (cycles and forcing chains) and `multiple`
//! (cell and region forcing chains).

use super::marks::{Marks, members as bits};
use super::step::{Candidate, Link, LogicStep, Technique};

/// No parent: the assumption a chain starts from.
pub(super) const ROOT: u32 = u32::MAX;

/// One state of a candidate a chain reached, and the node it came from.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) candidate: u32,
    pub(super) on: bool,
    pub(super) parent: u32,
}

/// Which strong links a chain may use (weak links between places of a digit
/// are always open; between a cell's digits only with Y-links).
#[derive(Clone, Copy, PartialEq)]
pub(super) struct Kinds {
    pub(super) x: bool,
    pub(super) y: bool,
}

/// The implications of one pass (one set of link kinds) on a grid.
pub(super) struct Net<'a, P> {
    pub(super) pencil: &'a P,
    pub(super) n: usize,
    /// The links open in this pass: read here, set by `set_kinds` (which
    /// lists what they imply).
    pub(super) kinds: Kinds,
    pub(super) nodes: Vec<Node>,
    /// The first node of each candidate's true state (`ROOT`: none yet).
    pub(super) reached_on: Vec<u32>,
    /// The first node of each candidate's false state.
    pub(super) reached_off: Vec<u32>,
    /// Room for one state's links while `set_kinds` lists them.
    scratch: Vec<u32>,
    /// A search's queues, kept from one search to the next (a search from
    /// every candidate of the grid: their memory is made once).
    pub(super) queues: [Vec<u32>; 2],
    /// Per candidate: the last `stamp` that marked it (a set of candidates
    /// emptied in one step by taking a new stamp; 64 bits, so that no count of
    /// searches wraps it round).
    pub(super) stamps: Vec<u64>,
    pub(super) stamp: u64,
    /// Each candidate's digit's other places in its houses (the grid is
    /// static: read once).
    seen: Lists,
    /// Each candidate's digit's other place in each house where it has two.
    conjugates: Lists,
    /// The states each state implies under `kinds` (`set_kinds` makes them):
    /// `implied[0]` from a false candidate (strong links), `implied[1]` from a
    /// true one (weak links), in the order `strong` and `weak` give them.
    implied: [Lists; 2],
}

/// A list of candidates for each candidate, kept in one array.
#[derive(Default)]
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    fn of(&self, candidate: u32) -> &[u32] {
        let at = candidate as usize;
        &self.items[self.start[at] as usize..self.start[at + 1] as usize]
    }
}

/// The other places of each candidate's digit in its houses: all of them, or
/// (`pairs`) only where the house has two.
fn places_seen<P: Marks>(pencil: &P, pairs: bool) -> Lists {
    let n = pencil.size();
    let mut lists = Lists {
        start: vec![0],
        items: Vec::new(),
    };
    for cell in 0..pencil.shape().cells() {
        for bit in 0..n {
            let from = lists.items.len();
            if pencil.candidates(cell) & (1 << bit) != 0 {
                for &unit in pencil.houses_of(cell) {
                    let unit = usize::from(unit);
                    let places = pencil.places(unit, bit as u8 + 1);
                    if pairs && places.count_ones() != 2 {
                        continue;
                    }
                    let house = pencil.house(unit);
                    for at in bits(places) {
                        let other = (usize::from(house[at]) * n + bit) as u32;
                        if usize::from(house[at]) != cell && !lists.items[from..].contains(&other) {
                            lists.items.push(other);
                        }
                    }
                }
            }
            lists.start.push(lists.items.len() as u32);
        }
    }
    lists
}

impl<'a, P: Marks> Net<'a, P> {
    pub(super) fn new(pencil: &'a P) -> Self {
        let n = pencil.size();
        let count = pencil.shape().cells() * n;
        Net {
            pencil,
            n,
            kinds: Kinds { x: true, y: true },
            nodes: Vec::new(),
            reached_on: vec![ROOT; count],
            reached_off: vec![ROOT; count],
            scratch: Vec::new(),
            queues: Default::default(),
            stamps: vec![0; count],
            stamp: 0,
            seen: places_seen(pencil, false),
            conjugates: places_seen(pencil, true),
            implied: [Lists::default(), Lists::default()],
        }
    }

    /// Opens the links of `kinds` (a pass), and lists what each state implies
    /// through them: the searches of a pass read these lists, made once.
    pub(super) fn set_kinds(&mut self, kinds: Kinds) {
        self.kinds = kinds;
        let mut scratch = std::mem::take(&mut self.scratch);
        for on in [false, true] {
            let mut lists = Lists {
                start: vec![0],
                items: Vec::new(),
            };
            for candidate in 0..(self.pencil.shape().cells() * self.n) as u32 {
                let (cell, bit) = self.split(candidate);
                if self.pencil.candidates(cell) & (1 << bit) != 0 {
                    if on {
                        self.weak(candidate, &mut scratch);
                    } else {
                        self.strong(candidate, &mut scratch);
                    }
                    lists.items.extend_from_slice(&scratch);
                }
                lists.start.push(lists.items.len() as u32);
            }
            self.implied[usize::from(on)] = lists;
        }
        self.scratch = scratch;
    }

    /// Where the states that `candidate` true (`on`) or false implies lie in
    /// `implied_at`'s list.
    pub(super) fn implied(&self, candidate: u32, on: bool) -> std::ops::Range<usize> {
        let lists = &self.implied[usize::from(on)];
        let at = candidate as usize;
        lists.start[at] as usize..lists.start[at + 1] as usize
    }

    /// The implied state at `index` (of `implied`'s range) of the list from
    /// true (`on`) or false candidates.
    pub(super) fn implied_at(&self, on: bool, index: usize) -> u32 {
        self.implied[usize::from(on)].items[index]
    }

    /// The candidates a true `candidate` makes false: its digit's other places
    /// in its houses, and with Y-links its cell's other digits.
    fn weak(&self, candidate: u32, out: &mut Vec<u32>) {
        out.clear();
        let (cell, bit) = self.split(candidate);
        if self.kinds.y {
            let others = self.pencil.candidates(cell) & !(1 << bit);
            out.extend(bits(others).map(|other| (cell * self.n + other) as u32));
        }
        out.extend_from_slice(self.seen.of(candidate));
    }

    /// The candidates a false `candidate` makes true: its cell's other digit
    /// when it has two (Y-links), its digit's other place in a house where it
    /// has two (X-links).
    fn strong(&self, candidate: u32, out: &mut Vec<u32>) {
        out.clear();
        let (cell, bit) = self.split(candidate);
        let digits = self.pencil.candidates(cell);
        if self.kinds.y && digits.count_ones() == 2 {
            let other = (digits & !(1 << bit)).trailing_zeros() as usize;
            out.push((cell * self.n + other) as u32);
        }
        if self.kinds.x {
            out.extend_from_slice(self.conjugates.of(candidate));
        }
    }

    pub(super) fn split(&self, candidate: u32) -> (usize, usize) {
        let candidate = candidate as usize;
        (candidate / self.n, candidate % self.n)
    }

    /// The search queues, empty, for a search to give back when it ends.
    pub(super) fn take_queues(&mut self) -> [Vec<u32>; 2] {
        let mut queues = std::mem::take(&mut self.queues);
        for queue in &mut queues {
            queue.clear();
        }
        queues
    }

    /// Forgets the last search's nodes.
    pub(super) fn reset(&mut self) {
        for node in self.nodes.drain(..) {
            let slot = node.candidate as usize;
            self.reached_on[slot] = ROOT;
            self.reached_off[slot] = ROOT;
        }
    }

    pub(super) fn push(&mut self, candidate: u32, on: bool, parent: u32) -> u32 {
        self.nodes.push(Node {
            candidate,
            on,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    pub(super) fn mark(&mut self, at: u32) {
        let node = self.nodes[at as usize];
        let slot = node.candidate as usize;
        if node.on {
            self.reached_on[slot] = at;
        } else {
            self.reached_off[slot] = at;
        }
    }

    /// The nodes from the chain's start to node `at`, in order.
    pub(super) fn chain(&self, at: u32) -> Vec<Node> {
        chain(&self.nodes, at)
    }

    pub(super) fn candidate(&self, node: Node) -> Candidate {
        let (cell, bit) = self.split(node.candidate);
        (cell, bit as u8 + 1)
    }

    /// The links of a chain, and its length: its distinct states.
    pub(super) fn links(&self, chain: &[Node]) -> (Vec<Link>, usize) {
        let links = chain
            .windows(2)
            .map(|pair| Link {
                start: self.candidate(pair[0]),
                end: self.candidate(pair[1]),
                strong: pair[1].on,
            })
            .collect();
        let mut states: Vec<(u32, bool)> = chain.iter().map(|n| (n.candidate, n.on)).collect();
        states.sort_unstable();
        states.dedup();
        (links, states.len())
    }

    pub(super) fn rated(&self, step: LogicStep, length: usize) -> (LogicStep, usize) {
        let rating = rating_with_length(step.technique, length.saturating_sub(2));
        (LogicStep { rating, ..step }, length)
    }
}

/// The candidates a chain's links pass through, each once, in order.
/// The nodes of `nodes` from a chain's start to node `at`, in order.
pub(super) fn chain(nodes: &[Node], mut at: u32) -> Vec<Node> {
    let mut out = Vec::new();
    while at != ROOT {
        let node = nodes[at as usize];
        out.push(node);
        at = node.parent;
    }
    out.reverse();
    out
}

pub(super) fn pattern(links: &[Link]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    for link in links {
        for candidate in [link.start, link.end] {
            if !out.contains(&candidate) {
                out.push(candidate);
            }
        }
    }
    out
}

/// Tenths added for a chain of `moves` forced moves: one more each time the
/// length passes 4, 6, 8, 12, 16, 24, 32, 48, ... (each step half again or a
/// third again the last), the shape of Sudoku Explainer's length modifier.
pub(super) fn length_modifier(moves: usize) -> f64 {
    let mut tenths = 0.0;
    let mut limit = 4usize;
    let mut grow_by_half = true;
    while moves > limit {
        tenths += 1.0;
        limit = if grow_by_half {
            limit + limit / 2
        } else {
            limit * 4 / 3
        };
        grow_by_half = !grow_by_half;
    }
    tenths
}

/// `technique`'s rating with the length modifier of `length`, to a tenth.
pub(super) fn rating_with_length(technique: Technique, length: usize) -> f64 {
    (technique.rating() * 10.0 + length_modifier(length)).round() / 10.0
}

/// Keeps `found` in `best` when it rates lower, or as low with a shorter
/// chain: the order in which Sudoku Explainer takes its chains.
pub(super) fn keep_easier(best: &mut Option<(LogicStep, usize)>, found: (LogicStep, usize)) {
    let easier = best
        .as_ref()
        .is_none_or(|(step, length)| (found.0.rating, found.1) < (step.rating, *length));
    if easier {
        *best = Some(found);
    }
}
