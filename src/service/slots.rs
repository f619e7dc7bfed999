//! The CPU cap: solve slots (a fair, first-come first-served semaphore), the
//! bounded line of new calls waiting for one, and the small compute pool where a
//! search that outgrew its first slice goes on. Every slice of search, unary or
//! streamed, runs under a slot, so slots rotate between all runnable work. Knows
//! nothing of requests, protobuf or the engine.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Instant;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tonic::Status;

use crate::metrics::Metrics;

/// A solve slot, held while a slice of search computes.
pub(super) type Slot = OwnedSemaphorePermit;

/// The solve slots and the line for them.
#[derive(Debug, Clone)]
pub(super) struct Slots {
    permits: Arc<Semaphore>,
    /// New calls waiting (bounded by `max_queue`).
    queued: Arc<AtomicUsize>,
    /// All work waiting, admitted or not: a long search hands its slot over when
    /// this is not zero.
    waiting: Arc<AtomicUsize>,
    max_queue: usize,
    metrics: Arc<Metrics>,
}

/// The slots were closed (never, today: kept for a clear answer).
#[derive(Debug)]
pub(super) struct Closed;

impl Slots {
    pub(super) fn new(slots: usize, max_queue: usize, metrics: Arc<Metrics>) -> Slots {
        Slots {
            permits: Arc::new(Semaphore::new(slots.max(1))),
            queued: Arc::new(AtomicUsize::new(0)),
            waiting: Arc::new(AtomicUsize::new(0)),
            max_queue,
            metrics,
        }
    }

    /// A slot for a new call: at once when one is free, else after waiting in line
    /// within the deadline; `RESOURCE_EXHAUSTED` when the line is full.
    pub(super) async fn admit(&self, deadline: Option<Instant>) -> Result<Slot, Status> {
        if let Some(slot) = self.try_now() {
            return Ok(slot);
        }
        // Boxed: the line's state stays out of the future of a call that
        // found a slot free.
        Box::pin(self.in_line(deadline)).await
    }

    /// [`Slots::admit`] when no slot is free now.
    async fn in_line(&self, deadline: Option<Instant>) -> Result<Slot, Status> {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            return Err(self.deadline_passed());
        }
        if self.queued.fetch_add(1, Ordering::AcqRel) >= self.max_queue {
            self.queued.fetch_sub(1, Ordering::AcqRel);
            self.metrics.rejected("queue_full");
            return Err(Status::resource_exhausted(format!(
                "server busy: every solve slot is taken and {} calls are already waiting",
                self.max_queue
            )));
        }
        let _in_line = InLine(self.queued.clone(), self.metrics.clone());
        self.metrics.queue_depth.inc();
        let wait = self.wait();
        let waited = match deadline {
            None => Some(wait.await),
            Some(deadline) => tokio::time::timeout_at(deadline.into(), wait).await.ok(),
        };
        match waited {
            Some(Ok(slot)) => Ok(slot),
            Some(Err(Closed)) => Err(Status::unavailable("the server is shutting down")),
            None => Err(self.deadline_passed()),
        }
    }

    fn deadline_passed(&self) -> Status {
        self.metrics.rejected("queue_deadline");
        Status::deadline_exceeded("deadline passed while waiting for a solve slot")
    }

    /// A slot for the next slice of work already admitted (a stream's next batch, a
    /// long search's next turn): in line with everyone, never turned away. The
    /// caller bounds the wait (deadline, shutdown, client gone) by dropping it.
    pub(super) async fn next_turn(&self) -> Result<Slot, Closed> {
        match self.try_now() {
            Some(slot) => Ok(slot),
            None => self.wait().await,
        }
    }

    /// Whether other work waits for a slot: a long search then hands its slot over.
    pub(super) fn contended(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0
    }

    /// A free slot, if there is one and nobody is ahead in line (so a new call
    /// never jumps the line).
    pub(super) fn try_now(&self) -> Option<Slot> {
        if self.contended() {
            return None;
        }
        let slot = self.permits.clone().try_acquire_owned().ok()?;
        self.metrics.slot_wait_seconds.observe(0.0);
        Some(slot)
    }

    /// Waits in line (the semaphore serves first come, first served).
    async fn wait(&self) -> Result<Slot, Closed> {
        let began = Instant::now();
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Waiting(self.waiting.clone());
        let slot = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| Closed)?;
        self.metrics
            .slot_wait_seconds
            .observe(began.elapsed().as_secs_f64());
        Ok(slot)
    }
}

/// A place in the line for new calls; leaving it (however) frees the place.
struct InLine(Arc<AtomicUsize>, Arc<Metrics>);

impl Drop for InLine {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
        self.1.queue_depth.dec();
    }
}

/// Counts a waiter for as long as it waits (however the wait ends).
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A few threads (one per slot) that run the searches longer than a slice on the
/// runtime's own threads may take. Work is handed over with its state and handed
/// back with the result; no thread belongs to a call.
#[derive(Debug, Clone)]
pub(super) struct ComputePool {
    /// `None` when no thread could be started: work then runs on the caller.
    jobs: Option<mpsc::Sender<Job>>,
}

type Job = Box<dyn FnOnce() + Send>;

impl ComputePool {
    pub(super) fn new(threads: usize) -> ComputePool {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        let mut started = 0;
        for index in 0..threads.max(1) {
            let receiver = receiver.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("sudokud-compute-{index}"))
                .spawn(move || {
                    loop {
                        // The lock is held only while taking a job.
                        let job = match receiver.lock() {
                            Ok(jobs) => jobs.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            // Every sender is gone: the service was dropped.
                            Err(_) => return,
                        }
                    }
                });
            match spawned {
                Ok(_) => started += 1,
                Err(error) => tracing::error!(%error, "cannot start a compute thread"),
            }
        }
        ComputePool {
            jobs: (started > 0).then_some(sender),
        }
    }

    /// Runs `work` on a pool thread and waits for its result; `None` when it
    /// panicked (the panic is caught on the pool thread, which goes on).
    pub(super) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let caught = move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).ok();
        let Some(jobs) = &self.jobs else {
            return caught();
        };
        let (sender, receiver) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = sender.send(caught());
        });
        jobs.send(job).ok()?;
        receiver.await.ok().flatten()
    }
}
