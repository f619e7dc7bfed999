//! The branching search's view of a variant grid: `Node` for
//! [`Constrained`], propagation's order of rounds, placement and undo.

use std::sync::Arc;

use super::dirty::{Dirty, Moved};
use super::grid::Constrained;
use crate::board::neighbours;
use crate::solver::sized::{self, Node, Placed, Strength};
use crate::solver::{Interrupted, Recorder, Sink, Status};

impl Node for Constrained {
    type Dirty = Dirty;

    /// Singles first, then the rules, then (above [`Strength::Singles`])
    /// locked candidates, the rules' deductions and (where the model wants
    /// them) Hall sets, each round only when the cheaper ones stall. A full
    /// grid that breaks a rule is broken too.
    fn propagate<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        strength: Strength,
        depth: u32,
    ) -> Result<Status, Interrupted> {
        self.queue.clear();
        for cell in 0..self.cells.len() {
            let options = self.candidates[cell];
            if options != 0 && options & (options - 1) == 0 {
                self.queue.push(cell as u16);
            }
        }
        while !self.broken {
            self.naked_singles(recorder, depth)?;
            if self.broken || self.hidden_singles(recorder, depth)? || self.rules() {
                continue;
            }
            if strength == Strength::Singles {
                break;
            }
            if self.crossings() || self.house_pointing() || self.deductions() {
                continue;
            }
            if strength == Strength::BoxLine || !self.model.hall || !self.hall_sets() {
                break;
            }
        }
        if !self.broken && self.cells.iter().all(|&digit| digit != 0) && !self.rules_hold() {
            self.broken = true;
        }
        Ok(Status::Done)
    }

    fn broken(&self) -> bool {
        self.broken
    }

    fn candidates(&self) -> &[u64] {
        &self.candidates
    }

    fn candidates_mut(&mut self) -> &mut [u64] {
        &mut self.candidates
    }

    fn cells(&self) -> &[u8] {
        &self.cells
    }

    fn trail_len(&self) -> usize {
        self.trail.len()
    }

    fn dirty(&self) -> Self::Dirty {
        self.dirty
    }

    /// Also the digits moved in each house, from the lanes.
    fn set_dirty(&mut self, dirty: Self::Dirty) {
        self.dirty = dirty;
        for (house, moved) in self.moved.iter_mut().enumerate() {
            *moved = Moved::from_lanes(&dirty, house, self.all);
        }
    }

    fn place<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        placed: Placed,
    ) -> Result<(), Interrupted> {
        let cell = usize::from(placed.cell);
        recorder.place(cell, placed.digit, placed.reason, placed.depth)?;
        let bit = 1u64 << (placed.digit - 1);
        self.cells[cell] = placed.digit;
        self.moved_out(cell, self.candidates[cell]);
        self.candidates[cell] = 0;
        self.by_rule[cell] = false;
        self.touch(cell);
        self.trail.push(placed);
        let model = Arc::clone(&self.model);
        for &house in model.layout.houses_of(cell) {
            self.placed[usize::from(house)] |= bit;
        }
        for &peer in model.layout.peers_of(cell) {
            self.remove(usize::from(peer), bit);
        }
        Ok(())
    }

    fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        keep: usize,
    ) -> Result<(), Interrupted> {
        let model = Arc::clone(&self.model);
        while self.trail.len() > keep {
            let Some(last) = self.trail.pop() else { break };
            let cell = usize::from(last.cell);
            recorder.backtrack(cell, last.digit, last.reason, last.depth)?;
            let bit = 1u64 << (last.digit - 1);
            self.cells[cell] = 0;
            for &house in model.layout.houses_of(cell) {
                self.placed[usize::from(house)] &= !bit;
            }
        }
        self.queue.clear();
        self.by_rule.fill(false);
        self.broken = false;
        self.touch_all();
        Ok(())
    }

    fn eliminate(&mut self, cell: usize, digits: u64) -> bool {
        self.remove(cell, digits)
    }

    fn weight(&self, cell: usize) -> u32 {
        self.weight[cell]
    }

    /// Not under non-consecutive, where a cell's guess reaches its
    /// neighbours through the rule and a house's guess does not (half the
    /// time to the first solution on the variant sets).
    fn splits_houses(&self) -> bool {
        !self.model.layout.variant.non_consecutive
    }

    /// The digit that takes out the fewest candidates, to find a solution
    /// soon; the most when counting, for the guess to fail soon when it
    /// must (measured on the variant sets: 1.6x faster to the first solution
    /// of a thermometer puzzle under non-consecutive than the lowest digit).
    fn first_digit(&self, cell: usize, options: u64, counting: bool) -> u8 {
        let mut best = (0, 0);
        let mut rest = options;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let taken = self.taken_by(cell, bit);
            let score = if counting { taken } else { u32::MAX - taken };
            if score > best.0 || best.1 == 0 {
                best = (score, bit.trailing_zeros() as u8 + 1);
            }
        }
        best.1
    }

    fn house_count(&self) -> usize {
        self.model.layout.house_count()
    }

    fn tally(&self, house: usize) -> [u64; 3] {
        sized::tally(self.model.layout.house(house), &self.candidates)
    }

    fn place_of(&self, house: usize, bit: u64) -> Option<u16> {
        sized::place_of(self.model.layout.house(house), &self.candidates, bit)
    }
}

impl Constrained {
    /// How many candidates placing `bit` in `cell` would take out at once:
    /// its peers' and, under non-consecutive, its neighbours' within one.
    fn taken_by(&self, cell: usize, bit: u64) -> u32 {
        let layout = &self.model.layout;
        let mut taken = 0;
        for &peer in layout.peers_of(cell) {
            taken += u32::from(self.candidates[usize::from(peer)] & bit != 0);
        }
        if layout.variant.non_consecutive {
            let near = (bit << 1) | (bit >> 1);
            for other in neighbours(layout.size(), cell) {
                taken += (self.candidates[other] & near).count_ones();
            }
        }
        taken
    }
}
