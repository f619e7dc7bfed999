//! The codec of the `sudoku.v1` stubs, server and client: prost's, with
//! 1 KiB first buffers instead of tonic's 8 KiB. Every call and every open
//! stream gets an encode and a decode buffer of this size, which grow as a
//! message needs (a batch's 256 answers, a large request); most messages here
//! are a few hundred bytes, and a paced stream holds its buffer for as long as
//! it is open. Knows nothing of the messages.

use std::marker::PhantomData;

use tonic::codec::{BufferSettings, Codec};
use tonic_prost::{ProstDecoder, ProstEncoder};

/// The first size of a call's encode and decode buffers.
pub const BUFFER_BYTES: usize = 1024;

/// How many encoded bytes a stream gathers before tonic sends them (tonic's
/// default).
const YIELD_BYTES: usize = 32 * 1024;

/// prost's codec with [`BUFFER_BYTES`] first buffers (named by `build.rs`).
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

impl<T, U> Codec for SmallBuffers<T, U>
where
    T: prost::Message + Send + 'static,
    U: prost::Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = ProstDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::new(settings())
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstDecoder::new(settings())
    }
}
