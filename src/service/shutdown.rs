//! The signal that ends every solve still running once the shutdown grace is over,
//! and the readiness that load balancers read (lost the moment shutdown begins).
//! Knows nothing of when that is: the server decides and calls
//! [`Readiness::lose`] and [`Shutdown::stop_all`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::watch;

/// Set when the shutdown grace has run out: every solve still running stops and
/// its call ends with `UNAVAILABLE`.
#[derive(Debug, Clone, Default)]
pub struct Shutdown {
    /// Read by searches between steps (`Control::shutdown`).
    pub(super) flag: Arc<AtomicBool>,
    /// Wakes the calls that wait (for a slot, a client or a pace timer).
    signal: Arc<watch::Sender<bool>>,
}

impl Shutdown {
    /// Stops every solve still running.
    pub fn stop_all(&self) {
        self.flag.store(true, Ordering::Relaxed);
        self.signal.send_replace(true);
    }

    /// Whether `stop_all` was called.
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Completes once `stop_all` was called.
    pub(super) async fn stopped(&self) {
        let mut signal = self.signal.subscribe();
        let _ = signal.wait_for(|&set| set).await;
    }
}

/// Whether the server takes new work: ready from the start, not ready from the
/// moment shutdown begins (through the drain delay, while calls are still
/// served), so that load balancers send new calls elsewhere.
#[derive(Debug, Clone, Default)]
pub struct Readiness {
    /// Set when shutdown began.
    draining: Arc<AtomicBool>,
    /// Wakes the calls that stop taking work when shutdown begins (a batch's reader).
    signal: Arc<watch::Sender<bool>>,
}

impl Readiness {
    /// True until [`Readiness::lose`].
    pub fn is_ready(&self) -> bool {
        !self.draining.load(Ordering::Relaxed)
    }

    /// Reports not ready from now on.
    pub fn lose(&self) {
        self.draining.store(true, Ordering::Relaxed);
        self.signal.send_replace(true);
    }

    /// Completes once readiness is lost.
    pub(super) async fn lost(&self) {
        let mut signal = self.signal.subscribe();
        let _ = signal.wait_for(|&lost| lost).await;
    }
}
