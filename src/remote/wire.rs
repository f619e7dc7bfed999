//! The `SolveBatch` messages as this client writes and reads them, by a codec
//! of its own: a request is written straight from the puzzles' indices and the
//! input's slices (the same bytes `pb::SolveBatchRequest` would encode to, with
//! no message built first), and a response is read into answers whose solution
//! is a slice of the message it came in and whose id is read as the index it
//! was written from. The statistics and algorithm of an answer are skipped
//! unread. Knows nothing of the queue or the output.

use std::sync::Arc;

use bytes::{Buf, BufMut, Bytes};
use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, key_len};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder, Streaming};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic::{GrpcMethod, Request, Status};

use crate::codec::fields::{read_key, read_length_delimited, read_varint, skip};

/// What to ask of every puzzle.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The algorithm (protobuf value).
    pub algorithm: i32,
    /// Count solutions up to two.
    pub check_unique: bool,
    /// The step cap (0: the server's).
    pub max_steps: u64,
    /// The puzzles' rules as an encoded `pb::Rules` (empty: none, 9x9).
    pub rules: Vec<u8>,
}

/// One request message: the puzzles of these indices (`pb::SolveBatchRequest`,
/// each puzzle's id its index in decimal).
pub struct Puzzles {
    /// The puzzles' indices in `texts`.
    pub indices: Vec<usize>,
    /// Every puzzle text of the run.
    pub texts: Arc<Vec<Bytes>>,
    /// What to ask of each.
    pub settings: Arc<Settings>,
}

/// One answer (`pb::BatchAnswer`), what the client needs of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    /// The puzzle's id read as an index; `None` when it is not one.
    pub index: Option<usize>,
    /// Solved or unsolvable (protobuf value); unspecified on an error.
    pub outcome: i32,
    /// The 81 digits of the solution; empty unless solved.
    pub solution: Bytes,
    /// Solutions counted (0, 1 or 2), when asked for.
    pub solution_count: u32,
    /// The status code `Solve` would have failed with; 0 when answered.
    pub code: u32,
    /// The message `Solve` would have failed with.
    pub error: String,
}

/// Field numbers, as in the proto.
const PUZZLES: u32 = 1;
const ANSWERS: u32 = 1;

/// Writes a request message's protobuf encoding: the fields a `BatchPuzzle`
/// sets, in field order, default values left out as protobuf does.
pub fn write_puzzles(message: &Puzzles, out: &mut impl BufMut) {
    let settings = &message.settings;
    let mut digits = itoa::Buffer::new();
    for &index in &message.indices {
        let id = digits.format(index).as_bytes();
        let text = &message.texts[index];
        let fields = [
            (1, Field::Bytes(id)),
            (2, Field::Bytes(text)),
            (3, Field::Varint(settings.algorithm as u64)),
            (4, Field::Varint(u64::from(settings.check_unique))),
            (5, Field::Varint(settings.max_steps)),
            (6, Field::Bytes(&settings.rules)),
        ];
        let length: usize = fields.iter().map(|(tag, field)| field.len(*tag)).sum();
        encode_key(PUZZLES, WireType::LengthDelimited, out);
        encode_varint(length as u64, out);
        for (tag, field) in &fields {
            field.write(*tag, out);
        }
    }
}

/// A field of a puzzle as written (a default value writes nothing).
enum Field<'a> {
    Bytes(&'a [u8]),
    Varint(u64),
}

impl Field<'_> {
    fn len(&self, tag: u32) -> usize {
        let key = key_len(tag);
        match *self {
            Field::Bytes([]) | Field::Varint(0) => 0,
            Field::Bytes(bytes) => key + encoded_len_varint(bytes.len() as u64) + bytes.len(),
            Field::Varint(value) => key + encoded_len_varint(value),
        }
    }

    fn write(&self, tag: u32, out: &mut impl BufMut) {
        match *self {
            Field::Bytes([]) | Field::Varint(0) => {}
            Field::Bytes(bytes) => {
                encode_key(tag, WireType::LengthDelimited, out);
                encode_varint(bytes.len() as u64, out);
                out.put_slice(bytes);
            }
            Field::Varint(value) => {
                encode_key(tag, WireType::Varint, out);
                encode_varint(value, out);
            }
        }
    }
}

/// Reads a response message's answers; an error names what was malformed.
pub fn read_answers(mut message: Bytes) -> Result<Vec<Answer>, &'static str> {
    let mut answers = Vec::new();
    while message.has_remaining() {
        let (tag, wire_type) = read_key(&mut message)?;
        if tag == ANSWERS && wire_type == WireType::LengthDelimited {
            let answer = read_length_delimited(&mut message)?;
            answers.push(read_answer(answer)?);
        } else {
            skip(wire_type, &mut message)?;
        }
    }
    Ok(answers)
}

fn read_answer(mut message: Bytes) -> Result<Answer, &'static str> {
    let mut answer = Answer::default();
    while message.has_remaining() {
        let (tag, wire_type) = read_key(&mut message)?;
        match (tag, wire_type) {
            (1, WireType::LengthDelimited) => {
                answer.index = index_of(&read_length_delimited(&mut message)?);
            }
            (2, WireType::Varint) => answer.outcome = read_varint(&mut message)? as i32,
            (3, WireType::LengthDelimited) => {
                answer.solution = read_length_delimited(&mut message)?;
            }
            (4, WireType::Varint) => answer.solution_count = read_varint(&mut message)? as u32,
            (6, WireType::Varint) => answer.code = read_varint(&mut message)? as u32,
            (7, WireType::LengthDelimited) => {
                let error = read_length_delimited(&mut message)?;
                answer.error = String::from_utf8(error.to_vec())
                    .map_err(|_| "an answer's error is not UTF-8")?;
            }
            _ => skip(wire_type, &mut message)?,
        }
    }
    Ok(answer)
}

/// An id as the index it was written from: decimal digits, no sign, no
/// leading zero (so that one index has one id), not past `usize`.
fn index_of(id: &[u8]) -> Option<usize> {
    if id.is_empty() || (id.len() > 1 && id[0] == b'0') {
        return None;
    }
    id.iter().try_fold(0usize, |index, &byte| {
        let digit = byte.checked_sub(b'0').filter(|digit| *digit < 10)?;
        index.checked_mul(10)?.checked_add(usize::from(digit))
    })
}

/// The codec of a `SolveBatch` call made by this client.
#[derive(Debug, Clone, Copy, Default)]
pub struct BatchCodec;

impl Codec for BatchCodec {
    type Encode = Puzzles;
    type Decode = Vec<Answer>;
    type Encoder = BatchCodec;
    type Decoder = BatchCodec;

    fn encoder(&mut self) -> BatchCodec {
        BatchCodec
    }

    fn decoder(&mut self) -> BatchCodec {
        BatchCodec
    }
}

impl Encoder for BatchCodec {
    type Item = Puzzles;
    type Error = Status;

    fn encode(&mut self, item: Puzzles, out: &mut EncodeBuf<'_>) -> Result<(), Status> {
        write_puzzles(&item, out);
        Ok(())
    }
}

impl Decoder for BatchCodec {
    type Item = Vec<Answer>;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<Answer>>, Status> {
        let message = src.copy_to_bytes(src.remaining());
        read_answers(message)
            .map(Some)
            .map_err(|what| Status::internal(format!("a SolveBatch answer with {what}")))
    }
}

/// Opens a `SolveBatch` call on `channel`, as the generated client would, with
/// this client's codec.
pub async fn solve_batch(
    channel: Channel,
    request: Request<impl tokio_stream::Stream<Item = Puzzles> + Send + 'static>,
) -> Result<Streaming<Vec<Answer>>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|error| Status::unavailable(format!("the channel is not ready: {error}")))?;
    let path = PathAndQuery::from_static("/sudoku.v1.SudokuService/SolveBatch");
    let mut request = request;
    request
        .extensions_mut()
        .insert(GrpcMethod::new("sudoku.v1.SudokuService", "SolveBatch"));
    Ok(grpc
        .streaming(request, path, BatchCodec)
        .await?
        .into_inner())
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;
    use crate::pb;

    #[test]
    fn a_request_reads_as_the_generated_message() {
        let sixteen = pb::Rules {
            box_rows: 4,
            box_cols: 4,
            symbols: String::new(),
            ..pb::Rules::default()
        };
        for (algorithm, check_unique, max_steps, rules) in
            [(3, true, 99, sixteen), (0, false, 0, pb::Rules::default())]
        {
            let sent = Puzzles {
                indices: vec![17, 0, 1_000_000],
                texts: Arc::new(
                    (0..=1_000_000)
                        .map(|index| {
                            Bytes::from(if index == 0 {
                                String::new()
                            } else {
                                format!("{index}.3")
                            })
                        })
                        .collect(),
                ),
                settings: Arc::new(Settings {
                    algorithm,
                    check_unique,
                    max_steps,
                    rules: rules.encode_to_vec(),
                }),
            };
            let mut written = Vec::new();
            write_puzzles(&sent, &mut written);
            let expected: Vec<pb::BatchPuzzle> = [17, 0, 1_000_000]
                .iter()
                .map(|&index: &usize| pb::BatchPuzzle {
                    id: index.to_string(),
                    puzzle: if index == 0 {
                        String::new()
                    } else {
                        format!("{index}.3")
                    },
                    algorithm,
                    check_unique,
                    max_steps,
                    rules: Some(rules.clone()).filter(|rules| *rules != pb::Rules::default()),
                })
                .collect();
            let by_prost = pb::SolveBatchRequest::new(&expected).encoding();
            assert_eq!(written, by_prost, "the same bytes as prost's");
        }
    }

    #[test]
    fn an_answer_reads_as_the_generated_message_wrote_it() {
        let answer = |id: &str, code: u32, error: &str| pb::BatchAnswer {
            id: id.into(),
            outcome: pb::Outcome::Solved as i32,
            solution: "123".into(),
            solution_count: 2,
            stats: Some(pb::SolveStats {
                placements: 5,
                elapsed_micros: 12_345,
                ..Default::default()
            }),
            algorithm: pb::Algorithm::Propagation as i32,
            code,
            error: error.into(),
        };
        let mut sent = pb::SolveBatchResponse::default();
        sent.push(&answer("4", 0, ""));
        sent.push(&answer("x", 3, "invalid puzzle"));
        let read = read_answers(Bytes::copy_from_slice(&sent.encoding())).unwrap();
        let solved = pb::Outcome::Solved as i32;
        let expected = |index, code, error: &str| Answer {
            index,
            outcome: solved,
            solution: Bytes::from_static(b"123"),
            solution_count: 2,
            code,
            error: error.into(),
        };
        assert_eq!(
            read,
            [
                expected(Some(4), 0, ""),
                expected(None, 3, "invalid puzzle")
            ]
        );
    }

    #[test]
    fn only_an_index_in_its_one_decimal_form_is_an_index() {
        let read: Vec<_> = [
            "0",
            "7",
            "120",
            "007",
            "",
            "-1",
            "1x",
            "99999999999999999999999",
        ]
        .iter()
        .map(|id| index_of(id.as_bytes()))
        .collect();
        assert_eq!(
            read,
            [Some(0), Some(7), Some(120), None, None, None, None, None]
        );
    }

    #[test]
    fn a_malformed_message_is_an_error_not_a_panic() {
        let mut whole = pb::SolveBatchResponse::default();
        whole.push(&pb::BatchAnswer {
            id: "1".into(),
            solution: "1".repeat(81),
            ..Default::default()
        });
        let whole = whole.encoding();
        for cut in 1..whole.len() {
            assert!(
                read_answers(Bytes::copy_from_slice(&whole[..cut])).is_err(),
                "cut at {cut}"
            );
        }
        for bad in [&[0x0b][..], &[0x0a, 0x02, 0x3b, 0x00], &[0xff; 11]] {
            assert!(
                read_answers(Bytes::copy_from_slice(bad)).is_err(),
                "{bad:?}"
            );
        }
    }
}
