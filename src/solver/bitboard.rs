//! `Algorithm::Bitboard`, the default engine: per-digit candidate boards of 81 bits,
//! split into three bands of 27 bits (three rows), updated with bit operations.
//!
//! For each digit and band the engine reduces the candidates to "triads" (the three
//! cells a row shares with a box) and keeps only triads that fit a one-to-one
//! matching of the band's rows to its boxes: that is the locked-candidates rule
//! (pointing and claiming) inside the band, and it exposes hidden singles in rows and
//! boxes. A box whose candidates sit in one column clears that column from the
//! digit's other bands (pointing); a column whose candidates sit in one band clears
//! the digit from the rest of that band's box (claiming), which also exposes hidden
//! singles in columns. Placements are lazy, as in JCZSolve: placing a digit clears
//! its own board's peers in the band; the board's update then solves the cell,
//! clears it from the other digits and its column from the other bands. Naked
//! singles are found for all cells of a band at once by counting candidates across
//! the nine digit boards with bit operations. When nothing more follows, the engine
//! guesses on the two-candidate cell with the most unsolved peers (the guess that
//! settles the most), and copies its small state per guess instead of undoing. The
//! ideas are the ones tdoku's write-up and JCZSolve describe; this code is our own.
//!
//! A solved cell keeps its bit on its digit's board, so every row of a band holds
//! exactly one bit per digit once solved.

use super::{Found, Interrupted, Reason, Recorder, Sink, Status};
use crate::board::{BAND, Board, CELLS};

/// The search's state, all of it between two runs: a stack of levels (the state of
/// each open guess's node, copied on guess instead of undone), how deep it stands,
/// and (when the sink wants events) the trail of placements to report as backtracks.
#[derive(Clone)]
pub(super) struct Bitboard {
    /// `levels[d]`: the node at depth `d` (guesses open); the one at `depth` is the
    /// node to visit next, the ones below it are open guesses.
    levels: Vec<Level>,
    depth: u32,
    trail: Vec<(u8, u8, Reason, u32)>,
    /// The two-candidate cells the last naked-singles pass saw (see `Run::pairs`).
    pairs: [u32; 3],
    isa: Isa,
}

/// One node of the search: its candidate state and, once it has guessed, the cell
/// guessed on, the digits not yet tried there, and where the search stood before.
#[derive(Clone, Copy)]
struct Level {
    state: State,
    band: u8,
    bit: u32,
    untried: u16,
    mark: Mark,
}

impl Level {
    const EMPTY: Level = Level {
        state: State::EMPTY,
        band: 0,
        bit: 0,
        untried: 0,
        mark: Mark { trail: 0, live: 0 },
    };
}

impl Bitboard {
    pub(super) fn new(board: &Board) -> Bitboard {
        Bitboard::with_isa(board, Isa::detect())
    }

    fn with_isa(board: &Board, isa: Isa) -> Bitboard {
        let mut bitboard = Bitboard {
            levels: Vec::with_capacity(16),
            depth: 0,
            trail: Vec::new(),
            pairs: [0; 3],
            isa,
        };
        bitboard.restart(board);
        bitboard
    }

    /// Starts over on `board`, keeping the memory of the levels and the trail.
    pub(super) fn restart(&mut self, board: &Board) {
        let state = match self.isa {
            Isa::Portable => State::from_givens(board),
            // SAFETY: as for `search_v3` below.
            #[cfg(target_arch = "x86_64")]
            Isa::V3 => unsafe { State::from_givens_v3(board) },
        };
        self.levels.clear();
        self.levels.push(Level {
            state,
            ..Level::EMPTY
        });
        self.depth = 0;
        self.trail.clear();
        self.pairs = [0; 3];
    }

    pub(super) fn run<S: Sink>(
        &mut self,
        recorder: &mut Recorder<'_, '_, S>,
        found: &mut Found,
    ) -> Result<Status, Interrupted> {
        let mut run = Run {
            recorder,
            found,
            trail: &mut self.trail,
            depth: self.depth,
            interrupted: None,
            pairs: self.pairs,
        };
        let status = match self.isa {
            Isa::Portable => run.search(&mut self.levels),
            // SAFETY: `Isa::V3` comes from `Isa::detect` (or a test on a CPU that
            // passed it): the CPU has every feature `search_v3` is compiled with.
            #[cfg(target_arch = "x86_64")]
            Isa::V3 => unsafe { run.search_v3(&mut self.levels) },
        };
        self.depth = run.depth;
        self.pairs = run.pairs;
        status
    }
}

/// The instruction sets a search can run with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    /// What every CPU of the target has.
    Portable,
    /// x86-64 with AVX2, BMI1, BMI2, LZCNT and POPCNT (x86-64-v3: Haswell, Zen and
    /// later), about 3-9% faster (`sudokud bench`).
    #[cfg(target_arch = "x86_64")]
    V3,
}

impl Isa {
    /// The best this CPU runs (std caches the CPUID answers).
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Isa::V3;
        }
        Isa::Portable
    }
}

/// The candidate boards: `candidates[at(digit, band)]` has a bit for each cell of
/// the band where the digit may stand (solved cells included).
///
/// Updates are lazy, as in JCZSolve: placing a digit clears only its own board's
/// peers in the band and marks the board dirty; the board's update finds the
/// solved cell, clears it from the other digits and locks its column in the other
/// bands. So a placement costs one AND, and an update is straight-line code.
#[derive(Clone, Copy)]
struct State {
    /// Sized 32 (the last five unused) so that masked indexes need no bounds check.
    candidates: [u32; 32],
    /// Boards (bit `at(digit, band)`) changed since their last update.
    dirty: u32,
    /// Cells placed (naked singles, guesses) but not yet cleared from the other
    /// digits, per band: their digit's update does it.
    pending: [u32; 3],
    /// Cells not yet solved, per band.
    unsolved: [u32; 3],
    /// Some board was updated since column claiming last ran.
    stale: bool,
}

/// Propagation stopped short: the grid cannot be completed, or the search was
/// interrupted (then `Run::interrupted` says why). Zero-sized, so the hot
/// paths return a single flag.
struct Fail;

impl State {
    const EMPTY: State = State {
        candidates: [BAND; 32],
        unsolved: [BAND; 3],
        dirty: BAND,
        pending: [0; 3],
        stale: false,
    };

    /// The state of a puzzle's givens, built in bulk: every given clears its cell
    /// from the other digits and its digit from its peers (the board has no
    /// conflict, so a digit's givens are no peers).
    #[inline(always)]
    fn from_givens(board: &Board) -> State {
        let placed = crate::board::band_masks(board.cells());
        // Loops over the nine digits inside, the same operations on each: they
        // vectorize.
        let mut reach = [[0u32; 9]; 3];
        let mut columns = [0u32; 9];
        for (band, digits) in placed.iter().enumerate() {
            for digit in 0..9 {
                let (cells, digit_columns) = reach_of(digits[digit]);
                reach[band][digit] = cells;
                columns[digit] |= digit_columns;
            }
        }
        let mut state = State::EMPTY;
        for (band, digits) in placed.iter().enumerate() {
            let filled = digits.iter().fold(0, |all, &cells| all | cells);
            for digit in 0..9 {
                state.candidates[at(digit, band)] =
                    (BAND & !filled & !(reach[band][digit] | columns[digit])) | digits[digit];
            }
            state.unsolved[band] = BAND & !filled;
        }
        state
    }

    /// `from_givens` compiled for x86-64-v3 (see `Isa::V3`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn from_givens_v3(board: &Board) -> State {
        State::from_givens(board)
    }

    /// The cells of `band` with at least one, two, ... `N` candidates (index
    /// `k` for at least `k + 1`), counted bit-sliced across the nine digit boards.
    #[inline(always)]
    fn counts<const N: usize>(&self, band: usize) -> [u32; N] {
        let mut at_least = [0; N];
        for digit in 0..9 {
            let x = self.candidates[at(digit, band)];
            for level in (1..N).rev() {
                at_least[level] |= at_least[level - 1] & x;
            }
            at_least[0] |= x;
        }
        at_least
    }

    fn solution(&self) -> [u8; CELLS] {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut bits = self.candidates[at(digit, band)];
                while bits != 0 {
                    cells[band * 27 + bits.trailing_zeros() as usize] = digit as u8 + 1;
                    bits &= bits - 1;
                }
            }
        }
        cells
    }
}

const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// What a digit placed on the cells `bits` of a band (no two of them peers) rules
/// out: their rows, boxes and columns in the band (the cells themselves included),
/// and their columns as a column mask for any band. With no two cells in one row,
/// box or column, whole units are the reach, found without a loop over the cells.
#[inline(always)]
fn reach_of(bits: u32) -> (u32, u32) {
    let rows = [0, 9, 18].into_iter().fold(0, |rows, shift| {
        rows | (u32::from(bits & (0x1FF << shift) != 0) * (0x1FF << shift))
    });
    let columns = columns_of(bits);
    let spread = spread_columns(columns);
    (rows | spread_columns(boxes_of(columns)) | spread, spread)
}

/// The columns (9 bits) that hold any of a band's `cells`.
#[inline(always)]
const fn columns_of(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1FF
}

/// All columns of the boxes that hold any of the `columns` given (9 bits).
#[inline(always)]
const fn boxes_of(columns: u32) -> u32 {
    ((columns | columns >> 1 | columns >> 2) & 0b001_001_001) * 7
}

/// The cells of a band in the `columns` given (9 bits): the row repeated thrice.
#[inline(always)]
const fn spread_columns(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

/// Where a digit's board for a band sits in `State::candidates`: band-major, so the
/// nine boards of a band are contiguous.
#[inline(always)]
const fn at(digit: usize, band: usize) -> usize {
    (band * 9 + digit) & 31
}

/// Where the search stood before a guess, to take back what followed it.
#[derive(Default, Clone, Copy)]
struct Mark {
    trail: usize,
    live: u64,
}

/// One run of a search: the recorder, the solutions found, and (when the sink wants
/// events) the trail of placements to report as backtracks.
struct Run<'r, 's, 'c, S> {
    recorder: &'r mut Recorder<'s, 'c, S>,
    found: &'r mut Found,
    trail: &'r mut Vec<(u8, u8, Reason, u32)>,
    depth: u32,
    /// Set when a limit, the stop signal or the sink ended the search.
    interrupted: Option<Interrupted>,
    /// The unsolved two-candidate cells per band, as the last naked-singles pass
    /// saw them: at the end of propagation, the guess candidates.
    pairs: [u32; 3],
}

/// What visiting a node led to.
enum Visit {
    /// It guessed: its level holds the guess.
    Guessed,
    /// It cannot be completed, or it was a solution and more are wanted.
    DeadEnd,
    /// The search has found all it wants.
    Found,
}

/// Defines the search loop `$name` (with the attributes given): visits the node at
/// `depth` (propagates, then guesses), descends into the first untried digit of
/// the newest open guess, and backs up when a node leads nowhere; pauses before a
/// visit when the recorder asks. A macro so that the same body compiles twice, once
/// for any CPU and once with `target_feature` for CPUs that have AVX2, BMI and
/// POPCNT (what the loop inlines, the band rule, elimination and the guess choice,
/// is compiled with the features too).
macro_rules! search_fn {
    ($name:ident $(, #[$attr:meta])*) => {
        $(#[$attr])*
        fn $name(&mut self, levels: &mut Vec<Level>) -> Result<Status, Interrupted> {
            loop {
                match self.visit(levels)? {
                    Visit::Found => return Ok(Status::Done),
                    Visit::Guessed => {}
                    Visit::DeadEnd => {
                        if !self.back_up(levels)? {
                            return Ok(Status::Done);
                        }
                    }
                }
                while self.descend(levels).is_err() {
                    if let Some(why) = self.interrupted {
                        return Err(why);
                    }
                    if !self.back_up(levels)? {
                        return Ok(Status::Done);
                    }
                }
                if self.recorder.pausing() {
                    return Ok(Status::Paused);
                }
            }
        }
    };
}

impl<S: Sink> Run<'_, '_, '_, S> {
    search_fn!(search);
    #[cfg(target_arch = "x86_64")]
    search_fn!(search_v3, #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]);

    /// Propagates the node at `depth`; records a solution, or chooses the cell to
    /// guess on.
    #[inline(always)]
    fn visit(&mut self, levels: &mut [Level]) -> Result<Visit, Interrupted> {
        let level = &mut levels[self.depth as usize];
        let state = &mut level.state;
        if self.propagate(state).is_err() {
            return match self.interrupted {
                Some(why) => Err(why),
                None => Ok(Visit::DeadEnd),
            };
        }
        if state.unsolved == [0; 3] {
            return Ok(if self.found.record_with(|| state.solution()) {
                Visit::Found
            } else {
                Visit::DeadEnd
            });
        }
        let (band, bit, untried) = choose(state, self.pairs);
        level.band = band as u8;
        level.bit = bit;
        level.untried = untried;
        level.mark = self.mark();
        Ok(Visit::Guessed)
    }

    /// Places the next untried digit of the guess at `depth` on a copy of its
    /// node, as the node one deeper.
    #[inline(always)]
    fn descend(&mut self, levels: &mut Vec<Level>) -> Result<(), Fail> {
        let depth = self.depth as usize;
        if levels.len() == depth + 1 {
            levels.push(Level::EMPTY);
        }
        let [parent, child] = levels
            .get_disjoint_mut([depth, depth + 1])
            .map_err(|_| Fail)?;
        let digit = parent.untried.trailing_zeros() as usize;
        parent.untried &= parent.untried - 1;
        child.state = parent.state;
        self.depth += 1;
        let (band, bit) = (usize::from(parent.band), parent.bit);
        self.assign(&mut child.state, digit, band, bit, Reason::Guess)
    }

    /// Leaves the node at `depth`, which led nowhere: takes back what followed the
    /// guess that made it, and backs up further past guesses with no digit left.
    /// False when the root was left: the search is exhausted (and every placement
    /// has been taken back).
    #[inline(always)]
    fn back_up(&mut self, levels: &[Level]) -> Result<bool, Interrupted> {
        loop {
            if self.depth == 0 {
                self.undo_to(Mark::default())?;
                return Ok(false);
            }
            self.depth -= 1;
            let parent = &levels[self.depth as usize];
            self.undo_to(parent.mark)?;
            if parent.untried != 0 {
                return Ok(true);
            }
        }
    }

    /// Updates every board that changed until none does, then places naked singles
    /// and runs column claiming, until nothing more follows.
    #[inline(always)]
    fn propagate(&mut self, state: &mut State) -> Result<(), Fail> {
        loop {
            // The dirty boards in a register: updates return the boards they
            // dirty.
            let mut dirty = state.dirty;
            state.dirty = 0;
            while dirty != 0 {
                // The boards dirty now, in a batch: the next board to update is
                // known without waiting for this update's outcome (which boards
                // it dirties), so the CPU overlaps consecutive updates. Boards
                // dirtied meanwhile wait for the next batch (or, still ahead in
                // this one, are updated once).
                let mut batch = dirty;
                while batch != 0 {
                    let board = batch.trailing_zeros() as usize;
                    batch &= batch - 1;
                    dirty &= !(1 << board);
                    dirty |= self.update(state, board)?;
                }
            }
            if self.naked_singles(state)? {
                continue;
            }
            if !state.stale {
                return Ok(());
            }
            column_claiming(state)?;
            if state.dirty == 0 {
                return Ok(());
            }
        }
    }

    /// The band rule on one board: keeps the digit's triads that fit a
    /// row-to-box matching; the columns the digit keeps in one box only are
    /// cleared from its other bands (pointing); the rows left with one cell are
    /// solved, and cells newly solved (or placed since the last update) are
    /// cleared from the other digits. The boards it changed (other than this one).
    #[inline(always)]
    fn update(&mut self, state: &mut State, board: usize) -> Result<u32, Fail> {
        let mut dirty = 0;
        let band = usize::from(board >= 9) + usize::from(board >= 18);
        let first = band * 9;
        let before = state.candidates[board & 31];
        let after = before & TABLES.kept_cells[triads_of(before)];
        if after == 0 {
            // No triads fit a matching.
            return Err(Fail);
        }
        let locked = TABLES.lone_columns[columns_of(after) as usize];
        // The digit's boards in the two other bands, 18 and 9 boards on (wrapping).
        let wrap = |at: usize| if at >= 27 { at - 27 } else { at } & 31;
        let (one, two) = (wrap(board + 18), wrap(board + 9));
        let (in_one, in_two) = (
            state.candidates[one] & locked,
            state.candidates[two] & locked,
        );
        if in_one | in_two != 0 {
            state.candidates[one] &= !locked;
            state.candidates[two] &= !locked;
            dirty |= u32::from(in_one != 0) << one | u32::from(in_two != 0) << two;
        }
        let solved = row_singles(after);
        let new = solved & state.unsolved[band];
        let clear = new | (solved & state.pending[band]);
        if clear != 0 {
            if new != 0 {
                if S::WANTS_EVENTS {
                    self.record_found(state, board - first, band, before, new)?;
                } else {
                    self.record_unreported(new)?;
                }
                state.unsolved[band] &= !new;
            }
            state.pending[band] &= !clear;
            let changed = holding(&state.candidates, first, clear);
            for other in &mut state.candidates[first.min(18)..first.min(18) + 9] {
                *other &= !clear;
            }
            dirty |= (changed << first) & !(1 << board);
        }
        state.candidates[board & 31] = after;
        state.stale = true;
        Ok(dirty)
    }

    /// Records the cells `new` of `band` that an update found for `digit` (its
    /// board was `before`), with their reasons: a hidden single when the digit had
    /// that one open cell left in the row, box or column, else locked candidates
    /// (the band's matching, pointing or column claiming narrowed it down).
    #[cold]
    fn record_found(
        &mut self,
        state: &State,
        digit: usize,
        band: usize,
        before: u32,
        new: u32,
    ) -> Result<(), Fail> {
        let open = before & state.unsolved[band];
        let mut rest = new;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let row = 0x1FF << (9 * (bit.trailing_zeros() / 9));
            let column = spread_columns(columns_of(bit));
            let box_cells = spread_columns(boxes_of(columns_of(bit)));
            let column_elsewhere = OTHER_BANDS[band].iter().fold(0, |cells, &other| {
                cells | (state.candidates[at(digit, other)] & state.unsolved[other] & column)
            });
            let hidden = open & row == bit
                || open & box_cells == bit
                || (open & column == bit && column_elsewhere == 0);
            let reason = if hidden {
                Reason::HiddenSingle
            } else {
                Reason::LockedCandidates
            };
            self.record(digit, band, bit, reason)?;
        }
        Ok(())
    }

    /// Solves every unsolved cell with one candidate; fails on a cell with none.
    /// True when it solved any.
    #[inline(always)]
    fn naked_singles(&mut self, state: &mut State) -> Result<bool, Fail> {
        let mut progress = false;
        for band in 0..3 {
            let unsolved = state.unsolved[band];
            if unsolved == 0 {
                self.pairs[band] = 0;
                continue;
            }
            let [one, two, three] = state.counts(band);
            self.pairs[band] = unsolved & two & !three;
            if unsolved & !one != 0 {
                return Err(Fail);
            }
            let mut singles = unsolved & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                // The cell's one digit, without a branch per board.
                let mut digits = 0u32;
                for digit in 0..9 {
                    digits |= u32::from(state.candidates[at(digit, band)] & bit != 0) << digit;
                }
                if digits == 0 {
                    // A single placed just before took its one digit (a peer).
                    return Err(Fail);
                }
                let digit = digits.trailing_zeros() as usize;
                self.assign(state, digit, band, bit, Reason::NakedSingle)?;
                progress = true;
            }
        }
        Ok(progress)
    }

    /// Places `digit` on `bit` of `band`, recording the step.
    #[inline(always)]
    fn assign(
        &mut self,
        state: &mut State,
        digit: usize,
        band: usize,
        bit: u32,
        reason: Reason,
    ) -> Result<(), Fail> {
        if state.candidates[at(digit, band)] & bit == 0 {
            return Err(Fail);
        }
        self.record(digit, band, bit, reason)?;
        // Lazy: the board's update does the rest (see `State`).
        state.candidates[at(digit, band)] &= !TABLES.peers[bit.trailing_zeros() as usize & 31];
        state.dirty |= 1 << at(digit, band);
        state.unsolved[band] &= !bit;
        state.pending[band] |= bit;
        Ok(())
    }

    /// Records the placement of `digit` on `bit` of `band` (the state is the
    /// caller's to update).
    #[inline(always)]
    fn record(&mut self, digit: usize, band: usize, bit: u32, reason: Reason) -> Result<(), Fail> {
        let cell = band * 27 + bit.trailing_zeros() as usize;
        if let Err(why) = self
            .recorder
            .place(cell, digit as u8 + 1, reason, self.depth)
        {
            self.interrupted = Some(why);
            return Err(Fail);
        }
        if S::WANTS_EVENTS {
            self.trail
                .push((cell as u8, digit as u8 + 1, reason, self.depth));
        }
        Ok(())
    }

    /// Counts the placements on `cells` (none of them a guess) when the sink wants
    /// no events: one step each, in one go.
    #[inline(always)]
    fn record_unreported(&mut self, cells: u32) -> Result<(), Fail> {
        let count = u64::from(cells.count_ones());
        self.recorder.placements_unreported(count).map_err(|why| {
            self.interrupted = Some(why);
            Fail
        })
    }

    #[inline(always)]
    fn mark(&self) -> Mark {
        let stats = &self.recorder.stats;
        Mark {
            trail: self.trail.len(),
            live: stats.placements - stats.backtracks,
        }
    }

    /// Takes back every placement made since `mark`, newest first.
    #[inline(always)]
    fn undo_to(&mut self, mark: Mark) -> Result<(), Interrupted> {
        if S::WANTS_EVENTS {
            while self.trail.len() > mark.trail {
                let Some((cell, digit, reason, depth)) = self.trail.pop() else {
                    break;
                };
                self.recorder
                    .backtrack(usize::from(cell), digit, reason, depth)?;
            }
            Ok(())
        } else {
            let stats = &self.recorder.stats;
            let live = stats.placements - stats.backtracks;
            self.recorder.backtracks_unreported(live - mark.live)
        }
    }
}

/// Column claiming, for all digits at once: a column whose candidates for a digit
/// lie in one band only holds the digit in that band's box, so the box's other
/// columns lose the digit. Fails when a column has no place left for a digit.
/// Digits 1-8 go in eight lanes (one AVX2 vector), digit 9 in one.
#[inline(always)]
// Index loops: they pair the eight-lane and the one-lane halves, and compile to
// fewer instructions than the iterator forms tried (cachegrind).
#[allow(clippy::needless_range_loop)]
fn column_claiming(state: &mut State) -> Result<(), Fail> {
    state.stale = false;
    let mut eight = [[0u32; 8]; 3];
    for (band, lanes) in eight.iter_mut().enumerate() {
        for (digit, lane) in lanes.iter_mut().enumerate() {
            *lane = columns_of(state.candidates[at(digit, band)]);
        }
    }
    let ninth = [0, 1, 2].map(|band| [columns_of(state.candidates[at(8, band)])]);
    let (gone_eight, missing_eight) = claimed(&eight);
    let (gone_ninth, missing_ninth) = claimed(&ninth);
    if missing_eight | missing_ninth != 0 {
        return Err(Fail);
    }
    let mut any_gone = 0;
    for band in 0..3 {
        for lane in 0..8 {
            any_gone |= gone_eight[band][lane];
        }
        any_gone |= gone_ninth[band][0];
    }
    if any_gone == 0 {
        return Ok(());
    }
    for band in 0..3 {
        for digit in 0..9 {
            let columns = if digit < 8 {
                gone_eight[band][digit]
            } else {
                gone_ninth[band][0]
            };
            if columns != 0 {
                let board = at(digit, band);
                state.candidates[board] &= !spread_columns(columns);
                state.dirty |= 1 << board;
            }
        }
    }
    Ok(())
}

/// Column claiming on lanes of digits: from each digit's columns per band, the
/// columns each band loses (the other columns of a box holding the only place of
/// a column), and the columns with no place left in any band (any lane).
#[inline(always)]
fn claimed<const N: usize>(columns: &[[u32; N]; 3]) -> ([[u32; N]; 3], u32) {
    let mut gone = [[0u32; N]; 3];
    let mut missing = 0;
    for lane in 0..N {
        let [top, middle, bottom] = [columns[0][lane], columns[1][lane], columns[2][lane]];
        missing |= !(top | middle | bottom) & 0x1FF;
        let only = [
            top & !(middle | bottom),
            middle & !(top | bottom),
            bottom & !(top | middle),
        ];
        for band in 0..3 {
            gone[band][lane] = boxes_of(only[band]) & !only[band] & columns[band][lane];
        }
    }
    (gone, missing)
}

/// The cell to guess on (a band and its bit) and its candidate digits: among the
/// cells with the fewest candidates (two, else three, else any), the one with the
/// most unsolved peers. `pairs` are the two-candidate cells (the naked-singles
/// pass found them); only without any are the others counted.
#[inline(always)]
fn choose(state: &State, pairs: [u32; 3]) -> (usize, u32, u16) {
    let mut best = 0;
    for (band, &cells) in pairs.iter().enumerate() {
        best = best.max(busiest_cell(state, band, cells));
    }
    if best == 0 {
        // Per band: the unsolved cells with exactly three candidates, else all
        // of them. Plain loops: iterator adapters would be functions of their
        // own, compiled without `node_v3`'s features.
        let mut classes = [[0u32; 2]; 3];
        for (band, per_class) in classes.iter_mut().enumerate() {
            let unsolved = state.unsolved[band];
            let [_, _, three, four] = state.counts(band);
            *per_class = [unsolved & three & !four, unsolved];
        }
        for class in 0..2 {
            for (band, per_class) in classes.iter().enumerate() {
                best = best.max(busiest_cell(state, band, per_class[class]));
            }
            if best != 0 {
                break;
            }
        }
    }
    let cell = 255 - (best & 0xFF) as usize;
    let (band, bit) = (cell / 27, 1 << (cell % 27));
    (band, bit, digits_of(state, band, bit))
}

/// Among `cells` of `band`, the one with the most unsolved peers (the guess that
/// tells the most), the first such in row-major order, as a key to compare
/// without a branch: the count above, `255 - cell` (the grid's index) below; 0
/// when `cells` is empty.
#[inline(always)]
fn busiest_cell(state: &State, band: usize, cells: u32) -> u32 {
    let mut best = 0;
    let mut rest = cells;
    while rest != 0 {
        let index = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let column = TABLES.column[index & 31];
        let [first, second] = OTHER_BANDS[band];
        // One population count: the band's peers in the low 32 bits, the column's
        // cells in the other bands above them (the second band's shifted by one, so
        // the two never meet).
        let elsewhere = (state.unsolved[first] & column) | (state.unsolved[second] & column) << 1;
        let peers = u64::from(state.unsolved[band] & TABLES.peers[index & 31]);
        let score = (peers | u64::from(elsewhere) << 32).count_ones();
        best = best.max(score << 8 | (255 - (band * 27 + index)) as u32);
    }
    best
}

/// Which of the nine boards from `first` (a band's) hold any of `cells` (bit `i`
/// for board `first + i`).
/// On x86-64 the first eight compare at once and one move-mask gathers them
/// (the compiler's own vector form reduced with a chain of shuffles, on the
/// update's critical path).
#[inline(always)]
fn holding(candidates: &[u32; 32], first: usize, cells: u32) -> u32 {
    let board = |index: usize| candidates[(first + index) & 31];
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_set_epi32,
            _mm_set1_epi32, _mm_setzero_si128,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline: every x86_64 CPU has it.
        unsafe {
            let lanes = |at: usize| {
                let word = |i: usize| board(at + i) as i32;
                _mm_set_epi32(word(3), word(2), word(1), word(0))
            };
            let wanted = _mm_set1_epi32(cells as i32);
            let empty = |at: usize| {
                let hit = _mm_and_si128(lanes(at), wanted);
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(hit, _mm_setzero_si128()))) as u32
            };
            let ninth = u32::from(board(8) & cells != 0);
            (!(empty(0) | empty(4) << 4) & 0xFF) | ninth << 8
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    (0..9).fold(0, |held, index| {
        held | u32::from(board(index) & cells != 0) << index
    })
}

/// The candidate digits (bit `d` for digit `d + 1`) of one cell.
#[inline(always)]
fn digits_of(state: &State, band: usize, bit: u32) -> u16 {
    let index = bit.trailing_zeros();
    let mut digits = 0u16;
    for digit in 0..9 {
        digits |= (((state.candidates[at(digit, band)] >> index) & 1) as u16) << digit;
    }
    digits
}

/// The 9 triads of a band's board as a table index: bit `box * 3 + row` is set when
/// any of the three cells that row shares with that box is a candidate. Bit
/// arithmetic only, no lookup: the board's latency chain is the band rule's cost.
#[inline(always)]
fn triads_of(board: u32) -> usize {
    // Bit `row * 9 + box * 3` of `any`: the triad holds a candidate.
    let any = (board | board >> 1 | board >> 2) & 0x124_9249;
    ((any & 0x49) | (any >> 8 & 0x92) | (any >> 16 & 0x124)) as usize
}

/// The cells of rows that hold exactly one candidate, for a board whose three rows
/// each hold at least one (the band rule leaves no row empty). Three 9-bit lanes in
/// one word, no branch: with no row empty, subtracting one from each row borrows
/// within it, which clears each row's lowest candidate; a row is single when
/// nothing is left of it.
#[inline(always)]
fn row_singles(board: u32) -> u32 {
    /// Bit 0 of each row.
    const LOW: u32 = 1 | 1 << 9 | 1 << 18;
    /// Bit 8 of each row.
    const HIGH: u32 = LOW << 8;
    /// Bits 0-7 of each row.
    const REST: u32 = BAND & !HIGH;
    let rest = board & board.wrapping_sub(LOW);
    // Bit 8 of a row ends up set when any bit of the row is: bits 0-7 carry into it
    // when adding 0xFF (never beyond it), and bit 8 stands for itself.
    let taken = (((rest & REST) + REST) | rest) & HIGH;
    // Each row's bit 8 spread over the row: 0x100 - 1 = 0xFF, plus 0x100.
    let several = (taken - (taken >> 8)) | taken;
    board & !several
}

/// Lookup tables, computed at compile time.
struct Tables {
    /// 9 triad bits as `triads_of` lays them out (box-major) -> the cells of the
    /// triads that fit some row-to-box matching (the matching and its cells in one
    /// lookup).
    kept_cells: [u32; 512],
    /// For each cell of a band: its peers in the band (row, box, column), itself not
    /// included.
    peers: [u32; 32],
    /// For each cell of a band: the three cells of its column in a band.
    column: [u32; 32],
    /// 9 column bits -> the cells of a band in the columns that are alone in
    /// their box (three columns).
    lone_columns: [u32; 512],
}

static TABLES: Tables = tables();

const fn tables() -> Tables {
    let mut tables = Tables {
        kept_cells: [0; 512],
        peers: [0; 32],
        column: [0; 32],
        lone_columns: [0; 512],
    };
    let mut value = 0;
    while value < 512 {
        tables.kept_cells[value] = cells_of_triads(matching(transpose(value as u16)));
        let mut lone = 0;
        let mut stack = 0;
        while stack < 3 {
            let columns = (value >> (3 * stack)) & 7;
            if columns.count_ones() == 1 {
                lone |= columns << (3 * stack);
            }
            stack += 1;
        }
        tables.lone_columns[value] = spread_columns(lone as u32);
        value += 1;
    }
    let mut index = 0;
    while index < 27 {
        let (row, column) = (index / 9, index % 9);
        tables.column[index] = spread_columns(1 << column);
        let box_cells = (7 << ((column / 3) * 3)) * ((1 << 18) | (1 << 9) | 1);
        let peers = (0x1FF << (9 * row)) | box_cells | tables.column[index];
        tables.peers[index] = peers & !(1 << index);
        index += 1;
    }
    tables
}

/// Triad bits from box-major (`box * 3 + row`) to row-major (`row * 3 + box`).
const fn transpose(triads: u16) -> u16 {
    let mut rows = 0;
    let mut bit = 0;
    while bit < 9 {
        if triads & (1 << bit) != 0 {
            rows |= 1 << ((bit % 3) * 3 + bit / 3);
        }
        bit += 1;
    }
    rows
}

/// The 27 cells of a band covered by the triads given (bit `row * 3 + box`).
const fn cells_of_triads(triads: u16) -> u32 {
    let mut cells = 0u32;
    let mut triad = 0;
    while triad < 9 {
        if triads & (1 << triad) != 0 {
            cells |= 7 << ((triad / 3) * 9 + (triad % 3) * 3);
        }
        triad += 1;
    }
    cells
}

/// The union of the row-to-box matchings (permutations of 3) whose three triads are
/// all in `triads`.
const fn matching(triads: u16) -> u16 {
    const PERMUTATIONS: [[u16; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut kept = 0;
    let mut p = 0;
    while p < 6 {
        let perm = PERMUTATIONS[p];
        let bits = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
        if triads & bits == bits {
            kept |= bits;
        }
        p += 1;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Control, Event, Flow, NoEvents, Stats};

    /// `row_singles` against its definition, row by row, with every value of each
    /// row beside a spread of values in the other two (no row empty).
    #[test]
    fn row_singles_keeps_the_rows_with_one_candidate() {
        let others = [1u32, 2, 3, 0x100, 0x101, 0x180, 0x1FF, 0x0AA, 0x155, 0x010];
        for value in 1..512u32 {
            for &a in &others {
                for &b in &others {
                    for rows in [[value, a, b], [a, value, b], [a, b, value]] {
                        let board = rows[0] | rows[1] << 9 | rows[2] << 18;
                        let expected = rows.iter().enumerate().fold(0, |cells, (row, &bits)| {
                            cells
                                | if bits.count_ones() == 1 {
                                    bits << (9 * row)
                                } else {
                                    0
                                }
                        });
                        assert_eq!(row_singles(board), expected, "{board:#x}");
                    }
                }
            }
        }
    }

    /// `holding` against its definition, board by board.
    #[test]
    fn holding_marks_the_boards_with_any_of_the_cells() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed as u32) & BAND
        };
        for round in 0..5_000 {
            // Sparse and dense boards alike.
            let boards: [u32; 9] = std::array::from_fn(|_| {
                let board = next();
                if round % 2 == 0 {
                    board & next() & next()
                } else {
                    board
                }
            });
            let cells = next() & next() & next();
            let expected = (0..9).fold(0, |held, index| {
                held | u32::from(boards[index] & cells != 0) << index
            });
            let mut candidates = [0u32; 32];
            for first in [0, 9, 18] {
                candidates[first..first + 9].copy_from_slice(&boards);
                assert_eq!(
                    holding(&candidates, first, cells),
                    expected,
                    "{boards:?} {cells:#x}"
                );
            }
        }
    }

    /// Runs one search to its end with the instruction set given: what it found
    /// and its statistics.
    fn finish<S: Sink>(board: &Board, wanted: u32, isa: Isa, sink: &mut S) -> (Found, Stats) {
        let control = Control::UNTIMED;
        let mut held = std::collections::VecDeque::new();
        let mut recorder = Recorder::resume(sink, &control, Stats::default(), &mut held);
        let mut found = Found::new(wanted);
        let status = Bitboard::with_isa(board, isa)
            .run(&mut recorder, &mut found)
            .unwrap_or_else(|why| panic!("unlimited search interrupted: {why:?}"));
        assert_eq!(status, Status::Done);
        (found, recorder.stats)
    }

    /// Runs one search with the instruction set given; the solutions found and
    /// every event, in order.
    fn run(board: &Board, wanted: u32, isa: Isa) -> (Option<[u8; CELLS]>, u32, Vec<Event>) {
        let mut events = Vec::new();
        let mut sink = |event: Event| {
            events.push(event);
            Flow::Continue
        };
        let (found, _) = finish(board, wanted, isa, &mut sink);
        (found.first, found.count, events)
    }

    /// The same without events (the unary path's instantiation): solutions and
    /// step counts.
    fn run_quiet(board: &Board, wanted: u32, isa: Isa) -> (Option<[u8; CELLS]>, u32, [u64; 3]) {
        let (found, stats) = finish(board, wanted, isa, &mut NoEvents);
        let steps = [stats.placements, stats.backtracks, stats.guesses];
        (found.first, found.count, steps)
    }

    /// The portable build and the one this CPU runs (the x86-64-v3 build on such a
    /// CPU) are the same search: same solutions, same events in the same order.
    #[test]
    fn portable_and_detected_builds_search_alike() {
        let dir = std::env::var_os("SUDOKUD_PUZZLES").map_or_else(
            || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/puzzles"),
            std::path::PathBuf::from,
        );
        let text = std::fs::read_to_string(dir.join("magictour_top1465.txt"))
            .unwrap_or_else(|e| panic!("cannot read magictour_top1465.txt: {e}"));
        let detected = Isa::detect();
        let mut events = 0;
        for line in text.lines().take(200) {
            let board = Board::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            for wanted in [1, 2] {
                let portable = run(&board, wanted, Isa::Portable);
                assert!(portable.0.is_some(), "{line}: no solution");
                assert_eq!(portable, run(&board, wanted, detected), "{line}");
                let quiet = run_quiet(&board, wanted, Isa::Portable);
                assert_eq!(quiet, run_quiet(&board, wanted, detected), "{line}");
                assert_eq!((quiet.0, quiet.1), (portable.0, portable.1), "{line}");
                events += portable.2.len();
            }
        }
        assert!(events > 10_000, "too few events compared: {events}");
    }
}
