//! Work that is no resumable search (a logical solve, a generator's attempts):
//! it runs on the compute pool under a solve slot, asking its [`Bounds`] between
//! steps whether to go on, and stops when the call is dropped, the deadline
//! passes or the shutdown grace is over. Knows nothing of what the work is.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use tonic::Status;

use super::SudokuSolver;
use super::call::{interrupted_status, solver_failed};
use crate::solver::{Control, Interrupted};

/// What a piece of work on the pool is held to.
pub(super) struct Bounds {
    stop: Arc<AtomicBool>,
    stop_all: Arc<AtomicBool>,
    deadline: Option<Instant>,
    max_steps: u64,
}

impl Bounds {
    /// Why the work must stop now, if it must.
    pub(super) fn interrupted(&self) -> Option<Interrupted> {
        self.control().interrupted()
    }

    /// The bounds of a search run inside the work.
    pub(super) fn control(&self) -> Control<'_> {
        Control {
            max_steps: self.max_steps,
            stop: Some(&self.stop),
            stop_all: Some(&self.stop_all),
            deadline: self.deadline,
            timed: true,
            slice_steps: u64::MAX,
            slice_until: None,
        }
    }
}

/// Sets the stop signal when the call's future is dropped (the client went away).
pub(super) struct StopOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl SudokuSolver {
    /// Runs `work` on the compute pool under a slot (waiting in line within the
    /// deadline), counted as a live solve; the work's `Err` becomes the status of
    /// its interruption. A panic in the work is `INTERNAL`.
    pub(super) async fn compute<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        work: impl FnOnce(&Bounds) -> Result<T, Work> + Send + 'static,
    ) -> Result<T, Status> {
        let slot = self.slots.admit(deadline).await?;
        let live = self.tracker.enter();
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let bounds = Bounds {
            stop,
            stop_all: self.shutdown.flag.clone(),
            deadline,
            max_steps: self.limits.max_steps,
        };
        let tracker = self.tracker.clone();
        let done = self
            .pool
            .run(move || {
                let _computing = tracker.computing_slice();
                let done = work(&bounds);
                drop((slot, live));
                done
            })
            .await;
        match done {
            None => Err(solver_failed()),
            Some(Ok(value)) => Ok(value),
            Some(Err(Work::Interrupted(why))) => Err(interrupted_status(why, &self.shutdown)),
            Some(Err(Work::Refused(status))) => Err(status),
        }
    }
}

/// Why a piece of work gave no answer.
pub(super) enum Work {
    /// A bound stopped it.
    Interrupted(Interrupted),
    /// The input has no answer of this kind (the status says why).
    Refused(Status),
}

impl From<Interrupted> for Work {
    fn from(why: Interrupted) -> Work {
        Work::Interrupted(why)
    }
}
