//! Puzzle lines from a file or stdin, read a block of whole lines at a time
//! into one reused buffer: what the local commands answer from (`lines.rs`),
//! with memory bounded whatever the input's size.

use std::io::{self, Read};
use std::path::Path;

use crate::board::puzzle_lines;

/// Where puzzle lines come from: a text at hand (an `--fpuzzles` link's puzzle),
/// or a file or stdin, read a block of lines at a time.
pub(super) enum Source {
    Text(String),
    Reader {
        reader: Box<dyn Read>,
        /// The file's path; `None` for stdin.
        path: Option<std::path::PathBuf>,
    },
}

/// What read errors name: the file's path as given, or `stdin`.
pub(super) fn name_of(path: Option<&Path>) -> String {
    path.map_or_else(|| "stdin".to_owned(), |path| path.display().to_string())
}

/// `error` with what it befell in front (`name: error`).
fn named(name: &str, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{name}: {error}"))
}

impl Source {
    /// `file`, or stdin when it is absent or `-`. A file is opened here, so that
    /// one that cannot be read fails before any output.
    pub(super) fn open(file: Option<&Path>) -> io::Result<Source> {
        match file {
            Some(path) if path.as_os_str() != "-" => {
                let file = std::fs::File::open(path)
                    .map_err(|error| named(&name_of(Some(path)), error))?;
                Ok(Source::Reader {
                    reader: Box::new(file),
                    path: Some(path.to_owned()),
                })
            }
            _ => Ok(Source::Reader {
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
            Source::Reader { mut reader, path } => {
                let mut text = String::new();
                reader
                    .read_to_string(&mut text)
                    .map_err(|error| named(&name_of(path.as_deref()), error))?;
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
pub(super) const SMALL_BLOCK: usize = 1 << 16;
/// Bytes read at a time with several threads: enough puzzles that the threads
/// rarely wait for each other at a block's end.
pub(super) const LARGE_BLOCK: usize = 1 << 22;

/// The longest line read: no puzzle line comes near it (a 64x64 grid in comma
/// form is about 12 KB); a longer one is skipped with an error line, so that a
/// line without end cannot take all memory.
const MAX_LINE: usize = LARGE_BLOCK;

/// The error line given for a line longer than [`MAX_LINE`].
pub(super) const OVERLONG: &[u8] = b"error: line longer than 4 MiB (no puzzle line is)\n";

/// What [`Blocks`] hands out.
pub(super) enum Block<'a> {
    /// Whole lines.
    Lines(&'a str),
    /// A line longer than [`MAX_LINE`], skipped (not a comment).
    Overlong,
}

/// A reader's text, a block of whole lines at a time, in one reused buffer.
pub(super) struct Blocks {
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
    pub(super) fn new(name: String, reader: Box<dyn Read>, size: usize) -> Blocks {
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
    pub(super) fn next_block(&mut self) -> io::Result<Option<Block<'_>>> {
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
            match self.read_at(self.filled)? {
                0 => self.ended = true,
                read => {
                    self.filled += read;
                    short = read < space;
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

    /// One read into the buffer from `at` on (0 at the input's end), tried
    /// again when a signal interrupted it; an error names the input.
    fn read_at(&mut self, at: usize) -> io::Result<usize> {
        loop {
            match self.reader.read(&mut self.buffer[at..]) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                read => return read.map_err(|error| named(&self.name, error)),
            }
        }
    }

    /// Drops the line that fills the buffer, up to its newline (or the end of
    /// the input); a comment is passed over, anything else is `Overlong`.
    fn skip_line(&mut self) -> io::Result<Option<Block<'_>>> {
        let comment = self.buffer.trim_ascii_start().starts_with(b"#");
        loop {
            let read = self.read_at(0)?;
            if read == 0 {
                self.ended = true;
                self.filled = 0;
                break;
            }
            if let Some(newline) = memchr::memchr(b'\n', &self.buffer[..read]) {
                self.taken = newline + 1;
                self.filled = read;
                break;
            }
        }
        if comment {
            return self.next_block();
        }
        Ok(Some(Block::Overlong))
    }
}

/// The puzzle lines of the file at `path`.
pub(super) fn count_puzzles(path: &Path) -> io::Result<usize> {
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
