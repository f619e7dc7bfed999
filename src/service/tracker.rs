//! Counts what is running, for tests, metrics and the caps: solves in progress,
//! open streams (and the cap on them), streams waiting on a slow client, slices of
//! search computing now, steps sent. Knows nothing of how calls are served.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::watch;

use crate::metrics::Metrics;

/// The service's counters, shared by its clones (a clone is two reference
/// counts: it is made for every call).
#[derive(Debug, Clone)]
pub struct Tracker {
    counts: Arc<Counts>,
    pub(super) metrics: Arc<Metrics>,
}

/// What a [`Tracker`] counts.
#[derive(Debug, Default)]
struct Counts {
    live: Watched,
    waiting_on_clients: Watched,
    streams_open: AtomicUsize,
    computing: AtomicUsize,
    peak_computing: AtomicUsize,
    steps_sent: AtomicU64,
    solves_started: AtomicU64,
}

/// A count that tasks can wait on: an atomic, mirrored into a watch channel
/// only while the channel has receivers, so that a call that counts itself
/// in and out takes no lock and wakes no one when nobody watches.
#[derive(Debug)]
struct Watched {
    count: AtomicUsize,
    mirror: watch::Sender<usize>,
}

impl Default for Watched {
    fn default() -> Self {
        Watched {
            count: AtomicUsize::new(0),
            mirror: watch::Sender::new(0),
        }
    }
}

impl Watched {
    fn add(&self) {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.publish();
    }

    fn sub(&self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
        self.publish();
    }

    /// The mirror brought up to date when someone watches. The fence pairs
    /// with the one in [`Watched::subscribe`]: either this change sees the new
    /// receiver and publishes, or the new receiver's first read of the count
    /// sees this change.
    fn publish(&self) {
        std::sync::atomic::fence(Ordering::SeqCst);
        if self.mirror.receiver_count() > 0 {
            self.refresh();
        }
    }

    /// The count copied into the mirror under its lock, so that the last
    /// writer leaves the latest count there.
    fn refresh(&self) {
        self.mirror.send_if_modified(|mirrored| {
            let now = self.count.load(Ordering::SeqCst);
            std::mem::replace(mirrored, now) != now
        });
    }

    fn subscribe(&self) -> watch::Receiver<usize> {
        let receiver = self.mirror.subscribe();
        std::sync::atomic::fence(Ordering::SeqCst);
        self.refresh();
        receiver
    }

    fn get(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }
}

impl Tracker {
    pub(super) fn new(metrics: Arc<Metrics>) -> Tracker {
        Tracker {
            counts: Arc::default(),
            metrics,
        }
    }

    /// Watches the number of solves in progress (unary calls past admission, open
    /// streams).
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.counts.live.subscribe()
    }

    /// The number of solves in progress now.
    pub fn live(&self) -> usize {
        self.counts.live.get()
    }

    /// Watches the number of streams whose next message waits for its client to
    /// read.
    pub fn subscribe_waiting(&self) -> watch::Receiver<usize> {
        self.counts.waiting_on_clients.subscribe()
    }

    /// `SolveSteps` streams open now.
    pub fn streams_open(&self) -> usize {
        self.counts.streams_open.load(Ordering::Relaxed)
    }

    /// The most slices ever computing at once.
    pub fn peak_computing(&self) -> usize {
        self.counts.peak_computing.load(Ordering::Relaxed)
    }

    /// Steps handed to streams so far (queued or delivered).
    pub fn steps_sent(&self) -> u64 {
        self.counts.steps_sent.load(Ordering::Relaxed)
    }

    /// Solves started since the server started.
    pub fn solves_started(&self) -> u64 {
        self.counts.solves_started.load(Ordering::Relaxed)
    }

    /// Counts a solve as in progress until the guard drops.
    pub(super) fn enter(&self) -> LiveSolve {
        self.counts.solves_started.fetch_add(1, Ordering::Relaxed);
        self.metrics.solves_in_flight.inc();
        self.counts.live.add();
        LiveSolve(self.clone())
    }

    /// Counts an open stream until the guard drops, unless `cap` are open already.
    pub(super) fn open_stream(&self, cap: usize, paced: bool) -> Option<OpenStream> {
        let open = &self.counts.streams_open;
        if open.fetch_add(1, Ordering::AcqRel) >= cap {
            open.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        self.metrics.streams_open.inc();
        if paced {
            self.metrics.streams_paced_open.inc();
        }
        Some(OpenStream {
            tracker: self.clone(),
            paced,
        })
    }

    /// Counts a slice computing until the guard drops.
    pub(super) fn computing_slice(&self) -> Computing {
        let now = self.counts.computing.fetch_add(1, Ordering::AcqRel) + 1;
        self.counts.peak_computing.fetch_max(now, Ordering::Relaxed);
        self.metrics.compute_slices.inc();
        Computing(self.counts.clone())
    }

    /// Counts a stream as waiting on its client until the guard drops.
    pub(super) fn waiting_on_client(&self) -> WaitingOnClient {
        self.counts.waiting_on_clients.add();
        WaitingOnClient(self.counts.clone())
    }

    /// Counts steps handed to a stream.
    pub(super) fn sent(&self, steps: u64) {
        self.counts.steps_sent.fetch_add(steps, Ordering::Relaxed);
        self.metrics.steps_sent.inc_by(steps);
    }
}

/// Held by a solve in progress; dropping it counts the solve as ended.
pub(super) struct LiveSolve(Tracker);

impl Drop for LiveSolve {
    fn drop(&mut self) {
        self.0.metrics.solves_in_flight.dec();
        self.0.counts.live.sub();
    }
}

/// Held by an open stream; dropping it (however the stream ends) closes it.
pub(super) struct OpenStream {
    tracker: Tracker,
    paced: bool,
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        let Tracker { counts, metrics } = &self.tracker;
        counts.streams_open.fetch_sub(1, Ordering::AcqRel);
        metrics.streams_open.dec();
        if self.paced {
            metrics.streams_paced_open.dec();
        }
    }
}

/// Held while a slice computes.
pub(super) struct Computing(Arc<Counts>);

impl Drop for Computing {
    fn drop(&mut self) {
        self.0.computing.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Held while a stream waits for its client to read.
pub(super) struct WaitingOnClient(Arc<Counts>);

impl Drop for WaitingOnClient {
    fn drop(&mut self) {
        self.0.waiting_on_clients.sub();
    }
}

#[cfg(test)]
mod tests {
    use super::Watched;
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test]
    async fn a_watcher_sees_the_count_made_before_it_came_and_every_change_after() {
        let watched = Watched::default();
        watched.add();
        watched.add();
        let mut receiver = watched.subscribe();
        assert_eq!(*receiver.borrow_and_update(), 2);
        watched.sub();
        let seen = tokio::time::timeout(Duration::from_secs(5), receiver.wait_for(|&n| n == 1));
        assert!(seen.await.is_ok_and(|seen| seen.is_ok()));
    }

    #[test]
    fn the_mirror_ends_on_the_count_however_threads_and_watchers_interleave() {
        let watched = Arc::new(Watched::default());
        let workers: Vec<_> = (0..4)
            .map(|_| {
                let watched = watched.clone();
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        watched.add();
                        watched.sub();
                    }
                    watched.add();
                })
            })
            .collect();
        let receivers: Vec<_> = (0..50).map(|_| watched.subscribe()).collect();
        for worker in workers {
            worker.join().unwrap();
        }
        assert_eq!(watched.get(), 4);
        for receiver in &receivers {
            assert_eq!(*receiver.borrow(), 4);
        }
    }
}
