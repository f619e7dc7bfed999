//! The `SolveBatch` messages as this client writes and reads them: the same
//! fields and tags as `pb::SolveBatchRequest` and `pb::SolveBatchResponse`, but
//! the puzzle and the solution as `Bytes` (string and bytes share the wire
//! form), so a puzzle goes out as a slice of the input file and a solution comes
//! in as a slice of the message it arrived in: no allocation or copy a puzzle on
//! either side. The answers' statistics and algorithm are not read (prost skips
//! the fields a type does not name). Knows nothing of the queue or the output.

use bytes::Bytes;
use tonic::codec::Streaming;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic::{GrpcMethod, Request, Status};

/// One request message: puzzles for the server (`pb::SolveBatchRequest`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Puzzles {
    /// The puzzles.
    #[prost(message, repeated, tag = "1")]
    pub puzzles: Vec<Puzzle>,
}

/// One puzzle of a request (`pb::BatchPuzzle`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Puzzle {
    /// The puzzle's index in the run, in decimal.
    #[prost(string, tag = "1")]
    pub id: String,
    /// The puzzle text: UTF-8, since it is a slice of the input text.
    #[prost(bytes = "bytes", tag = "2")]
    pub puzzle: Bytes,
    /// The algorithm (protobuf value).
    #[prost(int32, tag = "3")]
    pub algorithm: i32,
    /// Count solutions up to two.
    #[prost(bool, tag = "4")]
    pub check_unique: bool,
    /// The step cap (0: the server's).
    #[prost(uint64, tag = "5")]
    pub max_steps: u64,
}

/// One response message: answers as they finished (`pb::SolveBatchResponse`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Answers {
    /// The answers.
    #[prost(message, repeated, tag = "1")]
    pub answers: Vec<Answer>,
}

/// One answer (`pb::BatchAnswer`), what the client needs of it.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Answer {
    /// The puzzle's id as sent.
    #[prost(bytes = "bytes", tag = "1")]
    pub id: Bytes,
    /// Solved or unsolvable (protobuf value); unspecified on an error.
    #[prost(int32, tag = "2")]
    pub outcome: i32,
    /// The 81 digits of the solution; empty unless solved.
    #[prost(bytes = "bytes", tag = "3")]
    pub solution: Bytes,
    /// Solutions counted (0, 1 or 2), when asked for.
    #[prost(uint32, tag = "4")]
    pub solution_count: u32,
    /// The status code `Solve` would have failed with; 0 when answered.
    #[prost(uint32, tag = "6")]
    pub code: u32,
    /// The message `Solve` would have failed with.
    #[prost(string, tag = "7")]
    pub error: String,
}

impl Answer {
    /// The id as the index it was made from, if it is one.
    pub fn index(&self) -> Option<usize> {
        std::str::from_utf8(&self.id).ok()?.parse().ok()
    }
}

/// Opens a `SolveBatch` call on `channel`, as the generated client would, with
/// these message types.
pub async fn solve_batch(
    channel: Channel,
    request: Request<impl tokio_stream::Stream<Item = Puzzles> + Send + 'static>,
) -> Result<Streaming<Answers>, Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|error| Status::unavailable(format!("the channel is not ready: {error}")))?;
    let path = PathAndQuery::from_static("/sudoku.v1.SudokuService/SolveBatch");
    let mut request = request;
    request
        .extensions_mut()
        .insert(GrpcMethod::new("sudoku.v1.SudokuService", "SolveBatch"));
    let codec = tonic_prost::ProstCodec::<Puzzles, Answers>::default();
    Ok(grpc.streaming(request, path, codec).await?.into_inner())
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;
    use crate::pb;

    #[test]
    fn a_request_reads_as_the_generated_message() {
        let sent = Puzzles {
            puzzles: vec![Puzzle {
                id: "17".into(),
                puzzle: Bytes::from_static(b"1.3"),
                algorithm: pb::Algorithm::Singles as i32,
                check_unique: true,
                max_steps: 99,
            }],
        };
        let read = pb::SolveBatchRequest::decode(sent.encode_to_vec().as_slice()).unwrap();
        let expected = pb::BatchPuzzle {
            id: "17".into(),
            puzzle: "1.3".into(),
            algorithm: pb::Algorithm::Singles as i32,
            check_unique: true,
            max_steps: 99,
        };
        assert_eq!(read.puzzles, vec![expected]);
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
                ..Default::default()
            }),
            algorithm: pb::Algorithm::Propagation as i32,
            code,
            error: error.into(),
        };
        let sent = pb::SolveBatchResponse {
            answers: vec![answer("4", 0, ""), answer("x", 3, "invalid puzzle")],
        };
        let read = Answers::decode(sent.encode_to_vec().as_slice()).unwrap();
        let fields: Vec<_> = read
            .answers
            .iter()
            .map(|a| (a.index(), a.outcome, &a.solution[..], a.solution_count))
            .collect();
        let solved = pb::Outcome::Solved as i32;
        assert_eq!(
            fields,
            [
                (Some(4), solved, &b"123"[..], 2),
                (None, solved, &b"123"[..], 2)
            ]
        );
        assert_eq!(
            (read.answers[1].code, &*read.answers[1].error),
            (3, "invalid puzzle")
        );
    }
}
