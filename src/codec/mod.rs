//! The codec of the `sudoku.v1` stubs, server and client: prost's, with
//! 1 KiB first buffers instead of tonic's 8 KiB. Every call and every open
//! stream gets an encode and a decode buffer of this size, which grow as a
//! message needs (a batch's 256 answers, a large request); most messages here
//! are a few hundred bytes, and a paced stream holds its buffer for as long as
//! it is open. `SolveBatch`'s two messages are kept as their encodings
//! (`batch`): a batch's puzzles are read in place and its answers written
//! straight into the message. Knows nothing of the other messages.
//!
//! - `wire`: how a message is written and read (prost's, or its own code);
//! - `fields`: reading a field in place (key, varint, slice, skip);
//! - `batch`: `SolveBatchRequest` and `SolveBatchResponse`;
//! - `answer`: a `BatchAnswer` written by hand, field by field.

use std::marker::PhantomData;

use tonic::Status;
use tonic::codec::{BufferSettings, Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

mod answer;
mod batch;
pub mod fields;
mod wire;

pub use answer::{Answer, AnswerStats};
pub use batch::{BatchItem, SolveBatchRequest, SolveBatchResponse};
pub use wire::Wire;

/// The first size of a call's encode and decode buffers.
pub const BUFFER_BYTES: usize = 1024;

/// How many encoded bytes a stream gathers before tonic sends them (tonic's
/// default).
const YIELD_BYTES: usize = 32 * 1024;

/// The stubs' codec (named by `build.rs`): [`BUFFER_BYTES`] first buffers.
#[derive(Debug, Clone, Copy)]
pub struct SmallBuffers<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for SmallBuffers<T, U> {
    fn default() -> Self {
        SmallBuffers(PhantomData)
    }
}

fn settings() -> BufferSettings {
    BufferSettings::new(BUFFER_BYTES, YIELD_BYTES)
}

impl<T: Wire, U: Wire> Codec for SmallBuffers<T, U> {
    type Encode = T;
    type Decode = U;
    type Encoder = WireEncoder<T>;
    type Decoder = WireDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        WireEncoder(PhantomData)
    }

    fn decoder(&mut self) -> Self::Decoder {
        WireDecoder(PhantomData)
    }
}

/// Writes `T`s.
#[derive(Debug)]
pub struct WireEncoder<T>(PhantomData<T>);

impl<T: Wire> Encoder for WireEncoder<T> {
    type Item = T;
    type Error = Status;

    fn encode(&mut self, item: T, out: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.write(out);
        Ok(())
    }

    fn buffer_settings(&self) -> BufferSettings {
        settings()
    }
}

/// Reads `U`s.
#[derive(Debug)]
pub struct WireDecoder<U>(PhantomData<U>);

impl<U: Wire> Decoder for WireDecoder<U> {
    type Item = U;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<U>, Status> {
        U::read(src).map(Some)
    }

    fn buffer_settings(&self) -> BufferSettings {
        settings()
    }
}
