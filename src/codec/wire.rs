//! How a message of the stubs is written and read: every prost message by
//! prost, `SolveBatch`'s two by their own code (`batch`).

use tonic::Status;
use tonic::codec::{DecodeBuf, EncodeBuf};

/// A message as the stubs write and read it: every prost message by prost,
/// the batch messages by their own code.
pub trait Wire: Sized + Send + 'static {
    /// Writes the message's protobuf encoding.
    fn write(&self, out: &mut EncodeBuf<'_>);

    /// Reads a message from all of `src`; a malformed one is `INTERNAL`, as
    /// gRPC's status code guide has it for a message that does not parse.
    fn read(src: &mut DecodeBuf<'_>) -> Result<Self, Status>;
}

impl<M: prost::Message + Default + Send + 'static> Wire for M {
    fn write(&self, out: &mut EncodeBuf<'_>) {
        // An EncodeBuf grows as it is written: there is always room.
        let _ = self.encode(out);
    }

    fn read(src: &mut DecodeBuf<'_>) -> Result<Self, Status> {
        M::decode(src).map_err(|error| Status::internal(error.to_string()))
    }
}
