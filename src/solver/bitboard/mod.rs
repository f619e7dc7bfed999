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
//!
//! - `state`: the candidate boards of one node and the intake of the givens;
//! - `search`: the explicit stack of guesses, descending and backing up;
//! - `propagate`: board updates, naked singles and the recording of placements;
//! - `settled`: which boards an update would change, without updating them;
//! - `claiming`: column claiming and row singles, lane-parallel;
//! - `choose`: which cell to guess on;
//! - `tables`: the lookup tables, computed at compile time.
//!
//! Knows nothing of the other engines; it reports through the same `Recorder`.

mod choose;
mod claiming;
mod propagate;
mod search;
mod settled;
mod state;
mod tables;
#[cfg(test)]
mod tests;

use super::{Found, Interrupted, Reason, Recorder, Sink, Status};
use crate::board::{BAND, Board};
use search::{Mark, Run};
use state::State;

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
            Isa::Portable => root(board),
            // SAFETY: as for `search_v3` below.
            #[cfg(target_arch = "x86_64")]
            Isa::V3 => unsafe { root_v3(board) },
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

/// The root node of `board`: the state of its givens, with only the boards whose
/// update would change something marked dirty (see `settled::unsettled`), and
/// column claiming due.
#[inline(always)]
fn root(board: &Board) -> State {
    let mut state = State::from_givens(board);
    state.dirty = settled::unsettled(&state);
    state.stale = true;
    state
}

/// `root` compiled for x86-64-v3 (see `Isa::V3`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn root_v3(board: &Board) -> State {
    let mut state = State::from_givens(board);
    state.dirty = settled::unsettled_avx2(&state);
    state.stale = true;
    state
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

pub(super) const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// What a digit placed on the cells `bits` of a band (no two of them peers) rules
/// out: their rows, boxes and columns in the band (the cells themselves included),
/// and their columns as a column mask for any band. With no two cells in one row,
/// box or column, whole units are the reach, found without a loop over the cells.
#[inline(always)]
pub(super) fn reach_of(bits: u32) -> (u32, u32) {
    let rows = [0, 9, 18].into_iter().fold(0, |rows, shift| {
        rows | (u32::from(bits & (0x1FF << shift) != 0) * (0x1FF << shift))
    });
    let columns = columns_of(bits);
    let spread = spread_columns(columns);
    (rows | spread_columns(boxes_of(columns)) | spread, spread)
}

/// The columns (9 bits) that hold any of a band's `cells`.
#[inline(always)]
pub(super) const fn columns_of(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1FF
}

/// All columns of the boxes that hold any of the `columns` given (9 bits).
#[inline(always)]
pub(super) const fn boxes_of(columns: u32) -> u32 {
    ((columns | columns >> 1 | columns >> 2) & 0b001_001_001) * 7
}

/// The cells of a band in the `columns` given (9 bits): the row repeated thrice.
#[inline(always)]
pub(super) const fn spread_columns(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

/// Where a digit's board for a band sits in `State::candidates`: band-major, so the
/// nine boards of a band are contiguous.
#[inline(always)]
pub(super) const fn at(digit: usize, band: usize) -> usize {
    (band * 9 + digit) & 31
}
