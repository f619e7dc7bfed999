//! `Algorithm::Propagation` at sizes other than 9x9 and `Algorithm::Wide` at
//! every size: propagation at every node (singles; for `Wide` box-line
//! reductions and Hall sets too), then a two-way guess: a digit in the cell with
//! the fewest candidates (or in a house's place when a digit has two places
//! there), and when that fails, the digit out of the cell. Resumable: the stack
//! of guesses is explicit, and each keeps a snapshot of the candidates to come
//! back to.

use super::work::{Placed, Strength, Work};
use crate::board::Grid;
use crate::solver::{Found, Interrupted, Reason, Recorder, Sink, Status};

/// What the branching search needs of a working grid: the any-size grid of
/// rows, columns and boxes ([`Work`]), or a variant's grid of any houses and
/// rules (`constrained::Node`).
pub(in crate::solver) trait Node: Clone {
    /// The houses still to be filtered for Hall sets, kept with each guess.
    type Dirty: Copy;
    /// Propagates until nothing changes (or the grid is broken).
    fn propagate<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        strength: Strength,
        depth: u32,
    ) -> Result<Status, Interrupted>;
    /// True when some cell or house can no longer be filled.
    fn broken(&self) -> bool;
    /// Each cell's candidates (0 for a filled cell).
    fn candidates(&self) -> &[u64];
    /// The same, to restore a snapshot.
    fn candidates_mut(&mut self) -> &mut [u64];
    /// The cells' values (0: empty).
    fn cells(&self) -> &[u8];
    /// Placements made so far.
    fn trail_len(&self) -> usize;
    /// The houses changed since their last filtering.
    fn dirty(&self) -> Self::Dirty;
    /// Sets them back to a snapshot.
    fn set_dirty(&mut self, dirty: Self::Dirty);
    /// Places a digit with an event, taking it out of the peers' candidates.
    fn place<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        placed: Placed,
    ) -> Result<(), Interrupted>;
    /// Takes back the placements beyond the first `keep`, with events.
    fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        keep: usize,
    ) -> Result<(), Interrupted>;
    /// Takes `digits` out of `cell`'s candidates; true when it took any.
    fn eliminate(&mut self, cell: usize, digits: u64) -> bool;
    /// How often `cell` took part in a dead end, from 1.
    fn weight(&self, cell: usize) -> u32;
    /// How many houses there are.
    fn house_count(&self) -> usize;
    /// Whether a digit's two places in a house are worth guessing between
    /// when no cell has two candidates (true by default).
    fn splits_houses(&self) -> bool {
        true
    }
    /// The digit of `options` (a cell's candidates, not empty) to guess in
    /// `cell` first, `counting` when the search goes on past its first
    /// solution: the lowest by default.
    fn first_digit(&self, _cell: usize, options: u64, _counting: bool) -> u8 {
        options.trailing_zeros() as u8 + 1
    }
    /// The digits with at least one, two and three places in `house`.
    fn tally(&self, house: usize) -> [u64; 3];
    /// The first cell of `house` with `bit` among its candidates.
    fn place_of(&self, house: usize, bit: u64) -> Option<u16>;
}

impl Node for Work {
    type Dirty = [u64; 3];

    fn propagate<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        strength: Strength,
        depth: u32,
    ) -> Result<Status, Interrupted> {
        Work::propagate(self, recorder, strength, depth)
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
    fn dirty(&self) -> [u64; 3] {
        self.dirty
    }
    fn set_dirty(&mut self, dirty: [u64; 3]) {
        self.dirty = dirty;
    }
    fn place<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        placed: Placed,
    ) -> Result<(), Interrupted> {
        Work::place(self, recorder, placed)
    }
    fn undo_to<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        keep: usize,
    ) -> Result<(), Interrupted> {
        Work::undo_to(self, recorder, keep)
    }
    fn eliminate(&mut self, cell: usize, digits: u64) -> bool {
        Work::eliminate(self, cell, digits)
    }
    fn weight(&self, cell: usize) -> u32 {
        self.weight[cell]
    }
    fn house_count(&self) -> usize {
        3 * self.size
    }
    fn tally(&self, house: usize) -> [u64; 3] {
        Work::tally(self, house)
    }
    fn place_of(&self, house: usize, bit: u64) -> Option<u16> {
        Work::place_of(self, house, bit)
    }
}

/// The search's state.
#[derive(Clone)]
pub(in crate::solver) struct Branching<W: Node = Work> {
    work: W,
    strength: Strength,
    frames: Vec<Frame<W::Dirty>>,
    /// The candidates as they were when each frame was opened, N x N a frame.
    saved: Vec<u64>,
    next: Next,
    /// Present while the search may still start over (the wide engine before
    /// its first solution).
    restarts: Option<Restarts>,
    /// Dead ends left before the search gives up (the wide engine hands a
    /// puzzle that takes more to its learning search).
    budget: u64,
    /// Set when the budget ran out: every placement is taken back.
    pub(super) gave_up: bool,
}

/// Starting over: after a run of dead ends (the Luby sequence times
/// [`Restarts::UNIT`]) the search goes back to the propagated givens and
/// guesses again, steered by the dead-end weights the runs so far left and,
/// among equally good guesses, by a pseudo-random draw. A search that went
/// wrong early stops paying for it. Once a solution is found the search runs
/// to its end without starting over, so counting stays complete.
#[derive(Clone)]
struct Restarts {
    /// Which run this is (0 for the first), the Luby sequence's index.
    run: u32,
    /// Dead ends left in this run.
    left: u64,
    /// The pseudo-random state (xorshift), fixed at the start so every search
    /// of a puzzle goes the same way.
    random: u64,
}

impl Restarts {
    /// Dead ends in the shortest run.
    const UNIT: u64 = 128;

    fn new() -> Restarts {
        Restarts {
            run: 0,
            left: Self::UNIT,
            random: 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Counts a dead end; true when the run is over (and sets up the next).
    fn dead_end(&mut self) -> bool {
        self.left = self.left.saturating_sub(1);
        if self.left > 0 {
            return false;
        }
        self.run += 1;
        self.left = Self::UNIT * luby(u64::from(self.run) + 1);
        true
    }

    /// The next pseudo-random number.
    fn draw(&mut self) -> u64 {
        let mut x = self.random;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.random = x;
        x
    }
}

/// The Luby sequence from 1: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...
pub(super) fn luby(index: u64) -> u64 {
    let mut i = index;
    loop {
        // The smallest k with i <= 2^k - 1.
        let k = u64::BITS - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// An open guess: the digit placed in the cell, the candidates before it and
/// the trail before it. When the placement fails, the other branch takes the
/// digit out of the cell instead.
#[derive(Clone, Copy)]
struct Frame<D> {
    cell: u16,
    digit: u8,
    trail_len: usize,
    /// The houses still to be filtered for Hall sets then.
    dirty: D,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Propagate,
    Backtrack,
}

impl Branching {
    pub(in crate::solver) fn new(grid: &Grid, strength: Strength) -> Branching {
        Branching::over(Work::new(grid), strength)
    }
}

impl<W: Node> Branching<W> {
    /// The search of a working grid.
    pub(in crate::solver) fn over(work: W, strength: Strength) -> Branching<W> {
        Branching {
            work,
            strength,
            frames: Vec::new(),
            saved: Vec::new(),
            next: Next::Propagate,
            restarts: (strength == Strength::Hall).then(Restarts::new),
            budget: u64::MAX,
            gave_up: false,
        }
    }

    /// The same search without restarts: it runs one tree to its end.
    pub(in crate::solver) fn without_restarts(mut self) -> Branching<W> {
        self.restarts = None;
        self
    }

    /// The same search, giving up after `dead_ends` dead ends.
    pub(super) fn with_budget(mut self, dead_ends: u64) -> Branching<W> {
        self.budget = dead_ends;
        self
    }

    pub(in crate::solver) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        loop {
            match self.next {
                Next::Propagate => {
                    let depth = self.frames.len() as u32;
                    self.work.propagate(recorder, self.strength, depth)?;
                    self.next = if self.work.broken() {
                        Next::Backtrack
                    } else if let Some((cell, digit)) = self.choose(found.wanted > 1) {
                        self.saved.extend_from_slice(self.work.candidates());
                        self.frames.push(Frame {
                            cell: cell as u16,
                            digit,
                            trail_len: self.work.trail_len(),
                            dirty: self.work.dirty(),
                        });
                        let guess = Placed {
                            cell: cell as u16,
                            digit,
                            reason: Reason::Guess,
                            depth: depth + 1,
                        };
                        self.work.place(recorder, guess)?;
                        Next::Propagate
                    } else if found.record_sized(self.work.cells()) {
                        return Ok(Status::Done);
                    } else {
                        // Counting on: the rest of this run's tree holds the
                        // other solutions, if any.
                        self.restarts = None;
                        Next::Backtrack
                    };
                }
                Next::Backtrack => {
                    self.budget = self.budget.saturating_sub(1);
                    if self.budget == 0 {
                        self.gave_up = true;
                        self.work.undo_to(recorder, 0)?;
                        return Ok(Status::Done);
                    }
                    if self.frames.len() > 1
                        && self.restarts.as_mut().is_some_and(Restarts::dead_end)
                    {
                        self.restart(recorder)?;
                        continue;
                    }
                    let Some(frame) = self.frames.pop() else {
                        // Exhausted: take everything back, so a replay ends at the givens.
                        self.work.undo_to(recorder, 0)?;
                        return Ok(Status::Done);
                    };
                    self.work.undo_to(recorder, frame.trail_len)?;
                    let cells = self.work.candidates().len();
                    let start = self.saved.len() - cells;
                    self.work
                        .candidates_mut()
                        .copy_from_slice(&self.saved[start..]);
                    self.work.set_dirty(frame.dirty);
                    self.saved.truncate(start);
                    // The other branch: the digit is not in the cell.
                    self.work
                        .eliminate(usize::from(frame.cell), 1u64 << (frame.digit - 1));
                    self.next = if self.work.broken() {
                        Next::Backtrack
                    } else {
                        Next::Propagate
                    };
                }
            }
            if recorder.pausing() {
                return Ok(Status::Paused);
            }
        }
    }

    /// Goes back to the propagated givens (the first frame's state), with
    /// events, to guess again.
    fn restart<S: Sink>(&mut self, recorder: &mut Recorder<'_, '_, S>) -> Result<(), Interrupted> {
        let Some(root) = self.frames.first().copied() else {
            return Ok(());
        };
        self.work.undo_to(recorder, root.trail_len)?;
        let cells = self.work.candidates().len();
        self.work
            .candidates_mut()
            .copy_from_slice(&self.saved[..cells]);
        self.work.set_dirty(root.dirty);
        self.saved.clear();
        self.frames.clear();
        self.next = Next::Propagate;
        Ok(())
    }

    /// The guess to make: the empty cell with the fewest candidates per
    /// dead-end weight and its lowest digit, or, when that cell has more than
    /// two candidates and some house has a digit with two places, the digit in
    /// its first place. After a restart, ties between cells, the digit and the
    /// house to start looking from are drawn instead of taken first. `None`
    /// when the grid is full. `counting` when the search goes on past its
    /// first solution.
    fn choose(&mut self, counting: bool) -> Option<(usize, u8)> {
        let work = &self.work;
        let mut random = self.restarts.as_mut().filter(|restarts| restarts.run > 0);
        // Fewest candidates per weight (count / weight, compared crosswise).
        let mut best = None;
        let (mut fewest, mut heaviest, mut ties) = (u64::from(u64::BITS) + 1, 1u64, 0u64);
        for (cell, &options) in work.candidates().iter().enumerate() {
            if options == 0 {
                continue;
            }
            let count = u64::from(options.count_ones());
            let weight = u64::from(work.weight(cell));
            let (this, that) = (count * heaviest, fewest * weight);
            if this < that {
                (best, fewest, heaviest, ties) = (Some(cell), count, weight, 1);
                if count == 1 {
                    break;
                }
            } else if this == that {
                ties += 1;
                if random
                    .as_deref_mut()
                    .is_some_and(|restarts| restarts.draw() % ties == 0)
                {
                    best = Some(cell);
                }
            }
        }
        let cell = best?;
        let options = work.candidates()[cell];
        let digit = match random.as_deref_mut() {
            Some(restarts) => nth_digit(options, restarts.draw()),
            None => work.first_digit(cell, options, counting),
        };
        if fewest <= 2 || !work.splits_houses() {
            return Some((cell, digit));
        }
        // A digit with two places in some house splits the search as well as a
        // cell with two candidates does.
        let houses = work.house_count();
        let start = random.map_or(0, |restarts| restarts.draw() as usize % houses);
        for house in (start..houses).chain(0..start) {
            let [_, twice, more] = work.tally(house);
            let pairs = twice & !more;
            if pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                let place = work.place_of(house, bit)?;
                return Some((usize::from(place), bit.trailing_zeros() as u8 + 1));
            }
        }
        Some((cell, digit))
    }
}

/// One of the digits in `options` (not empty), picked by `draw`.
fn nth_digit(options: u64, draw: u64) -> u8 {
    let mut rest = options;
    for _ in 0..draw % u64::from(options.count_ones()) {
        rest &= rest - 1;
    }
    rest.trailing_zeros() as u8 + 1
}

#[cfg(test)]
mod tests {
    use super::{luby, nth_digit};

    #[test]
    fn luby_runs_double_after_each_repeat() {
        let runs: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(runs, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn nth_digit_picks_only_offered_digits_and_each_of_them() {
        let options = 0b1010_0110u64;
        let picked: Vec<u8> = (0..8).map(|draw| nth_digit(options, draw)).collect();
        assert_eq!(picked, [2, 3, 6, 8, 2, 3, 6, 8]);
    }
}
