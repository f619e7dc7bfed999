//! `sudokud solve --remote`: puzzles solved by one or more servers over
//! `SolveBatch`, every answer back by its index. Each server's task keeps up to a
//! window of puzzles in flight and takes more from the shared queue as its answers
//! come, so a faster or idler server gets more; when a server fails, the puzzles
//! it had not answered go back to the queue for the others, so every puzzle is
//! answered once, and the server is called again after a pause (a replica
//! restarting in a rolling update comes back), a bounded number of times. A
//! client only: knows nothing of the server's insides, nor of the output format.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::{mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;

use crate::client::{Target, authorized};

pub mod wire;

pub use wire::{Answer, Settings};

/// Puzzles a server may hold unanswered: enough to keep its workers busy across a
/// round trip and the server's own queues (17_clue on one local server, 61
/// rounds taking turns: 0.60x local at 4,096, 0.58x at 2,048), few enough that
/// the work spreads by demand.
const WINDOW: usize = 4096;

/// Lines handed to the output at a time, at most (fewer at the end of a run):
/// the output thread wakes once for many.
const HAND_OUT: usize = 1024;

/// Puzzles in one request message (81-cell lines with short ids: about 6 KiB,
/// well under the servers' default 64 KiB message limit).
const PER_MESSAGE: usize = 256;

/// Calls made to one server before it is given up for the run; the pauses
/// between them double from `FIRST_PAUSE` to at most `LONGEST_PAUSE` (about 9 s
/// in all), and end early once every puzzle is answered.
const ATTEMPTS: u32 = 8;
const FIRST_PAUSE: Duration = Duration::from_millis(200);
const LONGEST_PAUSE: Duration = Duration::from_secs(2);

/// What a run makes of its answers.
pub struct Output {
    /// What is kept of each answer, made as it arrives: the caller's output
    /// line, say (a solution's `Bytes` is a slice of the message it came in).
    pub keep: Box<dyn Fn(Answer) -> Bytes + Send + Sync>,
    /// Answers so far (for a progress display).
    pub answered: Arc<AtomicUsize>,
    /// What was kept, in input order, as soon as every earlier puzzle is
    /// answered too: a run's output flows while it goes.
    pub in_order: std::sync::mpsc::Sender<Vec<Bytes>>,
}

/// Why a run could not answer every puzzle.
pub type RemoteError = Box<dyn std::error::Error + Send + Sync>;

/// The queue and the answers, shared by the servers' tasks.
struct Shared {
    state: Mutex<State>,
    /// Bumped when puzzles go back to the queue and when the last is answered.
    changed: watch::Sender<u64>,
    output: Output,
}

struct State {
    /// Puzzles a server gave back unanswered, sent again first.
    returned: VecDeque<usize>,
    /// Puzzles never sent yet.
    fresh: std::ops::Range<usize>,
    /// What was kept of the answers from `next` on, by index - `next`; the
    /// answers before `next` went out.
    waiting: VecDeque<Option<Bytes>>,
    /// The first puzzle whose answer has not gone out.
    next: usize,
    /// What was kept of the answers before `next` not yet handed to the output.
    ready: Vec<Bytes>,
    left: usize,
}

impl State {
    fn is_answered(&self, index: usize) -> bool {
        index < self.next || matches!(self.waiting.get(index - self.next), Some(Some(_)))
    }
}

impl Shared {
    fn take(&self, most: usize) -> Vec<usize> {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let again = most.min(state.returned.len());
        let mut taken: Vec<usize> = state.returned.drain(..again).collect();
        let fresh = state.fresh.start..state.fresh.end.min(state.fresh.start + most - again);
        state.fresh.start = fresh.end;
        taken.extend(fresh);
        taken
    }

    fn left(&self) -> usize {
        self.state.lock().map_or(0, |state| state.left)
    }

    /// Records the answers of one message that this server was waiting for
    /// (each with its index).
    fn answer(&self, answers: Vec<Answer>) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let mut taken = 0;
        for answer in answers {
            // Only indices this server was sent come here: `waiting` stays
            // within the run.
            let Some(index) = answer.index.filter(|&index| !state.is_answered(index)) else {
                continue;
            };
            let place = index - state.next;
            if state.waiting.len() <= place {
                state.waiting.resize(place + 1, None);
            }
            state.waiting[place] = Some((self.output.keep)(answer));
            taken += 1;
        }
        state.left -= taken;
        while let Some(Some(_)) = state.waiting.front() {
            let line = state.waiting.pop_front().flatten();
            state.ready.extend(line);
            state.next += 1;
        }
        let done = state.left == 0;
        if state.ready.len() >= HAND_OUT || done {
            Self::hand_out(&mut state, &self.output);
        }
        drop(state);
        self.output.answered.fetch_add(taken, Ordering::Relaxed);
        if done {
            self.changed.send_modify(|generation| *generation += 1);
        }
    }

    /// Hands the lines ready over to the output, under the state's lock so
    /// that they go out in order. A receiver gone (the caller stopped reading)
    /// only loses the output.
    fn hand_out(state: &mut State, output: &Output) {
        if !state.ready.is_empty() {
            let _ = output.in_order.send(std::mem::take(&mut state.ready));
        }
    }

    /// Hands over what is ready, however few (at the end of a run).
    fn flush(&self) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        Self::hand_out(&mut state, &self.output);
    }

    /// Waits `pause`, or less if every puzzle is answered meanwhile; whether
    /// some are still left.
    async fn wait_unless_done(&self, pause: Duration) -> bool {
        let mut changed = self.changed.subscribe();
        let done = async {
            while self.left() > 0 {
                if changed.changed().await.is_err() {
                    return;
                }
            }
        };
        let _ = tokio::time::timeout(pause, done).await;
        self.left() > 0
    }

    /// Puts puzzles a server did not answer back at the front of the queue.
    fn give_back(&self, indices: impl IntoIterator<Item = usize>) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let mut back: Vec<usize> = indices
            .into_iter()
            .filter(|&index| !state.is_answered(index))
            .collect();
        back.sort_unstable();
        for index in back.into_iter().rev() {
            state.returned.push_front(index);
        }
        drop(state);
        self.changed.send_modify(|generation| *generation += 1);
    }
}

/// Solves `puzzles` (puzzle texts, UTF-8) on `servers`, handing what `output`
/// keeps of each answer over in input order; a line for each server that failed
/// on the way (`address: why`, and how the calls made to it again went), whose
/// puzzles went to the others.
pub async fn solve(
    servers: Vec<Target>,
    puzzles: Arc<Vec<Bytes>>,
    settings: Settings,
    output: Output,
) -> Result<Vec<String>, RemoteError> {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            returned: VecDeque::new(),
            fresh: 0..puzzles.len(),
            waiting: VecDeque::new(),
            next: 0,
            ready: Vec::new(),
            left: puzzles.len(),
        }),
        changed: watch::Sender::new(0),
        output,
    });
    let settings = Arc::new(settings);
    let mut tasks = tokio::task::JoinSet::new();
    for server in servers {
        let (shared, puzzles, settings) = (shared.clone(), puzzles.clone(), settings.clone());
        tasks.spawn(async move { keep_serving(&server, &shared, &puzzles, &settings).await });
    }
    let mut failures = Vec::new();
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(failed) => failures.extend(failed),
            Err(panic) => failures.push(panic.to_string()),
        }
    }
    shared.flush();
    let left = shared.left();
    if left > 0 {
        return Err(format!(
            "{left} puzzles not answered: every server failed ({})",
            failures.join("; ")
        )
        .into());
    }
    Ok(failures)
}

/// One server's share of the run, called again after each failure (up to
/// `ATTEMPTS` calls) while puzzles are left; a line saying how it failed, if it
/// did: the first failure, and how the calls after it went.
async fn keep_serving(
    server: &Target,
    shared: &Shared,
    puzzles: &Arc<Vec<Bytes>>,
    settings: &Arc<Settings>,
) -> Option<String> {
    let mut failures = Vec::new();
    let mut served = false;
    let mut pause = FIRST_PAUSE;
    for attempt in 1..=ATTEMPTS {
        match serve(server, shared, puzzles, settings).await {
            Ok(()) => {
                served = true;
                break;
            }
            Err(error) => failures.push(said(&*error)),
        }
        if attempt == ATTEMPTS || !shared.wait_unless_done(pause).await {
            break;
        }
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
    let first = failures.first()?;
    let mut line = format!(
        "{}: {first}; its unanswered puzzles went back to the queue",
        server.address
    );
    let again = failures.len() - 1 + usize::from(served);
    if again > 0 {
        let last = match (served, failures.last()) {
            (true, _) | (false, None) => "it served again".to_owned(),
            (false, Some(last)) => format!("the last failed too: {last}"),
        };
        line.push_str(&format!(" (called again {again} times; {last})"));
    }
    Some(line)
}

/// A failure in a line: a status as its code and message (tonic's own text
/// repeats the transport's error chain), anything else with its causes.
fn said(error: &(dyn std::error::Error + Send + Sync + 'static)) -> String {
    match error.downcast_ref::<tonic::Status>() {
        Some(status) => format!("{:?}: {}", status.code(), status.message()),
        None => crate::client::describe(error),
    }
}

/// One server's share of the run: a `SolveBatch` call fed from the queue until
/// every puzzle is answered. On failure its unanswered puzzles go back.
async fn serve(
    server: &Target,
    shared: &Shared,
    puzzles: &Arc<Vec<Bytes>>,
    settings: &Arc<Settings>,
) -> Result<(), RemoteError> {
    let mut mine = Mine::new(puzzles.len());
    let result = follow(server, shared, puzzles, settings, &mut mine).await;
    if !mine.is_empty() {
        shared.give_back(mine.indices());
    }
    result
}

async fn follow(
    server: &Target,
    shared: &Shared,
    puzzles: &Arc<Vec<Bytes>>,
    settings: &Arc<Settings>,
    mine: &mut Mine,
) -> Result<(), RemoteError> {
    let channel = server.connect(Some(Duration::from_secs(10))).await?;
    let authorization = server.authorization()?;
    let (requests, outgoing) = mpsc::channel::<wire::Puzzles>(2);
    let mut sender = Some(requests);
    let call = authorized(ReceiverStream::new(outgoing), authorization.as_ref());
    let mut answers = wire::solve_batch(channel, call).await?;
    let mut changed = shared.changed.subscribe();
    loop {
        if let Some(requests) = &sender {
            refill(requests, shared, puzzles, settings, mine);
            if shared.left() == 0 {
                // Everything is answered: closing the requests ends the call.
                sender = None;
            }
        }
        tokio::select! {
            message = answers.message() => match message? {
                Some(answers) => take_answers(answers, shared, mine),
                None if mine.is_empty() => return Ok(()),
                None => return Err("the server ended the call with puzzles unanswered".into()),
            },
            _ = changed.changed(), if mine.is_empty() && sender.is_some() => {}
        }
    }
}

/// Sends more puzzles while this server has room in its window.
fn refill(
    requests: &mpsc::Sender<wire::Puzzles>,
    shared: &Shared,
    puzzles: &Arc<Vec<Bytes>>,
    settings: &Arc<Settings>,
    mine: &mut Mine,
) {
    while mine.len() < WINDOW {
        let Ok(permit) = requests.try_reserve() else {
            return;
        };
        let taken = shared.take(PER_MESSAGE.min(WINDOW - mine.len()));
        if taken.is_empty() {
            return;
        }
        for &index in &taken {
            mine.insert(index);
        }
        permit.send(wire::Puzzles {
            indices: taken,
            texts: puzzles.clone(),
            settings: settings.clone(),
        });
    }
}

fn take_answers(mut answers: Vec<Answer>, shared: &Shared, mine: &mut Mine) {
    answers.retain(|answer| answer.index.is_some_and(|index| mine.remove(index)));
    shared.answer(answers);
}

/// The puzzles a server holds unanswered: a bit an index of the run.
struct Mine {
    bits: Vec<u64>,
    len: usize,
}

impl Mine {
    fn new(puzzles: usize) -> Mine {
        Mine {
            bits: vec![0; puzzles.div_ceil(64)],
            len: 0,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn insert(&mut self, index: usize) {
        let (word, bit) = (index / 64, 1 << (index % 64));
        if self.bits[word] & bit == 0 {
            self.bits[word] |= bit;
            self.len += 1;
        }
    }

    /// Whether `index` was held (an index past the run never was).
    fn remove(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1 << (index % 64));
        match self.bits.get_mut(word) {
            Some(bits) if *bits & bit != 0 => {
                *bits &= !bit;
                self.len -= 1;
                true
            }
            _ => false,
        }
    }

    /// The indices held, in order.
    fn indices(&self) -> Vec<usize> {
        let mut indices = Vec::with_capacity(self.len);
        for (word, &bits) in self.bits.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                indices.push(word * 64 + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
        }
        indices
    }
}

#[cfg(test)]
mod tests {
    use super::Mine;

    #[test]
    fn mine_holds_each_index_once_and_gives_them_back_in_order() {
        let mut mine = Mine::new(200);
        for index in [199, 0, 64, 63, 64, 130] {
            mine.insert(index);
        }
        assert_eq!(mine.len(), 5);
        assert!(mine.remove(64));
        assert!(!mine.remove(64), "removed twice");
        assert!(!mine.remove(5), "never held");
        assert!(!mine.remove(10_000), "past the run");
        assert_eq!(mine.indices(), [0, 63, 130, 199]);
        assert_eq!(mine.len(), 4);
    }
}
