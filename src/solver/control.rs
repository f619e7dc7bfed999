//! The bounds of a run of a search, in the engine's own terms: a step budget, stop
//! signals anyone may set, a deadline, and where the run pauses; and why a search
//! ended before it had an answer.
//! Knows nothing of who sets the signals (a client, a server, a test).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The bounds of one run of a search: a step budget, stop signals, a deadline, and
/// where this run pauses (a slice).
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    /// The most steps (placements plus backtracks) the whole search may take.
    pub max_steps: u64,
    /// Set from outside to stop this search within about a thousand steps.
    pub stop: Option<&'a AtomicBool>,
    /// A second stop signal, shared by many searches: one store stops them all.
    pub stop_all: Option<&'a AtomicBool>,
    /// The search stops when this instant passes.
    pub deadline: Option<Instant>,
    /// Whether to time the search into [`Stats::elapsed`](super::Stats::elapsed) (two clock reads a run,
    /// a few percent of an easy puzzle: batch runs that time themselves turn it
    /// off, and `elapsed` stays zero).
    pub timed: bool,
    /// This run pauses once it has taken about this many steps (at the engine's
    /// next pause point: a step of the classic algorithms, a guess of the bitboard
    /// engine); `u64::MAX` runs to the end.
    pub slice_steps: u64,
    /// This run pauses at its next pause point after this instant (looked at with
    /// the deadline, every `POLL_EVERY` (1,024) steps).
    pub slice_until: Option<Instant>,
}

impl Control<'_> {
    /// No step limit, no stop signal, no deadline, no slice.
    pub const UNLIMITED: Control<'static> = Control {
        max_steps: u64::MAX,
        stop: None,
        stop_all: None,
        deadline: None,
        timed: true,
        slice_steps: u64::MAX,
        slice_until: None,
    };

    /// [`Control::UNLIMITED`] without timing.
    pub const UNTIMED: Control<'static> = Control {
        timed: false,
        ..Control::UNLIMITED
    };

    /// Why work bounded by these controls must stop now, if it must: a stop
    /// signal set, or the deadline passed. For work other than a search (a
    /// logical solve, a generator's attempt) bounded alike.
    pub fn interrupted(&self) -> Option<Interrupted> {
        let stopped = [self.stop, self.stop_all]
            .into_iter()
            .flatten()
            .any(|stop| stop.load(std::sync::atomic::Ordering::Relaxed));
        if stopped {
            Some(Interrupted::Stopped)
        } else if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            Some(Interrupted::DeadlinePassed)
        } else {
            None
        }
    }
}

/// Why a search ended before it had an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// The step budget ran out.
    StepLimit {
        /// The budget that was reached.
        limit: u64,
    },
    /// The stop signal was set or the sink answered [`Flow::Stop`](super::Flow::Stop).
    Stopped,
    /// The deadline passed.
    DeadlinePassed,
}
