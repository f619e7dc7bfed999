//! The costlier rounds of a variant grid's propagation, run once singles and
//! the rules stall: locked candidates between crossing houses, a digit's
//! places in a house and the cells that see them all, and every changed
//! house's Hall sets.

use std::sync::Arc;

use super::dirty::Lane;
use super::grid::{Constrained, PEER_WORDS, members};
use crate::board::Layout;
use crate::solver::sized::House;

/// The most places of a digit in a house that house pointing works from.
const POINTED: usize = 4;

impl Constrained {
    /// Locked candidates between crossing houses: a digit whose places in one
    /// house all lie where it crosses another leaves the rest of the other.
    /// Looks at the crossings of houses changed since the last round, all of
    /// them (what it takes out marks its houses for the next).
    pub(super) fn crossings(&mut self) -> bool {
        let model = Arc::clone(&self.model);
        let union = |grid: &Constrained, cells: &[u16]| {
            cells
                .iter()
                .fold(0, |acc, &cell| acc | grid.candidates[usize::from(cell)])
        };
        let houses = self.dirty.take(Lane::Crossings);
        let changed_house = |house: u16| houses.has(usize::from(house));
        // House pointing finds what a crossing of at most four cells would.
        let pointed = if model.layout.peer_bits(0).is_some() {
            POINTED
        } else {
            0
        };
        let mut changed = false;
        for crossing in &model.layout.crossings {
            if crossing.common.len() <= pointed || !crossing.houses.into_iter().any(changed_house) {
                continue;
            }
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
                self.dirty.give_back(Lane::Crossings, &houses);
                return true;
            }
        }
        false
    }

    /// Takes `bit` out of every cell that sees all of `places` in `layout` (the places of
    /// a digit that must stand in one of them); true when it took any. Needs
    /// the layout's peer bit sets: without them, nothing.
    fn seen_by_all(&mut self, layout: &Layout, places: &[usize], bit: u64) -> bool {
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
        for cell in members(&seen[..bits.len()]) {
            changed |= self.remove(cell, bit);
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
        let mut at = Vec::with_capacity(4);
        for house in 0..layout.house_count() {
            let mut moved = std::mem::take(&mut self.moved[house].pointing);
            if moved == 0 {
                continue;
            }
            self.dirty.clean(Lane::Pointing, house);
            let cells = layout.house(house);
            while moved != 0 {
                let digit = moved.trailing_zeros();
                moved &= moved - 1;
                let slots = self.slots(cells, digit);
                if slots == 0 || slots.count_ones() as usize > POINTED {
                    continue;
                }
                at.clear();
                at.extend(members(&[slots]).map(|slot| usize::from(cells[slot])));
                changed |= self.seen_by_all(layout, &at, 1 << digit);
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
            if !self.dirty.has(Lane::Hall, house) {
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
            self.dirty.clean(Lane::Hall, house);
            if self.broken {
                return true;
            }
        }
        changed
    }
}
