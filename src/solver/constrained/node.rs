//! The branching search's view of a variant grid: `Node` for
//! [`Constrained`], propagation's order of rounds, placement and undo.

use std::sync::Arc;

use super::grid::{Constrained, DIRTY_WORDS};
use crate::solver::sized::{self, Node, Placed, Strength};
use crate::solver::{Interrupted, Recorder, Sink, Status};

impl Node for Constrained {
    type Dirty = [u64; DIRTY_WORDS];

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

    fn set_dirty(&mut self, dirty: Self::Dirty) {
        self.dirty = dirty;
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
