//! Counts what is running, for tests, metrics and the caps: solves in progress,
//! open streams (and the cap on them), streams waiting on a slow client, slices of
//! search computing now, steps sent. Knows nothing of how calls are served.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::watch;

use crate::metrics::Metrics;

/// The service's counters, shared by its clones.
#[derive(Debug, Clone)]
pub struct Tracker {
    live: Arc<watch::Sender<usize>>,
    waiting_on_clients: Arc<watch::Sender<usize>>,
    streams_open: Arc<AtomicUsize>,
    computing: Arc<AtomicUsize>,
    peak_computing: Arc<AtomicUsize>,
    steps_sent: Arc<AtomicU64>,
    solves_started: Arc<AtomicU64>,
    pub(super) metrics: Arc<Metrics>,
}

impl Tracker {
    pub(super) fn new(metrics: Arc<Metrics>) -> Tracker {
        Tracker {
            live: Arc::new(watch::Sender::new(0)),
            waiting_on_clients: Arc::new(watch::Sender::new(0)),
            streams_open: Arc::default(),
            computing: Arc::default(),
            peak_computing: Arc::default(),
            steps_sent: Arc::default(),
            solves_started: Arc::default(),
            metrics,
        }
    }

    /// Watches the number of solves in progress (unary calls past admission, open
    /// streams).
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.live.subscribe()
    }

    /// The number of solves in progress now.
    pub fn live(&self) -> usize {
        *self.live.borrow()
    }

    /// Watches the number of streams whose next message waits for its client to
    /// read.
    pub fn subscribe_waiting(&self) -> watch::Receiver<usize> {
        self.waiting_on_clients.subscribe()
    }

    /// `SolveSteps` streams open now.
    pub fn streams_open(&self) -> usize {
        self.streams_open.load(Ordering::Relaxed)
    }

    /// The most slices ever computing at once.
    pub fn peak_computing(&self) -> usize {
        self.peak_computing.load(Ordering::Relaxed)
    }

    /// Steps handed to streams so far (queued or delivered).
    pub fn steps_sent(&self) -> u64 {
        self.steps_sent.load(Ordering::Relaxed)
    }

    /// Solves started since the server started.
    pub fn solves_started(&self) -> u64 {
        self.solves_started.load(Ordering::Relaxed)
    }

    /// Counts a solve as in progress until the guard drops.
    pub(super) fn enter(&self) -> LiveSolve {
        self.solves_started.fetch_add(1, Ordering::Relaxed);
        self.metrics.solves_in_flight.inc();
        self.live.send_modify(|n| *n += 1);
        LiveSolve {
            live: self.live.clone(),
            metrics: self.metrics.clone(),
        }
    }

    /// Counts an open stream until the guard drops, unless `cap` are open already.
    pub(super) fn open_stream(&self, cap: usize, paced: bool) -> Option<OpenStream> {
        if self.streams_open.fetch_add(1, Ordering::AcqRel) >= cap {
            self.streams_open.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        self.metrics.streams_open.inc();
        if paced {
            self.metrics.streams_paced_open.inc();
        }
        Some(OpenStream {
            open: self.streams_open.clone(),
            metrics: self.metrics.clone(),
            paced,
        })
    }

    /// Counts a slice computing until the guard drops.
    pub(super) fn computing_slice(&self) -> Computing {
        let now = self.computing.fetch_add(1, Ordering::AcqRel) + 1;
        self.peak_computing.fetch_max(now, Ordering::Relaxed);
        self.metrics.compute_slices.inc();
        Computing(self.computing.clone())
    }

    /// Counts a stream as waiting on its client until the guard drops.
    pub(super) fn waiting_on_client(&self) -> WaitingOnClient {
        self.waiting_on_clients.send_modify(|n| *n += 1);
        WaitingOnClient(self.waiting_on_clients.clone())
    }

    /// Counts steps handed to a stream.
    pub(super) fn sent(&self, steps: u64) {
        self.steps_sent.fetch_add(steps, Ordering::Relaxed);
        self.metrics.steps_sent.inc_by(steps);
    }
}

/// Held by a solve in progress; dropping it counts the solve as ended.
pub(super) struct LiveSolve {
    live: Arc<watch::Sender<usize>>,
    metrics: Arc<Metrics>,
}

impl Drop for LiveSolve {
    fn drop(&mut self) {
        self.metrics.solves_in_flight.dec();
        self.live.send_modify(|n| *n -= 1);
    }
}

/// Held by an open stream; dropping it (however the stream ends) closes it.
pub(super) struct OpenStream {
    open: Arc<AtomicUsize>,
    metrics: Arc<Metrics>,
    paced: bool,
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
        self.metrics.streams_open.dec();
        if self.paced {
            self.metrics.streams_paced_open.dec();
        }
    }
}

/// Held while a slice computes.
pub(super) struct Computing(Arc<AtomicUsize>);

impl Drop for Computing {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Held while a stream waits for its client to read.
pub(super) struct WaitingOnClient(Arc<watch::Sender<usize>>);

impl Drop for WaitingOnClient {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n -= 1);
    }
}
