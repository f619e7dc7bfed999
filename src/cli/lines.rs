//! Puzzle lines in, answer lines out: what the local commands (`solve`,
//! `rate`, `explain`, `generate`) and `solve --remote` share: the input read
//! from a file or stdin, answers computed on every core in input order, the
//! progress line, the output written.

use std::io::{self, IsTerminal, Read, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The text of `file`, or of stdin when it is absent or `-`.
pub(super) fn read_input(file: Option<&std::path::Path>) -> io::Result<String> {
    match file {
        // One read into a string of the file's size.
        Some(path) if path.as_os_str() != "-" => std::fs::read_to_string(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        _ => {
            let mut text = String::new();
            io::stdin().lock().read_to_string(&mut text)?;
            Ok(text)
        }
    }
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

/// Puzzles handed to a worker at a time.
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
    let chunks: Vec<&[I]> = puzzles.chunks(CHUNK).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Vec<Mutex<Vec<u8>>> = chunks.iter().map(|_| Mutex::default()).collect();
    let show_progress = io::stderr().is_terminal() && puzzles.len() > CHUNK;
    if threads <= 1 && !show_progress {
        // One worker and nothing to draw: no thread to start.
        let mut out = Vec::with_capacity(puzzles.len() * 82);
        let mut state = T::default();
        for item in puzzles {
            answer(&mut state, item, &mut out);
        }
        return vec![out];
    }
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
                    done.fetch_add(chunk.len(), Ordering::Relaxed);
                }
            });
        }
        if show_progress {
            draw_progress(&done, puzzles.len());
        }
    });
    results
        .into_iter()
        .map(|slot| slot.into_inner().unwrap_or_default())
        .collect()
}

/// Redraws `done / total` on stderr until every puzzle is answered.
pub(super) fn draw_progress(done: &AtomicUsize, total: usize) {
    let started = std::time::Instant::now();
    loop {
        let finished = done.load(Ordering::Relaxed);
        let rate = finished as f64 / started.elapsed().as_secs_f64().max(1e-9);
        eprint!(
            "\r{finished}/{total} puzzles ({:.0}%), {rate:.0}/s   ",
            finished as f64 * 100.0 / total as f64
        );
        if finished >= total {
            eprintln!();
            return;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(100));
    }
}
