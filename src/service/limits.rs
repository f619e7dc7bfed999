//! The server-side bounds on what calls may ask for and how much they may hold.
//! Plain values: enforcing them is the rest of `service`'s business.

use std::time::Duration;

/// Server-side bounds on what one call may ask for, and on all calls together.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The step cap of every call; a request's `max_steps` can only lower it.
    pub max_steps: u64,
    /// Steps per stream message when the request leaves `max_batch` at 0.
    pub default_batch: u32,
    /// The largest `max_batch` honoured; larger requests are clamped to it.
    pub max_batch: u32,
    /// Messages buffered per stream between the solver and the client. With the
    /// batch size it bounds how far a solver runs ahead of a slow client.
    pub stream_buffer: usize,
    /// Solves computing at once (the CPU cap); default: the number of cores. Also
    /// the size of the compute pool.
    pub max_concurrent_solves: usize,
    /// Calls that may wait for a solve slot; past this a call gets
    /// `RESOURCE_EXHAUSTED` at once. A waiting call gives up at its deadline.
    /// Slices of work already admitted (a paced stream's next step) never count.
    pub max_queue: usize,
    /// `SolveSteps` streams open at once; the next one gets `RESOURCE_EXHAUSTED`.
    pub max_open_streams: usize,
    /// Largest request message decoded, in bytes (a puzzle needs well under 1 KiB).
    pub max_message_bytes: usize,
    /// After a shutdown signal, how long the server goes on taking new calls
    /// while reporting not ready (so load balancers move away first).
    pub drain_delay: Duration,
    /// After the drain delay, how long calls in flight may go on before every
    /// solve still running is stopped and its call ends with `UNAVAILABLE`.
    pub shutdown_grace: Duration,
    /// Longest a `SolveSteps` stream may run; its solve then ends as if the
    /// client's deadline had passed.
    pub max_stream_duration: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000_000,
            default_batch: 256,
            max_batch: 16_384,
            stream_buffer: 4,
            max_concurrent_solves: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_queue: 64,
            max_open_streams: 100_000,
            max_message_bytes: 64 * 1024,
            drain_delay: Duration::ZERO,
            shutdown_grace: Duration::from_secs(10),
            max_stream_duration: Duration::from_secs(3600),
        }
    }
}

impl Limits {
    /// The step cap of a call: the request's, when it asks for less than the server's.
    pub(super) fn steps_for(&self, requested: u64) -> u64 {
        if requested == 0 {
            self.max_steps
        } else {
            requested.min(self.max_steps)
        }
    }

    /// Steps per stream message for a request's `max_batch`.
    pub(super) fn batch_for(&self, requested: u32) -> usize {
        let batch = if requested == 0 {
            self.default_batch
        } else {
            requested.min(self.max_batch)
        };
        batch.max(1) as usize
    }
}
