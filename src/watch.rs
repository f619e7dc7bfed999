//! `sudokud watch`: follows one `SolveSteps` stream in the terminal. On a terminal it
//! redraws the board (coloured by reason) and the counters at most 30 times a
//! second; otherwise it prints one line per step. Either way it ends with the final
//! grid and the server's statistics. Variant rules are drawn on the board
//! (`picture`). Knows nothing of the server but its API.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Channel;

use crate::board::{Board, Form, Grid, Notation, Shape};
use crate::client::authorized;
use crate::pb::solve_steps_response::Event as Message;
use crate::pb::sudoku_service_client::SudokuServiceClient;
use crate::pb::{self, Reason, StepKind};
use crate::solver::{Event, Replay};

mod picture;

use picture::Picture;

/// How to show the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Redraw the board in place (ANSI escapes).
    Terminal,
    /// One line per step, for pipes and logs.
    Lines,
}

/// Why watching failed.
pub type WatchError = Box<dyn std::error::Error + Send + Sync>;

/// The board as the steps have built it, and counters.
struct Shown {
    /// The puzzle as the server's `started` gave it.
    puzzle: String,
    /// How the server writes this puzzle (from `started`'s rules; `None`: 9x9
    /// text) and the form it wrote it in.
    notation: Option<(Notation, Form)>,
    shape: Shape,
    /// The variant's rules drawn on the board (`None`: classic rules).
    picture: Option<Picture>,
    replay: Replay,
    reasons: Vec<i32>,
    placements: u64,
    backtracks: u64,
    guesses: u64,
    depth: u32,
    max_depth: u32,
    /// The seq of the last step shown.
    seq: u64,
}

impl Shown {
    /// The view of the puzzle the server says it solves.
    fn new(puzzle: &str, rules: Option<&pb::Rules>) -> Result<Self, WatchError> {
        let bad =
            |error: &dyn std::fmt::Display| format!("the server started on a bad puzzle: {error}");
        let (grid, notation) = match rules {
            Some(rules) => {
                let shape = Shape::new(rules.box_rows, rules.box_cols).map_err(|e| bad(&e))?;
                let notation = Notation::new(shape, &rules.symbols).map_err(|e| bad(&e))?;
                let (grid, form) = notation.read(puzzle).map_err(|e| bad(&e))?;
                (grid, Some((notation, form)))
            }
            None => (
                Grid::from_board(&Board::parse(puzzle).map_err(|e| bad(&e))?),
                None,
            ),
        };
        let picture = rules
            .and_then(|rules| crate::convert::rules_from_pb(rules).ok())
            .and_then(|(_, layout)| layout)
            .and_then(|layout| Picture::of(grid.shape(), &layout.variant));
        Ok(Shown {
            puzzle: puzzle.to_owned(),
            notation,
            shape: grid.shape(),
            picture,
            replay: Replay::sized(&grid),
            reasons: vec![0; grid.shape().cells()],
            placements: 0,
            backtracks: 0,
            guesses: 0,
            depth: 0,
            max_depth: 0,
            seq: 0,
        })
    }

    /// Follows one step; a step that is no step of a search, or does not fit the
    /// board, is an error naming it.
    fn apply(&mut self, step: &pb::Step) -> Result<(), WatchError> {
        if step.seq != self.seq + 1 {
            return Err(format!(
                "the server sent step {} after step {}: steps are missing or repeated",
                step.seq, self.seq
            )
            .into());
        }
        let event = crate::convert::step_from_pb(step, self.shape.size())
            .map_err(|error| format!("the server sent a bad step: {error}"))?;
        self.replay
            .apply(event)
            .map_err(|error| format!("the server sent a step that does not fit: {error}"))?;
        self.depth = step.depth;
        self.max_depth = self.max_depth.max(step.depth);
        match event {
            Event::Place(placed) => {
                self.reasons[usize::from(placed.cell)] = step.reason;
                self.placements += 1;
                if placed.reason == crate::solver::Reason::Guess {
                    self.guesses += 1;
                }
            }
            Event::Backtrack(_) => self.backtracks += 1,
        }
        self.seq = step.seq;
        Ok(())
    }

    /// The grid so far, written as the server writes this puzzle.
    fn line(&self) -> String {
        match &self.notation {
            Some((notation, form)) => notation.write(self.replay.cells(), *form),
            None => self.replay.to_line(),
        }
    }

    /// How a digit is drawn: its symbol (numbers past 35), `.` for empty.
    fn glyph(&self, digit: u8) -> String {
        if digit == 0 {
            return ".".to_owned();
        }
        match &self.notation {
            Some((notation, _)) if !notation.symbols().is_empty() => {
                notation.write(&[digit], Form::Symbols)
            }
            _ if self.shape.size() <= 9 => digit.to_string(),
            _ => crate::board::DEFAULT_SYMBOLS
                .chars()
                .nth(usize::from(digit) - 1)
                .map_or_else(|| digit.to_string(), String::from),
        }
    }

    /// The colour of each filled cell's digit: bold for a given, else its
    /// reason's.
    fn styles(&self) -> Vec<Option<&'static str>> {
        (0..self.shape.cells())
            .map(|cell| match self.replay.cells()[cell] {
                0 => None,
                _ if self.replay.is_given(cell) => Some("1"),
                _ => Some(reason_style(self.reasons[cell]).0),
            })
            .collect()
    }

    /// The grid, N rows with box separators (or the picture of its variant
    /// rules); `colour` adds ANSI colours.
    fn grid(&self, colour: bool) -> String {
        if let Some(picture) = &self.picture {
            let glyphs: Vec<String> = (self.replay.cells().iter())
                .map(|&digit| self.glyph(digit))
                .collect();
            let styles = colour.then(|| self.styles());
            return picture.draw(&glyphs, styles.as_deref());
        }
        let styles = self.styles();
        let mut text = String::new();
        let (n, rows, cols) = (
            self.shape.size(),
            self.shape.box_rows(),
            self.shape.box_cols(),
        );
        let width = if n > 35 { 3 } else { 2 };
        let mut rule = (0..rows)
            .map(|_| "-".repeat(cols * width))
            .collect::<Vec<_>>()
            .join("+-");
        rule.pop();
        for row in 0..n {
            if row > 0 && row % rows == 0 {
                text.push_str(&rule);
                text.push('\n');
            }
            for col in 0..n {
                if col > 0 && col % cols == 0 {
                    text.push_str("| ");
                }
                let cell = row * n + col;
                let digit = self.replay.cells()[cell];
                let glyph = format!("{:>w$}", self.glyph(digit), w = width - 1);
                if let (true, Some(code)) = (colour, styles[cell]) {
                    text.push_str(&format!("\x1b[{code}m{glyph}\x1b[0m "));
                } else {
                    text.push_str(&glyph);
                    text.push(' ');
                }
            }
            text.pop();
            text.push('\n');
        }
        text
    }
}

/// Columns and lines the redrawn board and its counters take for a grid of
/// `shape` (as [`Shown::grid`] draws it).
pub fn drawn_size(shape: Shape) -> (usize, usize) {
    let (n, rows, cols) = (shape.size(), shape.box_rows(), shape.box_cols());
    let width = if n > 35 { 3 } else { 2 };
    let columns = n * width - 1 + 2 * (n / cols - 1);
    // The grid, a rule between bands, a blank line and two lines of counters.
    let lines = n + (n / rows - 1) + 3;
    (columns, lines)
}

/// Whether the redrawn board of `shape` fits a terminal of `columns` x `rows`
/// (one line is kept for the cursor); `pictured` for a board of variant rules
/// (drawn with borders between all cells and a line of legend).
pub fn fits(shape: Shape, pictured: bool, columns: u16, rows: u16) -> bool {
    let (width, height) = drawn_size(shape);
    let n = shape.size();
    let (width, height) = if pictured {
        (width.max(4 * n + 1), 2 * n + 1 + 1 + 3)
    } else {
        (width, height)
    };
    width <= usize::from(columns) && height < usize::from(rows)
}

/// How a placement's reason is shown: its ANSI colour on the board and its name in
/// a step line.
fn reason_style(reason: i32) -> (&'static str, &'static str) {
    match Reason::try_from(reason) {
        Ok(Reason::NakedSingle) => ("34", "naked-single"),
        Ok(Reason::HiddenSingle) => ("32", "hidden-single"),
        Ok(Reason::LockedCandidates) => ("35", "locked-candidates"),
        Ok(Reason::Constraint) => ("36", "constraint"),
        Ok(Reason::Guess) => ("33", "guess"),
        _ => ("0", "-"),
    }
}

/// How a cut stream is picked up again.
#[derive(Debug, Clone, Copy)]
pub struct Reconnect {
    /// Tries in a row before giving up (0: never reconnect).
    pub attempts: u32,
    /// The wait before the first try; it doubles on each try, up to two seconds.
    pub first_wait: Duration,
}

impl Default for Reconnect {
    fn default() -> Self {
        Reconnect {
            attempts: 8,
            first_wait: Duration::from_millis(100),
        }
    }
}

/// What is known of the stream across reconnections.
struct Progress {
    board: Option<Shown>,
    /// The search the server runs and the build that runs it, from `started`.
    algorithm: i32,
    engine_version: String,
    begun: Instant,
    drawn: Instant,
}

impl Progress {
    /// The seq of the last step shown (0 before any).
    fn shown(&self) -> u64 {
        self.board.as_ref().map_or(0, |board| board.seq)
    }

    /// The request that goes on from the last step shown: the first request
    /// itself until the stream has started.
    fn request(&self, first: &pb::SolveStepsRequest) -> pb::SolveStepsRequest {
        let mut request = first.clone();
        if let Some(board) = &self.board {
            request.algorithm = self.algorithm;
            request.resume_after_seq = board.seq;
            request.resume_engine_version = self.engine_version.clone();
        }
        request
    }

    /// Takes in a `started`: the first makes the board, a resumed stream's must
    /// name the same puzzle.
    fn start(&mut self, started: pb::Started) -> Result<(), WatchError> {
        match &self.board {
            None => {
                self.board = Some(Shown::new(&started.puzzle, started.rules.as_ref())?);
                self.algorithm = started.algorithm;
                self.engine_version = started.engine_version;
            }
            Some(board) if board.puzzle != started.puzzle => {
                return Err("the resumed stream started on another puzzle".into());
            }
            Some(_) => {}
        }
        Ok(())
    }
}

/// Streams `request` and shows it on `out`; returns the `finished` message. A
/// stream cut (`UNAVAILABLE` from a server shutting down, a connection lost, see
/// [`is_cut`]) is
/// resumed after the last step shown, as `reconnect` allows, and the view goes on
/// as if nothing happened; each reconnection is told on stderr.
pub async fn watch(
    channel: Channel,
    request: pb::SolveStepsRequest,
    authorization: Option<MetadataValue<Ascii>>,
    view: View,
    reconnect: Reconnect,
    out: &mut impl Write,
) -> Result<pb::Finished, WatchError> {
    let mut client = SudokuServiceClient::new(channel);
    let begun = Instant::now();
    let mut progress = Progress {
        board: None,
        algorithm: request.algorithm,
        engine_version: String::new(),
        begun,
        drawn: begun - Duration::from_secs(1),
    };
    let mut failures = 0;
    let finished = loop {
        let shown = progress.shown();
        let attempt = authorized(progress.request(&request), authorization.as_ref());
        let error = match follow(&mut client, attempt, &mut progress, view, out).await {
            Ok(finished) => break finished,
            Err(error) => error,
        };
        let Some(status) = error.downcast_ref::<tonic::Status>().filter(|s| is_cut(s)) else {
            return Err(error);
        };
        if progress.shown() > shown {
            failures = 0;
        }
        if failures >= reconnect.attempts {
            return Err(error);
        }
        let wait = reconnect.first_wait.saturating_mul(1 << failures.min(5));
        failures += 1;
        let after = progress.shown();
        let (code, message) = (status.code(), status.message());
        eprintln!("stream cut ({code:?}: {message}); resuming after step {after}");
        tokio::time::sleep(wait.min(Duration::from_secs(2))).await;
    };
    let board = progress
        .board
        .ok_or("the stream ended without a started message")?;
    if view == View::Terminal {
        draw(out, &board, begun.elapsed())?;
    }
    report(out, &board, &finished, view)?;
    Ok(finished)
}

/// Whether a stream that ended with `status` was cut on its way, so that resuming
/// it is worth a try: the server said `UNAVAILABLE` (it is shutting down); the
/// connection broke (a status made on this side, with the transport's error as its
/// source); or what a proxy makes of a stream cut under it: a reset as `INTERNAL`
/// or `CANCELLED`, a stream ended without trailers as `UNKNOWN` (Debian 12's
/// HAProxy 2.6.12 does that now and then under many streams; later releases fixed
/// trailer handling in its HTTP/2 layer, e.g. haproxy issue #2388). Never the
/// statuses that say what is wrong with the request.
fn is_cut(status: &tonic::Status) -> bool {
    use tonic::Code;
    matches!(
        status.code(),
        Code::Unavailable | Code::Unknown | Code::Internal | Code::Cancelled
    ) || std::error::Error::source(status).is_some()
}

/// One stream, from the call to its end: the steps go onto the board.
async fn follow(
    client: &mut SudokuServiceClient<Channel>,
    request: tonic::Request<pb::SolveStepsRequest>,
    progress: &mut Progress,
    view: View,
    out: &mut impl Write,
) -> Result<pb::Finished, WatchError> {
    let mut stream = client.solve_steps(request).await?.into_inner();
    let mut finished = None;
    while let Some(message) = stream.message().await? {
        match message.event {
            Some(Message::Started(started)) => progress.start(started)?,
            Some(Message::Steps(batch)) => {
                let board = progress
                    .board
                    .as_mut()
                    .ok_or("the server sent steps before it started")?;
                for step in &batch.steps {
                    board.apply(step)?;
                    if view == View::Lines {
                        writeln!(out, "{}", step_line(step))?;
                    }
                }
                if view == View::Lines {
                    // A paced stream's lines show as they come, also through a pipe.
                    out.flush()?;
                }
                if view == View::Terminal && progress.drawn.elapsed() >= Duration::from_millis(33) {
                    draw(out, board, progress.begun.elapsed())?;
                    progress.drawn = Instant::now();
                }
            }
            Some(Message::Finished(last)) => finished = Some(last),
            None => {}
        }
    }
    Ok(finished.ok_or("the stream ended without a finished message")?)
}

/// One step as a line: `seq kind rRcC digit reason depth=D`.
fn step_line(step: &pb::Step) -> String {
    let kind = if step.kind() == StepKind::Backtrack {
        "backtrack"
    } else {
        "place"
    };
    format!(
        "{} {kind} r{}c{} {} {} depth={}",
        step.seq,
        step.row + 1,
        step.col + 1,
        step.digit,
        reason_style(step.reason).1,
        step.depth
    )
}

/// Redraws the board and counters from the top of the screen.
fn draw(out: &mut impl Write, board: &Shown, elapsed: Duration) -> io::Result<()> {
    let steps = board.placements + board.backtracks;
    let rate = steps as f64 / elapsed.as_secs_f64().max(1e-6);
    write!(out, "\x1b[H\x1b[2J{}", board.grid(true))?;
    writeln!(
        out,
        "\nplacements {}  backtracks {}  guesses {}  depth {} (max {})\n{:.0} steps/s  {:.1} s",
        board.placements,
        board.backtracks,
        board.guesses,
        board.depth,
        board.max_depth,
        rate,
        elapsed.as_secs_f64()
    )?;
    out.flush()
}

/// The final grid and the server's statistics.
fn report(
    out: &mut impl Write,
    board: &Shown,
    finished: &pb::Finished,
    view: View,
) -> io::Result<()> {
    let outcome = match finished.outcome() {
        pb::Outcome::Solved => "solved",
        pb::Outcome::Unsolvable => "unsolvable",
        pb::Outcome::Unspecified => "unknown",
    };
    writeln!(out, "outcome: {outcome}")?;
    if view == View::Lines {
        writeln!(out, "{}", board.grid(false).trim_end())?;
    }
    if !finished.solution.is_empty() {
        writeln!(out, "solution: {}", finished.solution)?;
        if board.line() != finished.solution {
            writeln!(out, "warning: the replayed steps differ from the solution")?;
        }
    }
    if let Some(stats) = finished.stats {
        writeln!(
            out,
            "stats: placements {} backtracks {} guesses {} search {} µs",
            stats.placements, stats.backtracks, stats.guesses, stats.elapsed_micros
        )?;
    }
    out.flush()
}

#[cfg(test)]
mod tests;
