//! What every server stream's task shares: the small channel to tonic's response
//! stream, and the waits that end early when the client leaves, the deadline
//! passes or the shutdown grace is over (room for the next message, the pace
//! timer, a solve slot). Knows nothing of what a stream computes.

use std::pin::Pin;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};
use tonic::Status;

use super::slots::{Slot, Slots};
use super::tracker::Tracker;
use super::{Shutdown, SudokuSolver};

/// How long the last messages of a stream (the final steps and the closing status)
/// may wait for a slow client, even past the deadline.
const CLOSING_GRACE: Duration = Duration::from_secs(1);

impl SudokuSolver {
    /// A new stream's outlet, held to `deadline`, and the response stream tonic
    /// reads from it.
    pub(super) fn outlet<M: Send + 'static>(
        &self,
        deadline: Option<Instant>,
    ) -> (Outlet<M>, Replies<M>) {
        let (sender, receiver) = mpsc::channel(self.limits.stream_buffer.max(1));
        let outlet = Outlet::new(
            sender,
            deadline,
            self.shutdown.clone(),
            self.tracker.clone(),
        );
        let replies = ReceiverStream::new(receiver).map(|item: Item<M>| item.map(|boxed| *boxed));
        (outlet, Box::pin(replies))
    }
}

/// What a stream's task hands to tonic, the message boxed: the channel keeps
/// its slots in blocks of 32 from the start, and slots of a message's own size
/// made every open stream hold a block of kilobytes.
type Item<M> = Result<Box<M>, Status>;

/// The response stream tonic reads a stream's messages from.
pub(super) type Replies<M> = Pin<Box<dyn Stream<Item = Result<M, Status>> + Send>>;

/// Room for one message, taken by [`Outlet::room`].
pub(super) struct Room<'a, M>(mpsc::Permit<'a, Item<M>>);

impl<M> Room<'_, M> {
    /// Sends the message into the room.
    pub(super) fn send(self, message: Result<M, Status>) {
        self.0.send(message.map(Box::new));
    }
}

/// Why a stream's wait ended without what it waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cut {
    /// The client went away: nobody to tell.
    Gone,
    /// The deadline (the client's or the stream cap's) passed.
    Deadline,
    /// The shutdown grace is over.
    Shutdown,
}

/// A stream's way out to its client, and the bounds it is held to.
pub(super) struct Outlet<M> {
    out: mpsc::Sender<Item<M>>,
    pub(super) deadline: Option<Instant>,
    shutdown: Shutdown,
    tracker: Tracker,
}

impl<M> Outlet<M> {
    fn new(
        out: mpsc::Sender<Item<M>>,
        deadline: Option<Instant>,
        shutdown: Shutdown,
        tracker: Tracker,
    ) -> Outlet<M> {
        Outlet {
            out,
            deadline,
            shutdown,
            tracker,
        }
    }

    /// Room for one more message: at once, or once the client has read one.
    pub(super) async fn room(&self) -> Result<Room<'_, M>, Cut> {
        match self.out.try_reserve() {
            Ok(permit) => return Ok(Room(permit)),
            Err(mpsc::error::TrySendError::Closed(())) => return Err(Cut::Gone),
            Err(mpsc::error::TrySendError::Full(())) => {}
        }
        let _waiting = self.tracker.waiting_on_client();
        tokio::select! {
            permit = self.out.reserve() => permit.map(Room).map_err(|_| Cut::Gone),
            cut = self.interruption() => Err(cut),
        }
    }

    /// Completes when the client has gone (its response stream was dropped).
    pub(super) async fn gone(&self) {
        self.out.closed().await;
    }

    /// How many more messages the client has room for now.
    pub(super) fn free(&self) -> usize {
        self.out.capacity()
    }

    /// Sends a message the client has room for (see [`Outlet::free`]) without
    /// waiting; `Err` when the client is gone or, against that promise, full.
    pub(super) fn send_now(&self, message: Result<M, Status>) -> Result<(), ()> {
        self.out.try_send(message.map(Box::new)).map_err(|_| ())
    }

    /// Waits for a slot for the next slice of computing.
    pub(super) async fn turn(&self, slots: &Slots) -> Result<Slot, Cut> {
        tokio::select! {
            slot = slots.next_turn() => slot.map_err(|_| Cut::Shutdown),
            cut = self.interruption() => Err(cut),
            () = self.out.closed() => Err(Cut::Gone),
        }
    }

    /// Waits for the pace timer.
    pub(super) async fn wait_until(&self, at: tokio::time::Instant) -> Result<(), Cut> {
        tokio::select! {
            () = tokio::time::sleep_until(at) => Ok(()),
            cut = self.interruption() => Err(cut),
            () = self.out.closed() => Err(Cut::Gone),
        }
    }

    /// Completes when the deadline passes or the shutdown grace is over.
    pub(super) async fn interruption(&self) -> Cut {
        let deadline = async {
            match self.deadline {
                Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = deadline => Cut::Deadline,
            () = self.shutdown.stopped() => Cut::Shutdown,
        }
    }

    /// Whether the deadline has passed.
    pub(super) fn expired(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// Sends one of the closing messages, which may wait a short grace for the
    /// client; `Err` when the client did not take it.
    pub(super) async fn send_closing(&self, message: Result<M, Status>) -> Result<(), ()> {
        let message = message.map(Box::new);
        match tokio::time::timeout(CLOSING_GRACE, self.out.send(message)).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(()),
        }
    }
}
