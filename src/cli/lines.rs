//! Puzzle lines in, answer lines out: what the local commands (`solve`,
//! `rate`, `explain`, `generate`) and `solve --remote` share: answers computed
//! on every core in input order from the blocks of lines `input.rs` reads, the
//! progress line, the output written as each block is answered (memory stays
//! bounded whatever the input's size).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::input::{
    Block, Blocks, LARGE_BLOCK, OVERLONG, SMALL_BLOCK, Source, count_puzzles, name_of,
};
use crate::board::puzzle_lines;

/// Answers every puzzle line of `source` on `threads` threads and writes the
/// answers to stdout in input order, a block of lines at a time, drawing
/// progress on stderr when it is a terminal. `answer` appends one line per
/// puzzle to a buffer, with a state of its thread's to reuse (`T::default()`
/// at first).
pub(super) fn answer_lines<T, F>(source: Source, threads: usize, answer: F) -> io::Result<()>
where
    T: Default,
    F: Fn(&mut T, &str, &mut Vec<u8>) + Sync,
{
    let out = io::stdout().lock();
    let (reader, path): (Box<dyn io::Read>, _) = match source {
        Source::Text(text) => (Box::new(io::Cursor::new(text.into_bytes())), None),
        Source::Reader { reader, path } => (reader, path),
    };
    // Progress on a terminal, but not over puzzles typed on one. Out of how
    // many: a file's puzzle lines are counted first (a quick pass, made only
    // for the progress line); stdin's are not known before its end.
    let interactive = path.is_none() && io::stdin().is_terminal();
    let progress = (io::stderr().is_terminal() && !interactive).then(|| {
        let total = path.as_deref().and_then(|path| count_puzzles(path).ok());
        Progress::new(total)
    });
    let name = name_of(path.as_deref());
    if threads <= 1 && progress.is_none() {
        return answer_alone(Blocks::new(name, reader, SMALL_BLOCK), &answer, out);
    }
    answer_shared(
        Blocks::new(name, reader, LARGE_BLOCK),
        threads,
        &answer,
        progress.as_ref(),
        out,
    )
}

/// [`answer_lines`] on this thread, with nothing to draw: the answers go out a
/// block at a time, the buffers reused.
fn answer_alone<T, F>(mut blocks: Blocks, answer: &F, mut out: impl Write) -> io::Result<()>
where
    T: Default,
    F: Fn(&mut T, &str, &mut Vec<u8>),
{
    let mut state = T::default();
    let mut answers = Vec::with_capacity(SMALL_BLOCK + SMALL_BLOCK / 4);
    while let Some(block) = blocks.next_block()? {
        match block {
            Block::Lines(text) => {
                for (_, line) in puzzle_lines(text) {
                    answer(&mut state, line, &mut answers);
                }
            }
            Block::Overlong => answers.extend_from_slice(OVERLONG),
        }
        out.write_all(&answers)?;
        out.flush()?;
        answers.clear();
    }
    Ok(())
}

/// [`answer_lines`] on `threads` threads, counting into `progress` (drawn
/// meanwhile) when there is one.
fn answer_shared<T, F>(
    mut blocks: Blocks,
    threads: usize,
    answer: &F,
    progress: Option<&Progress>,
    mut out: impl Write,
) -> io::Result<()>
where
    T: Default,
    F: Fn(&mut T, &str, &mut Vec<u8>) + Sync,
{
    while let Some(block) = blocks.next_block()? {
        let text = match block {
            Block::Lines(text) => text,
            Block::Overlong => {
                out.write_all(OVERLONG)?;
                if let Some(progress) = progress {
                    progress.add(1);
                }
                continue;
            }
        };
        let puzzles: Vec<&str> = puzzle_lines(text).map(|(_, line)| line).collect();
        let each = |state: &mut T, line: &&str, out: &mut Vec<u8>| answer(state, line, out);
        for chunk in solve_counted(&puzzles, threads, &each, progress) {
            out.write_all(&chunk)?;
        }
        out.flush()?;
    }
    if let Some(progress) = progress {
        progress.end();
    }
    out.flush()
}

/// The threads a command asked for, or one per core.
pub(super) fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Writes every answer buffer to stdout, in order.
pub(super) fn print_all(answers: Vec<Vec<u8>>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    for chunk in answers {
        out.write_all(&chunk)?;
    }
    out.flush()
}

/// Puzzles handed to a worker at a time, at most: fewer when there are few
/// (eight chunks a thread), so that the threads end together.
const CHUNK: usize = 256;

/// Answers every puzzle on `threads` threads, in input order, drawing progress on
/// stderr when it is a terminal. `answer` appends one line per puzzle to a buffer,
/// with a state of its thread's to reuse (`T::default()` at first); the result is
/// the buffers in input order.
pub(super) fn solve_all<I, T, F>(puzzles: &[I], threads: usize, answer: F) -> Vec<Vec<u8>>
where
    I: Sync,
    T: Default,
    F: Fn(&mut T, &I, &mut Vec<u8>) + Sync,
{
    let progress = (io::stderr().is_terminal() && puzzles.len() > CHUNK)
        .then(|| Progress::new(Some(puzzles.len())));
    let answers = solve_counted(puzzles, threads, &answer, progress.as_ref());
    if let Some(progress) = &progress {
        progress.end();
    }
    answers
}

/// [`solve_all`], counting the answers into `progress` (drawn meanwhile) when
/// there is one.
fn solve_counted<I, T, F>(
    puzzles: &[I],
    threads: usize,
    answer: &F,
    progress: Option<&Progress>,
) -> Vec<Vec<u8>>
where
    I: Sync,
    T: Default,
    F: Fn(&mut T, &I, &mut Vec<u8>) + Sync,
{
    if threads <= 1 && progress.is_none() {
        // One worker and nothing to draw: no thread to start.
        let mut out = Vec::with_capacity(puzzles.len() * 82);
        let mut state = T::default();
        for item in puzzles {
            answer(&mut state, item, &mut out);
        }
        return vec![out];
    }
    let size = (puzzles.len() / (threads.max(1) * 8)).clamp(1, CHUNK);
    let chunks: Vec<&[I]> = puzzles.chunks(size).collect();
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Vec<u8>>> = chunks.iter().map(|_| Mutex::default()).collect();
    let until = progress.map_or(0, |progress| progress.done() + puzzles.len());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, chunks.len().max(1)) {
            scope.spawn(|| {
                let mut state = T::default();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(index) else {
                        break;
                    };
                    let mut answers = Vec::with_capacity(chunk.len() * 82);
                    for item in *chunk {
                        answer(&mut state, item, &mut answers);
                    }
                    if let Ok(mut slot) = results[index].lock() {
                        *slot = answers;
                    }
                    if let Some(progress) = progress {
                        progress.add(chunk.len());
                    }
                }
            });
        }
        if let Some(progress) = progress {
            progress.draw_until(until);
        }
    });
    results
        .into_iter()
        .map(|slot| slot.into_inner().unwrap_or_default())
        .collect()
}

/// The progress line of a run: puzzles answered, of how many when known, and
/// the rate since the start.
/// Drawn only for runs of more than [`CHUNK`] puzzles (an unknown total, once
/// that many are answered).
pub(super) struct Progress {
    done: Arc<AtomicUsize>,
    total: Option<usize>,
    started: Instant,
}

impl Progress {
    pub(super) fn new(total: Option<usize>) -> Progress {
        Progress {
            done: Arc::default(),
            total,
            started: Instant::now(),
        }
    }

    /// The count of puzzles answered, for a caller that counts them itself.
    pub(super) fn counter(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.done)
    }

    /// True when the line is drawn at `finished` answers.
    fn shown(&self, finished: usize) -> bool {
        self.total.unwrap_or(finished) > CHUNK
    }

    fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    fn add(&self, answered: usize) {
        self.done.fetch_add(answered, Ordering::Relaxed);
    }

    /// Draws the line once, over the last one.
    fn draw(&self) {
        let finished = self.done();
        if !self.shown(finished) {
            return;
        }
        let rate = finished as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        match self.total {
            Some(total) => eprint!(
                "\r{finished}/{total} puzzles ({:.0}%), {rate:.0}/s   ",
                finished as f64 * 100.0 / total.max(1) as f64
            ),
            None => eprint!("\r{finished} puzzles, {rate:.0}/s   "),
        }
    }

    /// Redraws the line until `until` puzzles are answered.
    pub(super) fn draw_until(&self, until: usize) {
        loop {
            self.draw();
            if self.done() >= until {
                return;
            }
            std::thread::park_timeout(std::time::Duration::from_millis(100));
        }
    }

    /// The last drawing, and the line ended.
    pub(super) fn end(&self) {
        self.draw();
        if self.shown(self.done()) {
            eprintln!();
        }
    }
}
