//! The recorder every engine reports through: it counts steps, keeps the
//! statistics, enforces the control's bounds and forwards events to the sink (or
//! holds them once the sink asked to pause), so limits behave alike everywhere.
//! Knows nothing of any one algorithm.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Control, Event, Flow, Interrupted, Reason, Sink, Stats, Step};
use crate::board::Cell;

/// What counting a step gives: nothing, or why the search must end.
type Outcome = Result<(), Interrupted>;

/// Counts steps, enforces the control's bounds and forwards events to the sink, or
/// holds them back once the sink asked to pause. Every algorithm reports through
/// it, so limits behave the same everywhere.
pub(super) struct Recorder<'r, 'c, S> {
    sink: &'r mut S,
    control: &'r Control<'c>,
    pub(super) stats: Stats,
    /// Steps left before the next look at the limit, the stop signal and the clock;
    /// the step that brings it to zero triggers the look. One decrement a step.
    until_check: u64,
    /// The step count at which this run's slice ends.
    slice_end: u64,
    /// Set when the run should pause at the engine's next pause point.
    pausing: bool,
    /// Set when the sink asked to pause: later events go to `held`.
    holding: bool,
    held: &'r mut VecDeque<Event>,
}

/// Steps between two looks at the stop signal and the clock.
pub(super) const POLL_EVERY: u64 = 1024;

impl<'r, 'c, S: Sink> Recorder<'r, 'c, S> {
    pub(super) fn resume(
        sink: &'r mut S,
        control: &'r Control<'c>,
        stats: Stats,
        held: &'r mut VecDeque<Event>,
    ) -> Self {
        let taken = stats.placements + stats.backtracks;
        let mut recorder = Recorder {
            sink,
            control,
            stats,
            until_check: 0,
            slice_end: taken.saturating_add(control.slice_steps),
            pausing: control.slice_steps == 0,
            holding: false,
            held,
        };
        recorder.until_check = recorder.next_look(taken);
        recorder
    }

    /// Steps after `taken` until the next look is due: at most [`POLL_EVERY`], and
    /// no further than the step past the limit or the end of the slice.
    pub(super) fn next_look(&self, taken: u64) -> u64 {
        let left = self.control.max_steps.saturating_sub(taken);
        let mut until = POLL_EVERY.min(left.saturating_add(1));
        if !self.pausing && self.slice_end > taken {
            until = until.min(self.slice_end - taken);
        }
        until.max(1)
    }

    /// True when the run should pause at this pause point.
    #[inline(always)]
    pub(super) fn pausing(&self) -> bool {
        self.pausing
    }

    /// Counts and reports a placement.
    #[inline(always)]
    pub(super) fn place(&mut self, cell: Cell, digit: u8, reason: Reason, depth: u32) -> Outcome {
        self.count_step()?;
        self.stats.placements += 1;
        if reason == Reason::Guess {
            self.stats.guesses += 1;
        }
        self.emit(Event::Place(Step::at(cell, digit, reason, depth)))
    }

    /// Counts and reports a backtrack (reason and depth of the placement undone).
    #[inline(always)]
    pub(super) fn backtrack(
        &mut self,
        cell: Cell,
        digit: u8,
        reason: Reason,
        depth: u32,
    ) -> Outcome {
        self.count_step()?;
        self.stats.backtracks += 1;
        self.emit(Event::Backtrack(Step::at(cell, digit, reason, depth)))
    }

    /// Counts `count` backtracks that are not reported one by one (the sink wants
    /// no events), with the same step limit as if they were.
    #[inline(always)]
    pub(super) fn backtracks_unreported(&mut self, count: u64) -> Result<(), Interrupted> {
        self.count_steps(count)?;
        self.stats.backtracks += count;
        Ok(())
    }

    /// Counts `count` placements other than guesses that are not reported one by
    /// one (the sink wants no events), with the same step limit as if they were.
    #[inline(always)]
    pub(super) fn placements_unreported(&mut self, count: u64) -> Result<(), Interrupted> {
        self.count_steps(count)?;
        self.stats.placements += count;
        Ok(())
    }

    /// Counts `count` steps at once: fails when they pass the step limit, and looks
    /// at the stop signal and the clock when a look is due.
    #[inline(always)]
    pub(super) fn count_steps(&mut self, count: u64) -> Result<(), Interrupted> {
        if count < self.until_check {
            self.until_check -= count;
            return Ok(());
        }
        let taken = self.steps() + count;
        if taken > self.control.max_steps {
            return Err(self.step_limit());
        }
        self.check(taken)
    }

    /// Steps taken so far.
    pub(super) fn steps(&self) -> u64 {
        self.stats.placements + self.stats.backtracks
    }

    #[inline(always)]
    pub(super) fn count_step(&mut self) -> Result<(), Interrupted> {
        self.until_check -= 1;
        if self.until_check == 0 {
            let taken = self.steps() + 1;
            if taken > self.control.max_steps {
                return Err(self.step_limit());
            }
            return self.check(taken);
        }
        Ok(())
    }

    #[cold]
    pub(super) fn step_limit(&self) -> Interrupted {
        Interrupted::StepLimit {
            limit: self.control.max_steps,
        }
    }

    /// Looks at the stop signals, the clock and the slice after `taken` steps, and
    /// sets when to look next.
    #[cold]
    #[inline(never)]
    pub(super) fn check(&mut self, taken: u64) -> Result<(), Interrupted> {
        for stop in [self.control.stop, self.control.stop_all]
            .into_iter()
            .flatten()
        {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted::Stopped);
            }
        }
        let clock = (self.control.deadline.is_some() || self.control.slice_until.is_some())
            .then(Instant::now);
        if let (Some(deadline), Some(now)) = (self.control.deadline, clock)
            && now >= deadline
        {
            return Err(Interrupted::DeadlinePassed);
        }
        let slice_over = taken >= self.slice_end
            || matches!((self.control.slice_until, clock), (Some(until), Some(now)) if now >= until);
        if slice_over {
            self.pausing = true;
        }
        self.until_check = self.next_look(taken);
        Ok(())
    }

    #[inline(always)]
    pub(super) fn emit(&mut self, event: Event) -> Result<(), Interrupted> {
        if self.holding {
            self.held.push_back(event);
            return Ok(());
        }
        match self.sink.event(event) {
            Flow::Continue => Ok(()),
            Flow::Pause => {
                self.holding = true;
                self.pausing = true;
                Ok(())
            }
            Flow::Stop => Err(Interrupted::Stopped),
        }
    }
}
