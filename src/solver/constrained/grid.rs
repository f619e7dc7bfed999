//! [`Constrained`]: the working grid of a variant, over its [`Layout`]'s
//! houses and peers and its rules. A placement takes its digit out of every
//! peer (house and cage mates, a knight's or king's move away); propagation
//! runs naked and hidden singles, the rules' own eliminations, locked
//! candidates between any two crossing houses and every house's Hall sets until
//! nothing changes. Driven by the branching search as the any-size grid is.
//! [`Rule`] is what each rule that is no house does to the grid (cage sums,
//! thermometers, neighbours): knight's and king's moves, diagonals, windows,
//! regions and cages without a sum need none, being peers and houses.

use std::fmt;
use std::sync::Arc;

use crate::board::Layout;
use crate::solver::sized::{House, Node, Placed};
use crate::solver::{Interrupted, Reason, Recorder, Sink};

/// A rule that propagates on its own.
pub(in crate::solver) trait Rule: Send + Sync + fmt::Debug {
    /// Takes out the candidates the rule forbids given the others (through
    /// [`Constrained::restrict`], which breaks the grid when a filled cell's
    /// digit is forbidden, or [`Constrained::fail`]); true when it took any.
    fn propagate(&self, grid: &mut Constrained) -> bool;

    /// Deductions that cost more, run only once the cheaper rounds stall;
    /// true when it took any candidate out. None by default.
    fn deduce(&self, _grid: &mut Constrained) -> bool {
        false
    }

    /// True unless the filled cells of `cells` already break the rule.
    fn holds(&self, cells: &[u8]) -> bool;
}

/// A variant's houses and peers and its other rules, made once per puzzle and
/// shared by every copy of its grid.
pub(in crate::solver) struct Model {
    pub(in crate::solver) layout: Arc<Layout>,
    pub(in crate::solver) rules: Vec<Box<dyn Rule>>,
}

/// Houses past this many share their bits of the dirty set (a shared bit only
/// means a house may be filtered less often: propagation stays sound).
pub(super) const DIRTY_BITS: usize = 256;

/// Words of a peer bit set at the largest grid that keeps them.
const PEER_WORDS: usize = crate::board::PEER_BITS_CELLS / 64;

/// A variant grid under search.
#[derive(Clone)]
pub(in crate::solver) struct Constrained {
    pub(super) model: Arc<Model>,
    pub(super) all: u64,
    pub(super) cells: Vec<u8>,
    /// Candidates of each empty cell (0 for a filled one).
    pub(super) candidates: Vec<u64>,
    /// Digits placed in each house.
    pub(super) placed: Vec<u64>,
    pub(super) trail: Vec<Placed>,
    /// Cells that may have one candidate left, to be placed.
    pub(super) queue: Vec<u16>,
    /// Cells a rule (not a peer's digit) left with one candidate.
    pub(super) by_rule: Vec<bool>,
    pub(super) broken: bool,
    pub(super) weight: Vec<u32>,
    pub(super) dirty: [u64; DIRTY_BITS / 64],
}

impl Constrained {
    /// The grid of `givens` (consistent with each other by the layout's clash
    /// check) under `model`.
    pub(in crate::solver) fn new(model: Arc<Model>, givens: &[u8]) -> Constrained {
        let layout = &model.layout;
        let cells = layout.cells();
        let all = layout.shape.all_digits();
        let mut grid = Constrained {
            all,
            cells: vec![0; cells],
            candidates: vec![all; cells],
            placed: vec![0; layout.house_count()],
            trail: Vec::with_capacity(cells),
            queue: Vec::new(),
            by_rule: vec![false; cells],
            broken: false,
            weight: vec![1; cells],
            dirty: [u64::MAX; DIRTY_BITS / 64],
            model: Arc::clone(&model),
        };
        for (cell, &digit) in givens.iter().enumerate() {
            if digit != 0 {
                grid.set(cell, digit);
            }
        }
        grid
    }

    /// N x N.
    fn layout(&self) -> &Layout {
        &self.model.layout
    }

    /// Writes a given: its digit in its houses and out of its peers.
    fn set(&mut self, cell: usize, digit: u8) {
        let bit = 1u64 << (digit - 1);
        self.cells[cell] = digit;
        self.candidates[cell] = 0;
        let model = Arc::clone(&self.model);
        for &house in model.layout.houses_of(cell) {
            self.placed[usize::from(house)] |= bit;
        }
        for &peer in model.layout.peers_of(cell) {
            self.remove(usize::from(peer), bit);
        }
    }

    /// A cell's possible digits: its candidates, or its digit when filled.
    pub(super) fn options(&self, cell: usize) -> u64 {
        match self.cells[cell] {
            0 => self.candidates[cell],
            digit => 1u64 << (digit - 1),
        }
    }

    /// True when `cell` holds a digit.
    pub(super) fn filled(&self, cell: usize) -> bool {
        self.cells[cell] != 0
    }

    /// The layout and rules, shared (a rule reads the houses through it).
    pub(super) fn model(&self) -> Arc<Model> {
        Arc::clone(&self.model)
    }

    /// N: the largest digit.
    pub(super) fn size(&self) -> usize {
        self.layout().size()
    }

    /// Keeps only `allowed` of `cell`'s options, as a rule demands: a filled
    /// cell whose digit is not allowed breaks the grid. True when it took any.
    pub(super) fn restrict(&mut self, cell: usize, allowed: u64) -> bool {
        if self.filled(cell) {
            if self.options(cell) & allowed == 0 {
                self.broken = true;
                self.weight[cell] += 1;
            }
            return false;
        }
        let changed = self.remove(cell, self.candidates[cell] & !allowed);
        if changed && self.candidates[cell].count_ones() == 1 {
            self.by_rule[cell] = true;
        }
        changed
    }

    /// Marks the grid broken: a rule cannot hold.
    pub(super) fn fail(&mut self, cells: &[u16]) {
        self.broken = true;
        for &cell in cells {
            self.weight[usize::from(cell)] += 1;
        }
    }

    /// True when the grid is broken.
    pub(super) fn is_broken(&self) -> bool {
        self.broken
    }

    /// Takes `digits` out of an empty cell's candidates; true when it took any.
    pub(super) fn remove(&mut self, cell: usize, digits: u64) -> bool {
        let before = self.candidates[cell];
        if before & digits == 0 {
            return false;
        }
        let after = before & !digits;
        self.candidates[cell] = after;
        self.touch(cell);
        if after == 0 {
            self.broken = true;
            self.weight[cell] += 1;
        } else if after & (after - 1) == 0 {
            self.queue.push(cell as u16);
        }
        true
    }

    /// Marks `cell`'s houses as changed.
    pub(super) fn touch(&mut self, cell: usize) {
        for &house in self.model.layout.houses_of(cell) {
            let bit = usize::from(house) % DIRTY_BITS;
            self.dirty[bit / 64] |= 1u64 << (bit % 64);
        }
    }

    /// Places every queued cell that still has exactly one candidate.
    pub(super) fn naked_singles<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        depth: u32,
    ) -> Result<(), Interrupted> {
        while let Some(cell) = self.queue.pop() {
            if self.broken {
                break;
            }
            let options = self.candidates[usize::from(cell)];
            if options == 0 || options & (options - 1) != 0 {
                continue;
            }
            let reason = if self.by_rule[usize::from(cell)] {
                Reason::Constraint
            } else {
                Reason::NakedSingle
            };
            let digit = options.trailing_zeros() as u8 + 1;
            Node::place(
                self,
                recorder,
                Placed {
                    cell,
                    digit,
                    reason,
                    depth,
                },
            )?;
        }
        Ok(())
    }

    /// Places the digits with one place left in some house; true when it placed
    /// any (or found a digit with no place, breaking the grid).
    pub(super) fn hidden_singles<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        depth: u32,
    ) -> Result<bool, Interrupted> {
        let model = Arc::clone(&self.model);
        let mut any = false;
        for house in 0..model.layout.house_count() {
            let [once, twice, _] = Node::tally(self, house);
            if (once | self.placed[house]) != self.all {
                self.fail(model.layout.house(house));
                return Ok(true);
            }
            let mut hidden = once & !twice;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let Some(cell) = Node::place_of(self, house, bit) else {
                    self.fail(model.layout.house(house));
                    return Ok(true);
                };
                let digit = bit.trailing_zeros() as u8 + 1;
                let reason = Reason::HiddenSingle;
                Node::place(
                    self,
                    recorder,
                    Placed {
                        cell,
                        digit,
                        reason,
                        depth,
                    },
                )?;
                any = true;
                if self.broken {
                    return Ok(true);
                }
            }
            if any && !self.queue.is_empty() {
                return Ok(true);
            }
        }
        Ok(any)
    }

    /// Every rule's eliminations, in turn; true when any took a candidate out
    /// (or broke the grid).
    pub(super) fn rules(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        let mut changed = false;
        for rule in &model.rules {
            changed |= rule.propagate(self);
            if self.broken {
                return true;
            }
        }
        changed
    }

    /// Every rule's costlier deductions, in turn; true when any took a
    /// candidate out (or broke the grid).
    pub(super) fn deductions(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        for rule in &model.rules {
            if rule.deduce(self) || self.broken {
                return true;
            }
        }
        false
    }

    /// Locked candidates between crossing houses: a digit whose places in one
    /// house all lie where it crosses another leaves the rest of the other.
    pub(super) fn crossings(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        let union = |grid: &Constrained, cells: &[u16]| {
            cells
                .iter()
                .fold(0, |acc, &cell| acc | grid.candidates[usize::from(cell)])
        };
        let mut changed = false;
        for crossing in &model.layout.crossings {
            let common = union(self, &crossing.common);
            if common == 0 {
                continue;
            }
            let (first, second) = (union(self, &crossing.first), union(self, &crossing.second));
            let from_first = common & !first & second;
            let from_second = common & !second & first;
            for &cell in &crossing.second {
                changed |= self.remove(usize::from(cell), from_first);
            }
            for &cell in &crossing.first {
                changed |= self.remove(usize::from(cell), from_second);
            }
            if changed {
                return true;
            }
        }
        false
    }

    /// Takes `bit` out of every cell that sees all of `places` (the places of
    /// a digit that must stand in one of them); true when it took any. Needs
    /// the layout's peer bit sets: without them, nothing.
    pub(super) fn seen_by_all(&mut self, places: &[usize], bit: u64) -> bool {
        let model = Arc::clone(&self.model);
        let layout = &model.layout;
        let Some((&first, rest)) = places.split_first() else {
            return false;
        };
        let Some(bits) = layout.peer_bits(first) else {
            return false;
        };
        let mut seen = [0u64; PEER_WORDS];
        seen[..bits.len()].copy_from_slice(bits);
        for &place in rest {
            let Some(more) = layout.peer_bits(place) else {
                return false;
            };
            for (word, &other) in seen.iter_mut().zip(more) {
                *word &= other;
            }
        }
        let mut changed = false;
        for (index, &word) in seen[..bits.len()].iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let cell = index * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                changed |= self.remove(cell, bit);
            }
        }
        changed
    }

    /// A digit's places in a house: every cell that sees them all loses it.
    /// Locked candidates between any houses, and with knight's, king's and
    /// cage peers besides. True when it took any candidate out.
    pub(super) fn house_pointing(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        let layout = &model.layout;
        if layout.peer_bits(0).is_none() {
            return false;
        }
        let mut changed = false;
        let mut places = Vec::with_capacity(8);
        for house in 0..layout.house_count() {
            let [once, _, _] = Node::tally(self, house);
            let mut digits = once;
            while digits != 0 {
                let bit = digits & digits.wrapping_neg();
                digits ^= bit;
                places.clear();
                for &cell in layout.house(house) {
                    if self.candidates[usize::from(cell)] & bit != 0 {
                        places.push(usize::from(cell));
                        if places.len() > 4 {
                            break;
                        }
                    }
                }
                if places.len() <= 4 {
                    changed |= self.seen_by_all(&places, bit);
                }
            }
            if changed || self.broken {
                return true;
            }
        }
        false
    }

    /// Every changed house's Hall sets taken out; true when any candidate went
    /// (or a house cannot be filled, breaking the grid).
    pub(super) fn hall_sets(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        let mut changed = false;
        let (mut empty, mut options) = (Vec::new(), Vec::new());
        for house in 0..model.layout.house_count() {
            let bit = house % DIRTY_BITS;
            let (word, mask) = (bit / 64, 1u64 << (bit % 64));
            if self.dirty[word] & mask == 0 {
                continue;
            }
            empty.clear();
            options.clear();
            for &cell in model.layout.house(house) {
                let here = self.candidates[usize::from(cell)];
                if here != 0 {
                    empty.push(usize::from(cell));
                    options.push(here);
                }
            }
            let mut filter = House {
                candidates: &mut options,
            };
            if !filter.filter() {
                self.fail(model.layout.house(house));
                return true;
            }
            for (&cell, &kept) in empty.iter().zip(&options) {
                changed |= self.remove(cell, self.candidates[cell] & !kept);
            }
            self.dirty[word] &= !mask;
            if self.broken {
                return true;
            }
        }
        changed
    }

    /// True when every rule holds on the grid's filled cells.
    pub(super) fn rules_hold(&self) -> bool {
        self.model.rules.iter().all(|rule| rule.holds(&self.cells))
    }
}
