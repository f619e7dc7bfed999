//! Puzzle lines in, answer lines out: what the local commands (`solve`,
//! `rate`, `explain`, `generate`) and `solve --remote` share: the input read
//! from a file or stdin a block of lines at a time, answers computed on every
//! core in input order, the progress line, the output written as each block is
//! answered (memory stays bounded whatever the input's size).

use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crate::board::puzzle_lines;

/// Where puzzle lines come from: a text at hand (an `--fpuzzles` link's puzzle),
/// or a file or stdin, read a block of lines at a time.
pub(super) enum Source {
    Text(String),
    Reader {
        /// The file's path as given, or `stdin`: what read errors name.
        name: String,
        reader: Box<dyn Read>,
        /// The file's path; `None` for stdin.
        path: Option<std::path::PathBuf>,
    },
}

impl Source {
    /// `file`, or stdin when it is absent or `-`. A file is opened here, so that
    /// one that cannot be read fails before any output.
    pub(super) fn open(file: Option<&Path>) -> io::Result<Source> {
        match file {
            Some(path) if path.as_os_str() != "-" => {
                let name = path.display().to_string();
                let file = std::fs::File::open(path)
                    .map_err(|error| io::Error::new(error.kind(), format!("{name}: {error}")))?;
                Ok(Source::Reader {
                    name,
                    reader: Box::new(file),
                    path: Some(path.to_owned()),
                })
            }
            _ => Ok(Source::Reader {
                name: "stdin".to_owned(),
                reader: Box::new(io::stdin()),
                path: None,
            }),
        }
    }

    /// The whole text, for a command that needs all of it at once
    /// (`solve --remote` plans its run from every line).
    pub(super) fn read_all(self) -> io::Result<String> {
        match self {
            Source::Text(text) => Ok(text),
            Source::Reader {
                name, mut reader, ..
            } => {
                let mut text = String::new();
                reader
                    .read_to_string(&mut text)
                    .map_err(|error| io::Error::new(error.kind(), format!("{name}: {error}")))?;
                Ok(text)
            }
        }
    }
}

/// The text of `file`, or of stdin when it is absent or `-`.
pub(super) fn read_input(file: Option<&Path>) -> io::Result<String> {
    Source::open(file)?.read_all()
}

/// Bytes read at a time with one thread: the buffer is reused, so its pages
/// are touched once (reading a whole large input, and keeping all its answers
/// until the end, cost a page fault every 4 KiB: about a tenth of `solve`'s
/// time on easy puzzles).
const SMALL_BLOCK: usize = 1 << 16;
/// Bytes read at a time with several threads: enough puzzles that the threads
/// rarely wait for each other at a block's end.
const LARGE_BLOCK: usize = 1 << 22;

/// The longest line read: no puzzle line comes near it (a 64x64 grid in comma
/// form is about 12 KB); a longer one is skipped with an error line, so that a
/// line without end cannot take all memory.
const MAX_LINE: usize = LARGE_BLOCK;

/// The error line given for a line longer than [`MAX_LINE`].
const OVERLONG: &[u8] = b"error: line longer than 4 MiB (no puzzle line is)\n";

/// What [`Blocks`] hands out.
enum Block<'a> {
    /// Whole lines.
    Lines(&'a str),
    /// A line longer than [`MAX_LINE`], skipped (not a comment).
    Overlong,
}

/// A reader's text, a block of whole lines at a time, in one reused buffer.
struct Blocks {
    name: String,
    reader: Box<dyn Read>,
    buffer: Vec<u8>,
    /// Bytes of `buffer` read and not yet handed out.
    filled: usize,
    /// Bytes at the front of `buffer` handed out by the last block.
    taken: usize,
    /// The last block with its bytes that are not UTF-8 replaced.
    repaired: String,
    ended: bool,
}

impl Blocks {
    fn new(name: String, reader: Box<dyn Read>, size: usize) -> Blocks {
        Blocks {
            name,
            reader,
            buffer: vec![0; size],
            filled: 0,
            taken: 0,
            repaired: String::new(),
            ended: false,
        }
    }

    /// The next block: whole lines (the input's last may lack its newline), as
    /// many as the buffer holds, or as the input had at hand when a read gave
    /// less than asked (a pipe, a terminal: answers then come as lines do);
    /// `None` at the end of the input. A line longer than the buffer grows it.
    fn next_block(&mut self) -> io::Result<Option<Block<'_>>> {
        self.buffer.copy_within(self.taken..self.filled, 0);
        self.filled -= self.taken;
        self.taken = 0;
        let mut short = false;
        let end = loop {
            if self.filled == self.buffer.len()
                && self.filled >= MAX_LINE
                && memchr::memchr(b'\n', &self.buffer).is_none()
            {
                return self.skip_line();
            }
            if self.ended {
                break self.filled;
            }
            let full = self.filled == self.buffer.len();
            if (full || short)
                && let Some(newline) = memchr::memrchr(b'\n', &self.buffer[..self.filled])
            {
                break newline + 1;
            }
            if full {
                self.buffer.resize((self.buffer.len() * 2).min(MAX_LINE), 0);
            }
            let space = self.buffer.len() - self.filled;
            match self.reader.read(&mut self.buffer[self.filled..]) {
                Ok(0) => self.ended = true,
                Ok(read) => {
                    self.filled += read;
                    short = read < space;
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    let name = &self.name;
                    return Err(io::Error::new(error.kind(), format!("{name}: {error}")));
                }
            }
        };
        if end == 0 {
            return Ok(None);
        }
        let whole = &self.buffer[..self.filled];
        self.taken = end;
        match std::str::from_utf8(&whole[..end]) {
            Ok(text) => Ok(Some(Block::Lines(text))),
            Err(_) => {
                // Bytes that are not UTF-8 become U+FFFD: their line gets the
                // parser's error (a bad character, where it stands), the others
                // their answers.
                self.repaired = String::from_utf8_lossy(&whole[..end]).into_owned();
                Ok(Some(Block::Lines(&self.repaired)))
            }
        }
    }

    /// Drops the line that fills the buffer, up to its newline (or the end of
    /// the input); a comment is passed over, anything else is `Overlong`.
    fn skip_line(&mut self) -> io::Result<Option<Block<'_>>> {
        let comment = self.buffer.trim_ascii_start().starts_with(b"#");
        loop {
            match self.reader.read(&mut self.buffer) {
                Ok(0) => {
                    self.ended = true;
                    self.filled = 0;
                    break;
                }
                Ok(read) => {
                    if let Some(newline) = memchr::memchr(b'\n', &self.buffer[..read]) {
                        self.taken = newline + 1;
                        self.filled = read;
                        break;
                    }
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    let name = &self.name;
                    return Err(io::Error::new(error.kind(), format!("{name}: {error}")));
                }
            }
        }
        if comment {
            return self.next_block();
        }
        Ok(Some(Block::Overlong))
    }
}

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
    let mut out = io::stdout().lock();
    let terminal = io::stderr().is_terminal();
    let (name, reader, progress) = match source {
        Source::Text(text) => {
            let puzzles: Vec<&str> = puzzle_lines(&text).map(|(_, line)| line).collect();
            let each = |state: &mut T, line: &&str, out: &mut Vec<u8>| answer(state, line, out);
            for chunk in solve_all(&puzzles, threads, each) {
                out.write_all(&chunk)?;
            }
            return out.flush();
        }
        Source::Reader { name, reader, path } => {
            // Out of how many: a file's puzzle lines are counted first (a
            // quick pass, made only for the progress line); stdin's are not
            // known before its end.
            let total = path.and_then(|path| count_puzzles(&path).ok());
            (name, reader, terminal.then(|| Progress::new(total)))
        }
    };
    if threads <= 1 && progress.is_none() {
        // One thread and nothing to draw: the answers go out as a block's
        // worth gathers, the buffers reused.
        let mut blocks = Blocks::new(name, reader, SMALL_BLOCK);
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
        return Ok(());
    }
    let mut blocks = Blocks::new(name, reader, LARGE_BLOCK);
    while let Some(block) = blocks.next_block()? {
        let text = match block {
            Block::Lines(text) => text,
            Block::Overlong => {
                out.write_all(OVERLONG)?;
                if let Some(progress) = &progress {
                    progress.add(1);
                }
                continue;
            }
        };
        let puzzles: Vec<&str> = puzzle_lines(text).map(|(_, line)| line).collect();
        let each = |state: &mut T, line: &&str, out: &mut Vec<u8>| answer(state, line, out);
        for chunk in solve_counted(&puzzles, threads, &each, progress.as_ref()) {
            out.write_all(&chunk)?;
        }
        out.flush()?;
    }
    if let Some(progress) = &progress {
        progress.end();
    }
    out.flush()
}

/// The puzzle lines of the file at `path`.
fn count_puzzles(path: &Path) -> io::Result<usize> {
    let file = std::fs::File::open(path)?;
    let mut blocks = Blocks::new(String::new(), Box::new(file), LARGE_BLOCK);
    let mut count = 0;
    while let Some(block) = blocks.next_block()? {
        count += match block {
            Block::Lines(text) => puzzle_lines(text).count(),
            Block::Overlong => 1,
        };
    }
    Ok(count)
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
pub(super) struct Progress {
    done: AtomicUsize,
    total: Option<usize>,
    started: Instant,
}

impl Progress {
    pub(super) fn new(total: Option<usize>) -> Progress {
        Progress {
            done: AtomicUsize::new(0),
            total,
            started: Instant::now(),
        }
    }

    fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    fn add(&self, answered: usize) {
        self.done.fetch_add(answered, Ordering::Relaxed);
    }

    /// Draws the line once, over the last one.
    fn draw(&self) {
        self.draw_count(self.done());
    }

    /// Draws the line for `finished` puzzles answered.
    fn draw_count(&self, finished: usize) {
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
    fn draw_until(&self, until: usize) {
        loop {
            self.draw();
            if self.done() >= until {
                return;
            }
            std::thread::park_timeout(std::time::Duration::from_millis(100));
        }
    }

    /// The last drawing, and the line ended.
    fn end(&self) {
        self.draw();
        eprintln!();
    }
}

/// Redraws `done / total` on stderr until every puzzle is answered.
pub(super) fn draw_progress(done: &AtomicUsize, total: usize) {
    let progress = Progress::new(Some(total));
    loop {
        let finished = done.load(Ordering::Relaxed);
        progress.draw_count(finished);
        if finished >= total {
            eprintln!();
            return;
        }
        std::thread::park_timeout(std::time::Duration::from_millis(100));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most `step` bytes a read.
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
            let count = self.step.min(into.len()).min(self.bytes.len() - self.at);
            into[..count].copy_from_slice(&self.bytes[self.at..self.at + count]);
            self.at += count;
            Ok(count)
        }
    }

    /// Every block `Blocks` hands out for `bytes`, read `step` bytes at a time
    /// into a buffer of `size`.
    fn blocks(bytes: &[u8], size: usize, step: usize) -> Vec<String> {
        let reader = Trickle {
            bytes: bytes.to_vec(),
            at: 0,
            step,
        };
        let mut blocks = Blocks::new("test".to_owned(), Box::new(reader), size);
        let mut all = Vec::new();
        while let Some(block) = blocks.next_block().unwrap() {
            all.push(match block {
                Block::Lines(text) => text.to_owned(),
                Block::Overlong => "<overlong>".to_owned(),
            });
        }
        all
    }

    #[test]
    fn blocks_hand_out_whole_lines_each_byte_once() {
        let texts = [
            "",
            "\n",
            "one line",
            "a\nb\n",
            "4.....8.5.3\n\n# note\nab\r\ncd\na line longer than the smaller buffers\nlast",
        ];
        for text in texts {
            for (size, step) in [(1, 1), (2, 1), (3, 2), (8, 3), (8, 100), (64, 7)] {
                let got = blocks(text.as_bytes(), size, step);
                let context = format!("{text:?} size {size} step {step}: {got:?}");
                assert_eq!(got.concat(), text, "{context}");
                assert!(got.iter().all(|block| !block.is_empty()), "{context}");
                if let Some((_, whole)) = got.split_last() {
                    assert!(whole.iter().all(|block| block.ends_with('\n')), "{context}");
                }
            }
        }
        // A buffer that holds several lines hands them out together.
        assert_eq!(blocks(b"ab\ncd\nef", 8, 100), ["ab\ncd\n", "ef"]);
    }

    #[test]
    fn a_line_longer_than_the_cap_is_skipped_and_a_comment_silently() {
        let long = "x".repeat(MAX_LINE + 10);
        let comment = format!("  #{long}");
        let text = format!("a\n{long}\nb\n{comment}\nc\n{long}");
        for size in [SMALL_BLOCK, LARGE_BLOCK] {
            let got = blocks(text.as_bytes(), size, 1 << 20);
            assert_eq!(got.concat(), "a\n<overlong>b\nc\n<overlong>", "size {size}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_spoil_only_their_own_line() {
        let bytes = b"first\nse\xffcond\nthird\n";
        for size in [4, 8, 64] {
            let got = blocks(bytes, size, 5).concat();
            assert_eq!(got, "first\nse\u{FFFD}cond\nthird\n", "size {size}");
        }
    }
}
