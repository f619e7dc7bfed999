//! The working grid of the any-size engines: cell values, each empty cell's
//! candidates as one `u64`, each house's placed digits, the trail of
//! placements, and the propagation they run at a node (naked and hidden
//! singles, and for the fast engine box-line reductions and Hall sets). Undo takes the trail
//! back; candidates come back from the snapshots the branching search keeps.

use super::hall::House;
use crate::board::{Geometry, Grid};
use crate::solver::{Interrupted, Reason, Recorder, Sink, Status};

/// One placement, kept so it can be undone.
#[derive(Clone, Copy)]
pub(in crate::solver) struct Placed {
    pub(in crate::solver) cell: u16,
    pub(in crate::solver) digit: u8,
    pub(in crate::solver) reason: Reason,
    pub(in crate::solver) depth: u32,
}

/// A grid of any shape under search.
#[derive(Clone)]
pub(in crate::solver) struct Work {
    pub(in crate::solver) geometry: &'static Geometry,
    /// N.
    pub(in crate::solver) size: usize,
    /// All N digits as bits.
    pub(in crate::solver) all: u64,
    pub(in crate::solver) cells: Vec<u8>,
    /// Candidates of each empty cell (0 for a filled one).
    pub(in crate::solver) candidates: Vec<u64>,
    /// Digits placed in each house.
    pub(in crate::solver) placed: Vec<u64>,
    pub(in crate::solver) trail: Vec<Placed>,
    /// Cells left with one candidate, to be placed.
    queue: Vec<u16>,
    /// Set when a placement or elimination left a cell or a house without a
    /// place for some digit.
    pub(in crate::solver) broken: bool,
    /// How often each cell took part in a dead end (its candidates ran out, or
    /// a house of it could not be filled), from 1: guesses go where the
    /// search keeps failing.
    pub(in crate::solver) weight: Vec<u32>,
    /// Houses whose candidates changed since their Hall sets were last taken
    /// out, one bit a house (at most 3 x 64 houses).
    pub(super) dirty: [u64; 3],
}

/// What propagation does besides singles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::solver) enum Strength {
    /// Naked and hidden singles only.
    Singles,
    /// Singles, and box-line reductions (pointing and claiming) when they stall.
    BoxLine,
    /// All that, and every house's Hall sets (naked and hidden subsets of any
    /// size) when box-line reductions stall too.
    Hall,
}

impl Work {
    pub(in crate::solver) fn new(grid: &Grid) -> Work {
        let shape = grid.shape();
        let geometry = shape.geometry();
        let size = shape.size();
        let all = shape.all_digits();
        let mut work = Work {
            geometry,
            size,
            all,
            cells: grid.cells().to_vec(),
            candidates: vec![0; shape.cells()],
            placed: vec![0; 3 * size],
            trail: Vec::with_capacity(shape.cells()),
            queue: Vec::new(),
            broken: false,
            weight: vec![1; shape.cells()],
            dirty: [u64::MAX; 3],
        };
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit != 0 {
                for &house in &geometry.houses[cell] {
                    work.placed[usize::from(house)] |= 1u64 << (digit - 1);
                }
            }
        }
        for cell in 0..shape.cells() {
            if work.cells[cell] == 0 {
                work.candidates[cell] = work.free(cell);
                work.broken |= work.candidates[cell] == 0;
            }
        }
        work
    }

    /// Digits none of the cell's houses holds yet.
    #[inline(always)]
    pub(in crate::solver) fn free(&self, cell: usize) -> u64 {
        let [row, col, boxed] = self.geometry.houses[cell];
        let used = self.placed[usize::from(row)]
            | self.placed[usize::from(col)]
            | self.placed[usize::from(boxed)];
        self.all & !used
    }

    /// Writes `digit` into `cell` and its houses (no candidates, no event).
    #[inline(always)]
    pub(in crate::solver) fn set(&mut self, cell: usize, digit: u8) {
        self.cells[cell] = digit;
        for &house in &self.geometry.houses[cell] {
            self.placed[usize::from(house)] |= 1u64 << (digit - 1);
        }
    }

    /// Takes `cell`'s digit out of it and its houses (no candidates, no event).
    #[inline(always)]
    pub(in crate::solver) fn clear(&mut self, cell: usize) {
        let bit = 1u64 << (self.cells[cell] - 1);
        self.cells[cell] = 0;
        for &house in &self.geometry.houses[cell] {
            self.placed[usize::from(house)] &= !bit;
        }
    }

    /// Places `digit` in `cell` with an event, on the trail, and takes it out of
    /// the peers' candidates (queueing the ones left with one).
    pub(in crate::solver) fn place<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        placed: Placed,
    ) -> Result<(), Interrupted> {
        let cell = usize::from(placed.cell);
        recorder.place(cell, placed.digit, placed.reason, placed.depth)?;
        self.set(cell, placed.digit);
        self.candidates[cell] = 0;
        self.touch(cell);
        self.trail.push(placed);
        let bit = 1u64 << (placed.digit - 1);
        for &peer in self.geometry.peers_of(cell) {
            let before = self.candidates[usize::from(peer)];
            if before & bit != 0 {
                let after = before ^ bit;
                self.candidates[usize::from(peer)] = after;
                self.touch(usize::from(peer));
                if after == 0 {
                    self.broken = true;
                    self.weight[usize::from(peer)] += 1;
                } else if after & (after - 1) == 0 {
                    self.queue.push(peer);
                }
            }
        }
        Ok(())
    }

    /// Takes back the placements beyond the trail's first `keep`, newest first,
    /// with events (candidates are the caller's to restore).
    pub(in crate::solver) fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        keep: usize,
    ) -> Result<(), Interrupted> {
        while self.trail.len() > keep {
            let Some(last) = self.trail.pop() else { break };
            let cell = usize::from(last.cell);
            recorder.backtrack(cell, last.digit, last.reason, last.depth)?;
            self.clear(cell);
        }
        self.queue.clear();
        self.broken = false;
        Ok(())
    }

    /// Singles (and box-line reductions at [`Strength::BoxLine`]) until nothing
    /// changes. `Done` with `broken` unset: consistent; with it set: no solution
    /// below this node.
    pub(in crate::solver) fn propagate<S: Sink>(
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
            if self.broken || self.hidden_singles(recorder, depth)? {
                continue;
            }
            if strength == Strength::Singles {
                break;
            }
            if !self.box_line() && (strength == Strength::BoxLine || !self.hall_sets()) {
                break;
            }
        }
        Ok(Status::Done)
    }

    /// Places every queued cell that still has exactly one candidate.
    fn naked_singles<S: Sink>(
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
            let digit = options.trailing_zeros() as u8 + 1;
            let placed = Placed {
                cell,
                digit,
                reason: Reason::NakedSingle,
                depth,
            };
            self.place(recorder, placed)?;
        }
        Ok(())
    }

    /// Places the digits with one place left in some house; true when it placed
    /// any (or found a house where a digit has no place, setting `broken`).
    fn hidden_singles<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        depth: u32,
    ) -> Result<bool, Interrupted> {
        let mut any = false;
        for house in 0..3 * self.size {
            let [once, twice, _] = self.tally(house);
            if (once | self.placed[house]) != self.all {
                self.fail_house(house);
                return Ok(true);
            }
            let mut hidden = once & !twice;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden ^= bit;
                let Some(cell) = self.place_of(house, bit) else {
                    // An earlier single of this house took the digit's last place.
                    self.fail_house(house);
                    return Ok(true);
                };
                let placed = Placed {
                    cell,
                    digit: bit.trailing_zeros() as u8 + 1,
                    reason: Reason::HiddenSingle,
                    depth,
                };
                self.place(recorder, placed)?;
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

    /// Box-line reductions: a digit confined to one line within a box leaves the
    /// rest of the line (pointing), and a digit confined to one box within a line
    /// leaves the rest of the box (claiming). True when it took any candidate out.
    fn box_line(&mut self) -> bool {
        let shape = self.geometry.shape;
        let (rows, cols) = (shape.box_rows(), shape.box_cols());
        let n = self.size;
        // Rows: a row crosses `rows` boxes (N / cols), each in a segment of `cols`
        // cells; a column crosses `cols` boxes, each in a segment of `rows` cells.
        self.reduce_lines(n, rows, cols, |line, segment, k| {
            line * n + segment * cols + k
        }) || self.reduce_lines(n, cols, rows, |line, segment, k| {
            (segment * rows + k) * n + line
        })
    }

    /// Box-line reductions along one direction of lines: `crossings` boxes per
    /// line, `length` cells of a line in each, `cell(line, segment, k)` the k-th
    /// cell of a line's segment. A box spans as many lines as a line crosses
    /// boxes, so lines `band * crossings ..` share their boxes. Stops at the first
    /// segment that took anything out, so every reduction reads fresh candidates.
    fn reduce_lines(
        &mut self,
        n: usize,
        crossings: usize,
        length: usize,
        cell: impl Fn(usize, usize, usize) -> usize,
    ) -> bool {
        let per_band = crossings;
        let segments: Vec<u64> = (0..n * crossings)
            .map(|index| {
                let (line, segment) = (index / crossings, index % crossings);
                (0..length).fold(0, |union, k| {
                    union | self.candidates[cell(line, segment, k)]
                })
            })
            .collect();
        let mut changed = false;
        for line in 0..n {
            let band = line / per_band;
            for segment in 0..crossings {
                let here = segments[line * crossings + segment];
                if here == 0 {
                    continue;
                }
                let mut rest_of_line = 0;
                for other in (0..crossings).filter(|&other| other != segment) {
                    rest_of_line |= segments[line * crossings + other];
                }
                let mut rest_of_box = 0;
                for other in (band * per_band..(band + 1) * per_band).filter(|&other| other != line)
                {
                    rest_of_box |= segments[other * crossings + segment];
                }
                // Pointing: in this box, only this line has these digits.
                let pointing = here & !rest_of_box & rest_of_line;
                if pointing != 0 {
                    for other in (0..crossings).filter(|&other| other != segment) {
                        for k in 0..length {
                            changed |= self.eliminate(cell(line, other, k), pointing);
                        }
                    }
                }
                // Claiming: in this line, only this box has these digits.
                let claiming = here & !rest_of_line & rest_of_box;
                if claiming != 0 {
                    for other in
                        (band * per_band..(band + 1) * per_band).filter(|&other| other != line)
                    {
                        for k in 0..length {
                            changed |= self.eliminate(cell(other, segment, k), claiming);
                        }
                    }
                }
                if changed {
                    return true;
                }
            }
        }
        false
    }

    /// Takes out of every house the candidates no assignment of its missing
    /// digits to its empty cells allows; true when it took any (or found a
    /// house that cannot be filled, setting `broken`).
    fn hall_sets(&mut self) -> bool {
        let geometry = self.geometry;
        let mut changed = false;
        let mut empty = Vec::with_capacity(self.size);
        let mut options = Vec::with_capacity(self.size);
        for house in 0..3 * self.size {
            let (word, bit) = (house / 64, 1u64 << (house % 64));
            if self.dirty[word] & bit == 0 {
                continue;
            }
            empty.clear();
            options.clear();
            for &cell in geometry.unit(house) {
                let here = self.candidates[usize::from(cell)];
                if here != 0 {
                    empty.push(usize::from(cell));
                    options.push(here);
                }
            }
            if !(House {
                candidates: &mut options,
            })
            .filter()
            {
                self.fail_house(house);
                return true;
            }
            for (&cell, &kept) in empty.iter().zip(&options) {
                changed |= self.eliminate(cell, self.candidates[cell] & !kept);
            }
            // The filter leaves nothing more for a second pass over this house.
            self.dirty[word] &= !bit;
            if self.broken {
                return true;
            }
        }
        changed
    }

    /// The digits with at least one, at least two and at least three places
    /// among `house`'s candidates.
    pub(super) fn tally(&self, house: usize) -> [u64; 3] {
        tally(self.geometry.unit(house), &self.candidates)
    }

    /// The first cell of `house` with `bit` among its candidates.
    pub(super) fn place_of(&self, house: usize, bit: u64) -> Option<u16> {
        place_of(self.geometry.unit(house), &self.candidates, bit)
    }

    /// Marks the search broken at `house`, which cannot be filled, and weighs
    /// its cells.
    fn fail_house(&mut self, house: usize) {
        self.broken = true;
        for &cell in self.geometry.unit(house) {
            self.weight[usize::from(cell)] += 1;
        }
    }

    /// Marks `cell`'s houses as changed.
    #[inline(always)]
    fn touch(&mut self, cell: usize) {
        for &house in &self.geometry.houses[cell] {
            self.dirty[usize::from(house) / 64] |= 1u64 << (house % 64);
        }
    }

    /// Takes `digits` out of `cell`'s candidates; true when it took any.
    pub(super) fn eliminate(&mut self, cell: usize, digits: u64) -> bool {
        let before = self.candidates[cell];
        if before & digits == 0 {
            return false;
        }
        let after = before & !digits;
        self.candidates[cell] = after;
        self.touch(cell);
        if after == 0 {
            self.broken = true;
        } else if after & (after - 1) == 0 {
            self.queue.push(cell as u16);
        }
        true
    }
}

/// The digits with at least one, at least two and at least three places
/// among the candidates of a house's `cells` (the any-size and the variant
/// grids both count this way).
pub(in crate::solver) fn tally(cells: &[u16], candidates: &[u64]) -> [u64; 3] {
    let (mut once, mut twice, mut more) = (0u64, 0u64, 0u64);
    for &cell in cells {
        let options = candidates[usize::from(cell)];
        more |= twice & options;
        twice |= once & options;
        once |= options;
    }
    [once, twice, more]
}

/// The first of a house's `cells` with `bit` among its candidates.
pub(in crate::solver) fn place_of(cells: &[u16], candidates: &[u64], bit: u64) -> Option<u16> {
    cells
        .iter()
        .copied()
        .find(|&cell| candidates[usize::from(cell)] & bit != 0)
}
