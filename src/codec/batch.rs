//! `sudoku.v1.SolveBatchRequest` and `SolveBatchResponse` kept as their
//! protobuf encodings (`build.rs` maps the two messages here). A request's
//! puzzles are read where they lie in the message: an id and a puzzle text are
//! slices of it, not copies, and a request split into chunks shares its bytes.
//! A response is its answers' encodings one after another, each written once
//! by whoever made the answer (the server's by hand, `answer`). Both write and read the same bytes as the
//! generated types would (checked against them in the tests). Knows nothing of
//! what the fields mean.

use std::ops::Range;

use bytes::{Buf, BufMut, Bytes};
use prost::Message;
use prost::encoding::WireType;
use tonic::Status;
use tonic::codec::{DecodeBuf, EncodeBuf};

use super::answer::Answer;
use super::fields::{Malformed, read_key, read_length_delimited, read_varint, skip};
use super::wire::Wire;

/// The field of a request's puzzles and of a response's answers.
const ENTRIES: u32 = 1;

/// A `SolveBatchRequest`: the message's bytes and where its puzzles are.
#[derive(Debug, Clone, Default)]
pub struct SolveBatchRequest {
    message: Bytes,
    puzzles: Vec<Placed>,
}

/// One `BatchPuzzle` of a request as it was read: its fields, the texts as
/// slices of the request's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchItem<'a> {
    /// `id`: the caller's name for the puzzle (not yet checked as UTF-8).
    pub id: &'a [u8],
    /// `puzzle`: its text (not yet checked as UTF-8).
    pub puzzle: &'a [u8],
    /// `algorithm` (protobuf value).
    pub algorithm: i32,
    /// `check_unique`.
    pub check_unique: bool,
    /// `max_steps`.
    pub max_steps: u64,
    /// `rules`, still encoded (`None`: absent).
    pub rules: Option<&'a [u8]>,
}

/// Where a puzzle and its fields lie in the message (start, length).
#[derive(Debug, Clone, Copy, Default)]
struct Placed {
    entry: (u32, u32),
    id: (u32, u32),
    puzzle: (u32, u32),
    algorithm: i32,
    check_unique: bool,
    max_steps: u64,
    rules: Option<(u32, u32)>,
}

impl SolveBatchRequest {
    /// A request of these puzzles (`BatchPuzzle` messages), as a client sends it.
    pub fn new<M: Message>(puzzles: &[M]) -> SolveBatchRequest {
        let mut message = Vec::new();
        for puzzle in puzzles {
            prost::encoding::message::encode(ENTRIES, puzzle, &mut message);
        }
        // A `BatchPuzzle`'s own encoding reads back; a message of another
        // type gives a request without puzzles.
        SolveBatchRequest::read(Bytes::from(message)).unwrap_or_default()
    }

    /// Reads a request's encoding; an error names what is malformed. A field
    /// given twice counts as the last given, as protobuf has it for scalars.
    pub fn read(message: Bytes) -> Result<SolveBatchRequest, Malformed> {
        if u32::try_from(message.len()).is_err() {
            return Err("a message over 4 GiB");
        }
        let mut puzzles = Vec::new();
        for_each_entry(&message, |entry, fields| {
            let mut placed = read_puzzle(fields, entry.end)?;
            placed.entry = span(entry.start, entry.end);
            puzzles.push(placed);
            Ok::<_, Malformed>(())
        })?;
        Ok(SolveBatchRequest { message, puzzles })
    }

    /// How many puzzles the request carries.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// Whether it carries none.
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// Leaves the first `at` puzzles here and returns the others, as a request
    /// of their own that shares this one's bytes.
    pub fn split_off(&mut self, at: usize) -> SolveBatchRequest {
        SolveBatchRequest {
            message: self.message.clone(),
            puzzles: self.puzzles.split_off(at.min(self.puzzles.len())),
        }
    }

    /// The encoding (what the message is on the wire).
    pub fn encoding(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut impl BufMut) {
        for placed in &self.puzzles {
            let (start, length) = placed.entry;
            out.put_slice(&self.message[start as usize..(start + length) as usize]);
        }
    }

    /// The puzzles, in the request's order.
    pub fn puzzles(&self) -> impl ExactSizeIterator<Item = BatchItem<'_>> {
        let bytes = |(start, length): (u32, u32)| {
            &self.message[start as usize..start as usize + length as usize]
        };
        self.puzzles.iter().map(move |placed| BatchItem {
            id: bytes(placed.id),
            puzzle: bytes(placed.puzzle),
            algorithm: placed.algorithm,
            check_unique: placed.check_unique,
            max_steps: placed.max_steps,
            rules: placed.rules.map(bytes),
        })
    }
}

/// Walks a message's entries (field 1, each length-delimited), stepping over
/// its other fields: `entry` gets where each entry lies in the message and its
/// contents (the end of that range).
fn for_each_entry<'a, E: From<Malformed>>(
    message: &'a [u8],
    mut entry: impl FnMut(Range<usize>, &'a [u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut rest = message;
    while rest.has_remaining() {
        let start = message.len() - rest.len();
        let (tag, wire_type) = read_key(&mut rest)?;
        if tag != ENTRIES {
            skip(wire_type, &mut rest)?;
            continue;
        }
        if wire_type != WireType::LengthDelimited {
            return Err(E::from("entries of the wrong wire type"));
        }
        let contents = read_length_delimited(&mut rest)?;
        entry(start..message.len() - rest.len(), contents)?;
    }
    Ok(())
}

/// (start, length) of `start..end`: both within a message under 4 GiB.
fn span(start: usize, end: usize) -> (u32, u32) {
    (start as u32, (end - start) as u32)
}

/// A `BatchPuzzle`'s fields, which end at `end` in the message.
fn read_puzzle(mut fields: &[u8], end: usize) -> Result<Placed, Malformed> {
    let start = end - fields.len();
    let at = |rest: &[u8]| end - rest.len();
    let mut placed = Placed {
        id: span(start, start),
        puzzle: span(start, start),
        ..Placed::default()
    };
    while fields.has_remaining() {
        let (tag, wire_type) = read_key(&mut fields)?;
        match (tag, wire_type) {
            (1 | 2 | 6, WireType::LengthDelimited) => {
                let length = read_length_delimited(&mut fields)?.len();
                let value = span(at(fields) - length, at(fields));
                match tag {
                    1 => placed.id = value,
                    2 => placed.puzzle = value,
                    _ => placed.rules = Some(value),
                }
            }
            (3, WireType::Varint) => placed.algorithm = read_varint(&mut fields)? as i32,
            (4, WireType::Varint) => placed.check_unique = read_varint(&mut fields)? != 0,
            (5, WireType::Varint) => placed.max_steps = read_varint(&mut fields)?,
            (1..=6, _) => return Err("a puzzle's field of the wrong wire type"),
            _ => skip(wire_type, &mut fields)?,
        }
    }
    Ok(placed)
}

impl Wire for SolveBatchRequest {
    fn write(&self, out: &mut EncodeBuf<'_>) {
        self.write_to(out);
    }

    fn read(src: &mut DecodeBuf<'_>) -> Result<Self, Status> {
        let message = src.copy_to_bytes(src.remaining());
        SolveBatchRequest::read(message).map_err(|what| {
            Status::internal(format!("failed to decode a SolveBatchRequest: {what}"))
        })
    }
}

/// A `SolveBatchResponse`: its answers' encodings one after another, in parts
/// (a worker's chunk each: chunks gathered into one message are moved, not
/// copied, and written out one after another).
#[derive(Debug, Clone, Default)]
pub struct SolveBatchResponse {
    parts: Vec<Vec<u8>>,
    answers: usize,
}

impl SolveBatchResponse {
    /// An empty response with room for `answers` answers of about `bytes` each.
    pub fn with_capacity(answers: usize, bytes: usize) -> SolveBatchResponse {
        SolveBatchResponse {
            parts: vec![Vec::with_capacity(answers * bytes)],
            answers: 0,
        }
    }

    /// Adds an answer (a `BatchAnswer` message).
    pub fn push(&mut self, answer: &impl Message) {
        prost::encoding::message::encode(ENTRIES, answer, self.last_part());
        self.answers += 1;
    }

    /// Adds an answer given by its fields, written by hand (the server's way:
    /// the same bytes as [`SolveBatchResponse::push`] of the generated type).
    pub fn push_answer(&mut self, answer: &Answer<'_>) {
        answer.write_entry(ENTRIES as u8, self.last_part());
        self.answers += 1;
    }

    /// The part answers are added to.
    fn last_part(&mut self) -> &mut Vec<u8> {
        if self.parts.is_empty() {
            self.parts.push(Vec::new());
        }
        let last = self.parts.len() - 1;
        &mut self.parts[last]
    }

    /// Adds `other`'s answers after these.
    pub fn append(&mut self, other: SolveBatchResponse) {
        self.parts.extend(other.parts);
        self.answers += other.answers;
    }

    /// How many answers it carries.
    pub fn len(&self) -> usize {
        self.answers
    }

    /// Whether it carries none.
    pub fn is_empty(&self) -> bool {
        self.answers == 0
    }

    /// The answers, read as `M` (`BatchAnswer`); an error says what did not
    /// decode.
    pub fn answers<M: Message + Default>(&self) -> Result<Vec<M>, String> {
        let mut answers = Vec::with_capacity(self.answers);
        for part in &self.parts {
            for_each_entry(part, |_, contents| {
                answers.push(M::decode(contents).map_err(|error| error.to_string())?);
                Ok::<_, String>(())
            })?;
        }
        Ok(answers)
    }

    /// Reads a response's encoding; an error names what is malformed.
    pub fn read(message: &[u8]) -> Result<SolveBatchResponse, Malformed> {
        let mut answers = 0;
        for_each_entry(message, |_, _| {
            answers += 1;
            Ok::<_, Malformed>(())
        })?;
        Ok(SolveBatchResponse {
            parts: vec![message.to_vec()],
            answers,
        })
    }

    /// The encoding (what the message is on the wire).
    pub fn encoding(&self) -> std::borrow::Cow<'_, [u8]> {
        match self.parts.as_slice() {
            [] => std::borrow::Cow::Borrowed(&[]),
            [one] => std::borrow::Cow::Borrowed(one),
            parts => std::borrow::Cow::Owned(parts.concat()),
        }
    }
}

impl Wire for SolveBatchResponse {
    fn write(&self, out: &mut EncodeBuf<'_>) {
        for part in &self.parts {
            out.put_slice(part);
        }
    }

    fn read(src: &mut DecodeBuf<'_>) -> Result<Self, Status> {
        let message = src.copy_to_bytes(src.remaining());
        SolveBatchResponse::read(&message).map_err(|what| {
            Status::internal(format!("failed to decode a SolveBatchResponse: {what}"))
        })
    }
}
