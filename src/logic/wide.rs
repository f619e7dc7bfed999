//! The pencil-mark grid of any shape other than 9x9 (4x4 to 64x64), and of
//! every variant: the same grid as `pencil.rs`'s, its houses and peers the
//! shape's or the variant's ([`Houses`]) and its sets 64 bits wide. Knows
//! nothing of techniques.

use std::sync::Arc;

use super::houses::{Houses, Killer};
use super::marks::{Marks, bit, digits};
use crate::board::{Cell, Grid, Layout, Shape, Variant};

/// A pencil-mark grid of any shape.
#[derive(Debug)]
pub struct WidePencil {
    shape: Shape,
    houses: Houses,
    /// The digit of each cell, 0 when empty.
    values: Vec<u8>,
    /// The candidates of each empty cell (0 for a filled one).
    candidates: Vec<u64>,
    /// For house `u` and digit `d`, at `u * N + d - 1`: the positions of the
    /// house where the digit is a candidate.
    places: Vec<u64>,
}

impl WidePencil {
    /// The grid of `grid` under the rules of its shape: each empty cell holds
    /// every digit no peer holds.
    pub fn new(grid: &Grid) -> WidePencil {
        WidePencil::with_houses(grid, Houses::Shape(grid.shape().geometry()))
    }

    /// The grid of `grid` (cells of `layout`'s shape) under `layout`'s rules:
    /// each empty cell holds every digit no peer holds (the rules that are no
    /// house take nothing yet: their steps do).
    pub fn with_rules(grid: &Grid, layout: &Arc<Layout>) -> WidePencil {
        WidePencil::with_houses(grid, Houses::of(layout))
    }

    fn with_houses(grid: &Grid, houses: Houses) -> WidePencil {
        let shape = grid.shape();
        let n = shape.size();
        let mut pencil = WidePencil {
            shape,
            values: grid.cells().to_vec(),
            candidates: vec![0; shape.cells()],
            places: vec![0; houses.count() * n],
            houses,
        };
        for cell in 0..shape.cells() {
            if pencil.values[cell] != 0 {
                continue;
            }
            let taken = pencil.houses.peers_of(cell).iter().fold(0, |taken, &peer| {
                taken | bit(pencil.values[usize::from(peer)])
            });
            let candidates = shape.all_digits() & !taken;
            pencil.candidates[cell] = candidates;
            for digit in digits(candidates) {
                pencil.mark(cell, digit, true);
            }
        }
        pencil
    }

    /// Sets or clears `cell`'s position in the places of `digit` in its houses.
    #[inline]
    fn mark(&mut self, cell: Cell, digit: u8, on: bool) {
        let n = self.shape.size();
        let d = usize::from(digit - 1);
        let (houses, positions) = (self.houses.houses_of(cell), self.houses.positions_of(cell));
        for (&unit, &at) in houses.iter().zip(positions) {
            let places = &mut self.places[usize::from(unit) * n + d];
            if on {
                *places |= 1 << at;
            } else {
                *places &= !(1 << at);
            }
        }
    }
}

impl Clone for WidePencil {
    fn clone(&self) -> WidePencil {
        WidePencil {
            shape: self.shape,
            houses: self.houses.clone(),
            values: self.values.clone(),
            candidates: self.candidates.clone(),
            places: self.places.clone(),
        }
    }

    /// Copies into the buffers already held (a trial starts this way).
    fn clone_from(&mut self, source: &WidePencil) {
        self.shape = source.shape;
        self.houses.clone_from(&source.houses);
        self.values.clone_from(&source.values);
        self.candidates.clone_from(&source.candidates);
        self.places.clone_from(&source.places);
    }
}

impl Marks for WidePencil {
    fn shape(&self) -> Shape {
        self.shape
    }

    fn house_count(&self) -> usize {
        self.houses.count()
    }

    fn house(&self, unit: usize) -> &[u16] {
        self.houses.house(unit)
    }

    fn houses_of(&self, cell: Cell) -> &[u16] {
        self.houses.houses_of(cell)
    }

    fn peers_of(&self, cell: Cell) -> &[u16] {
        self.houses.peers_of(cell)
    }

    fn sees(&self, a: Cell, b: Cell) -> bool {
        self.houses.sees(a, b)
    }

    fn is_area(&self, unit: usize) -> bool {
        self.houses.is_area(unit)
    }

    fn killer(&self) -> Option<&Killer> {
        self.houses.killer()
    }

    fn peer_set(&self, cell: Cell) -> Option<&[u64]> {
        self.houses.peer_set(cell)
    }

    fn area_of(&self, cell: Cell) -> usize {
        self.houses.area_of(cell)
    }

    fn rules(&self) -> Option<&Variant> {
        self.houses.rules()
    }

    fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    fn candidates(&self, cell: Cell) -> u64 {
        self.candidates[cell]
    }

    fn places(&self, unit: usize, digit: u8) -> u64 {
        self.places[unit * self.shape.size() + usize::from(digit - 1)]
    }

    fn place(&mut self, cell: Cell, digit: u8) {
        for other in digits(self.candidates[cell]) {
            self.eliminate(cell, other);
        }
        self.values[cell] = digit;
        for k in 0..self.houses.peers_of(cell).len() {
            self.eliminate(usize::from(self.houses.peers_of(cell)[k]), digit);
        }
    }

    fn eliminate(&mut self, cell: Cell, digit: u8) {
        if self.candidates[cell] & bit(digit) != 0 {
            self.candidates[cell] &= !bit(digit);
            self.mark(cell, digit, false);
        }
    }

    fn is_solved(&self) -> bool {
        self.values.iter().all(|&value| value != 0)
    }

    fn values(&self) -> Vec<u8> {
        self.values.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::marks::members;

    /// The places of every digit in every house, counted from the candidates.
    fn recount(pencil: &WidePencil) -> Vec<u64> {
        let n = pencil.size();
        (0..pencil.house_count())
            .flat_map(|unit| (1..=n as u8).map(move |digit| (unit, digit)))
            .map(|(unit, digit)| {
                let cells = pencil.house(unit);
                (0..n)
                    .filter(|&at| pencil.candidates(usize::from(cells[at])) & bit(digit) != 0)
                    .fold(0, |places, at| places | 1 << at)
            })
            .collect()
    }

    #[test]
    fn places_follow_placements_and_eliminations_at_every_shape() {
        for (rows, cols) in [(2, 3), (3, 2), (2, 4), (4, 4), (8, 8)] {
            let shape = Shape::new(rows, cols).unwrap();
            let n = shape.size();
            let mut cells = vec![0; shape.cells()];
            cells[0] = 1;
            cells[n + 2] = 2;
            let mut pencil = WidePencil::new(&Grid::checked(shape, cells).unwrap());
            assert_eq!(pencil.places, recount(&pencil), "{shape}");
            assert_eq!(pencil.candidates(1) & bit(1), 0);
            assert_eq!(pencil.candidates(n - 1), shape.all_digits() & !bit(1));
            pencil.place(shape.cells() - 1, n as u8);
            pencil.eliminate(n * 3 + 1, 3);
            pencil.eliminate(n * 3 + 1, 3);
            assert_eq!(pencil.places, recount(&pencil), "{shape}");
            assert_eq!(pencil.value(shape.cells() - 1), n as u8);
            let last_box = 3 * n - 1;
            assert_eq!(pencil.places(last_box, n as u8), 0);
            assert!(pencil.holds(last_box, n as u8));
            assert_eq!(members(pencil.places(0, 3)).count(), n - 1);
        }
    }
}
