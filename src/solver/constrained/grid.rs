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

use super::dirty::{Dirty, Houses, Lane, Moved};
use crate::board::Layout;
use crate::solver::sized::{Node, Placed};
use crate::solver::{Interrupted, Reason, Recorder, Sink};

/// A rule that propagates on its own.
pub(in crate::solver) trait Rule: Send + Sync + fmt::Debug {
    /// Takes out the candidates the rule forbids given the others (through
    /// [`Constrained::restrict`], which breaks the grid when a filled cell's
    /// digit is forbidden, or [`Constrained::fail`]); true when it took any.
    /// Only what follows from the cells in `changed` (a cell bit set, see
    /// [`has`]) is new: the rest was drawn in an earlier round.
    fn propagate(&self, grid: &mut Constrained, changed: &[u64]) -> bool;

    /// Deductions that cost more, run only once the cheaper rounds stall,
    /// from the digits in `moved[house]` of each house (those whose places
    /// changed since the last round); true when it took any candidate out.
    /// None by default.
    fn deduce(&self, _grid: &mut Constrained, _moved: &[u64]) -> bool {
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
    /// Whether Hall sets are worth their cost: with cage sums they cut the
    /// search by more than they cost; with the other rules they cost more
    /// than the guesses they save (measured on the variant sets).
    pub(in crate::solver) hall: bool,
    /// Each cell's houses as a set.
    pub(in crate::solver) house_bits: Vec<Houses>,
}

impl Model {
    /// The model of `layout` with `rules`, Hall sets when `hall`.
    pub(in crate::solver) fn new(
        layout: Arc<Layout>,
        rules: Vec<Box<dyn Rule>>,
        hall: bool,
    ) -> Model {
        let house_bits = (0..layout.cells())
            .map(|cell| Houses::of(layout.houses_of(cell)))
            .collect();
        Model {
            layout,
            rules,
            hall,
            house_bits,
        }
    }
}

/// True when `item` is in the bit set `bits`.
pub(super) fn has(bits: &[u64], item: usize) -> bool {
    bits[item / 64] >> (item % 64) & 1 == 1
}

/// The items in the bit set `bits`, lowest first.
pub(super) fn members(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(index, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            let item = (rest != 0).then(|| index * 64 + rest.trailing_zeros() as usize);
            rest &= rest.wrapping_sub(1);
            item
        })
    })
}

/// Sets the bits of items `0..count` in `bits`, and no others.
fn fill_to(bits: &mut [u64], count: usize) {
    for (index, word) in bits.iter_mut().enumerate() {
        let width = count.saturating_sub(index * 64).min(64) as u32;
        *word = u64::MAX.checked_shr(64 - width).unwrap_or(0);
    }
}

/// True when any of `cells` is in the bit set `bits`.
pub(super) fn has_any(bits: &[u64], cells: &[u16]) -> bool {
    cells.iter().any(|&cell| has(bits, usize::from(cell)))
}

/// Words of a peer bit set at the largest grid that keeps them.
pub(super) const PEER_WORDS: usize = crate::board::PEER_BITS_CELLS / 64;

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
    /// Changed houses, a set for each round that looks at them only.
    pub(super) dirty: Dirty,
    /// Cells whose options changed since the rules last ran.
    pub(super) changed: Vec<u64>,
    /// Room for the rules' view of `changed` while they run.
    pub(super) seen: Vec<u64>,
    /// The digits whose places changed in each house, for the rounds that
    /// look at digits.
    pub(super) moved: Vec<Moved>,
    /// Room for the deductions' view of `moved` while they run.
    pub(super) moved_seen: Vec<u64>,
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
            dirty: Dirty::all(),
            changed: vec![0; cells.div_ceil(64)],
            seen: Vec::new(),
            moved: vec![
                Moved {
                    pointing: all,
                    deductions: all,
                };
                layout.house_count()
            ],
            moved_seen: Vec::new(),
            model: Arc::clone(&model),
        };
        grid.touch_all();
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
        self.moved_out(cell, before & digits);
        if after == 0 {
            self.broken = true;
            self.weight[cell] += 1;
        } else if after & (after - 1) == 0 {
            self.queue.push(cell as u16);
        }
        true
    }

    /// Notes that `digits` left `cell`: their places in its houses moved.
    pub(super) fn moved_out(&mut self, cell: usize, digits: u64) {
        for &house in self.model.layout.houses_of(cell) {
            let moved = &mut self.moved[usize::from(house)];
            moved.pointing |= digits;
            moved.deductions |= digits;
        }
    }

    /// Marks `cell` and its houses as changed.
    pub(super) fn touch(&mut self, cell: usize) {
        self.changed[cell / 64] |= 1u64 << (cell % 64);
        self.dirty.mark(&self.model.house_bits[cell]);
    }

    /// The places of digit `digit + 1` among `cells` (at most 64), as a bit
    /// a place.
    pub(super) fn slots(&self, cells: &[u16], digit: u32) -> u64 {
        cells.iter().enumerate().fold(0, |slots, (slot, &cell)| {
            slots | (self.candidates[usize::from(cell)] >> digit & 1) << slot
        })
    }

    /// Marks every cell as changed, for the rules to look at them all again.
    pub(super) fn touch_all(&mut self) {
        let cells = self.cells.len();
        fill_to(&mut self.changed, cells);
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
            if !self.dirty.has(Lane::Singles, house) {
                continue;
            }
            self.dirty.clean(Lane::Singles, house);
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

    /// Every rule's eliminations from the cells changed since the last
    /// round, in turn; true when any took a candidate out (or broke the grid).
    pub(super) fn rules(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        if model.rules.is_empty() {
            return false;
        }
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.extend_from_slice(&self.changed);
        self.changed.fill(0);
        let mut changed = false;
        for rule in &model.rules {
            changed |= rule.propagate(self, &seen);
            if self.broken {
                changed = true;
                break;
            }
        }
        self.seen = seen;
        changed
    }

    /// Every rule's costlier deductions from the houses changed since the
    /// last such round, in turn; true when any took a candidate out (or broke
    /// the grid).
    pub(super) fn deductions(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        if model.rules.is_empty() {
            return false;
        }
        self.dirty.take(Lane::Deductions);
        let mut moved = std::mem::take(&mut self.moved_seen);
        moved.clear();
        moved.extend(
            self.moved
                .iter_mut()
                .map(|house| std::mem::take(&mut house.deductions)),
        );
        let mut changed = false;
        for rule in &model.rules {
            changed |= rule.deduce(self, &moved);
            if self.broken {
                changed = true;
                break;
            }
        }
        self.moved_seen = moved;
        changed
    }

    /// True when every rule holds on the grid's filled cells.
    pub(super) fn rules_hold(&self) -> bool {
        self.model.rules.iter().all(|rule| rule.holds(&self.cells))
    }
}
