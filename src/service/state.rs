//! [`SudokuSolver`]: the state every call of the service shares (its limits,
//! solve slots and compute pool, counters, shutdown signal and readiness);
//! each RPC's file adds its methods. Knows no RPC.

use std::sync::Arc;

use super::limits::Limits;
use super::shutdown::{Readiness, Shutdown};
use super::slots::{ComputePool, Slots};
use super::tracker::Tracker;
use crate::metrics::Metrics;

/// The service: its limits, its solve slots and compute pool, its counters and
/// the shutdown signal. Clones share all of them.
#[derive(Debug, Clone)]
pub struct SudokuSolver {
    pub(super) limits: Limits,
    pub(super) tracker: Tracker,
    pub(super) slots: Slots,
    pub(super) pool: ComputePool,
    pub(super) shutdown: Shutdown,
    pub(super) readiness: Readiness,
}

impl SudokuSolver {
    /// A service with the given limits (and a compute pool of one thread per slot).
    pub fn new(limits: Limits) -> Self {
        let metrics = Arc::new(Metrics::new());
        let slots = limits.max_concurrent_solves.max(1);
        SudokuSolver {
            slots: Slots::new(slots, limits.max_queue, metrics.clone()),
            pool: ComputePool::new(slots),
            shutdown: Shutdown::default(),
            readiness: Readiness::default(),
            tracker: Tracker::new(metrics),
            limits,
        }
    }

    /// The metrics this service reports into.
    pub fn metrics(&self) -> Arc<Metrics> {
        self.tracker.metrics.clone()
    }

    /// The handle that ends every running solve (after the shutdown grace).
    pub fn shutdown(&self) -> Shutdown {
        self.shutdown.clone()
    }

    /// Whether the service takes new work (lost when shutdown begins).
    pub fn readiness(&self) -> Readiness {
        self.readiness.clone()
    }

    /// The limits this service enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The counters of this service (shared by its clones).
    pub fn tracker(&self) -> Tracker {
        self.tracker.clone()
    }
}
