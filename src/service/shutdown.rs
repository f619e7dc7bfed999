//! The signal that ends every solve still running once the shutdown grace is over.
//! Knows nothing of when that is: the server decides and calls [`Shutdown::stop_all`].

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
