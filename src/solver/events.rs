//! What a search reports, step by step, and the sink it reports into.
//! Knows nothing of how events are shown or sent.

/// Why a digit was placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A trial among several candidates.
    Guess,
    /// The cell had one candidate left.
    NakedSingle,
    /// The digit had one place left in a row, column or box.
    HiddenSingle,
    /// The digit had one place left in a row only once locked candidates (a digit
    /// confined to one row within a box, or to one box within a row) were removed.
    LockedCandidates,
    /// A rule other than rows, columns and boxes (a cage's sum, a thermometer,
    /// a neighbour's digit) left the cell one digit.
    Constraint,
}

/// One step of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// `digit` was written into the empty `cell`.
    Place(Step),
    /// `digit` was taken back out of `cell`; reason and depth repeat the placement's.
    Backtrack(Step),
}

/// What a step touched and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The cell, row-major: 0..81 at 9x9, 0..N x N at size N.
    pub cell: u16,
    /// The digit, 1..=9 (1..=N at size N).
    pub digit: u8,
    /// Why the digit was placed.
    pub reason: Reason,
    /// Guesses open after a placement (a guess counts itself); for a backtrack, the
    /// depth of the placement it undoes.
    pub depth: u32,
}

/// A sink's answer to an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Take this event, then pause: [`Search::run`](super::Search::run) returns [`Progress::Paused`](super::Progress::Paused)
    /// and the next run goes on with the event after it.
    Pause,
    /// Stop the search now.
    Stop,
}

/// Receives every event of a search, in order, and may pause or stop it.
pub trait Sink {
    /// False for a sink that ignores every event: engines then skip the bookkeeping
    /// that only events need (the trail of placements to report on backtrack).
    const WANTS_EVENTS: bool = true;

    /// Called once per placement or backtrack.
    fn event(&mut self, event: Event) -> Flow;
}

/// The sink of the unary path: ignores every event, so the event code compiles away.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoEvents;

impl Sink for NoEvents {
    const WANTS_EVENTS: bool = false;

    #[inline(always)]
    fn event(&mut self, _event: Event) -> Flow {
        Flow::Continue
    }
}

impl<F: FnMut(Event) -> Flow> Sink for F {
    #[inline]
    fn event(&mut self, event: Event) -> Flow {
        self(event)
    }
}

impl Step {
    /// A step on `cell` (0..N x N).
    #[inline(always)]
    pub(crate) fn at(cell: usize, digit: u8, reason: Reason, depth: u32) -> Step {
        Step {
            cell: cell as u16,
            digit,
            reason,
            depth,
        }
    }
}
