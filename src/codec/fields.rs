//! Reading protobuf fields in place from a message's bytes: a key, a varint, a
//! length-delimited field as a slice of the message (no copy), a field skipped.
//! Each error names what was malformed. Knows nothing of any message.

use bytes::{Buf, Bytes};
use prost::encoding::{WireType, decode_key, decode_varint};

/// What was malformed in a message.
pub type Malformed = &'static str;

/// Bytes read from the front: a borrowed slice, or shared `Bytes` (whose
/// slices keep the message alive).
pub trait Cursor: Buf + Sized {
    /// The next `length` bytes (at most what remains), as a cursor of their own.
    fn take_front(&mut self, length: usize) -> Self;
}

impl Cursor for &[u8] {
    fn take_front(&mut self, length: usize) -> Self {
        let (front, rest) = self.split_at(length);
        *self = rest;
        front
    }
}

impl Cursor for Bytes {
    fn take_front(&mut self, length: usize) -> Self {
        self.split_to(length)
    }
}

/// The next field's number and wire type.
#[inline(always)]
pub fn read_key(message: &mut impl Cursor) -> Result<(u32, WireType), Malformed> {
    // Fields 1 to 15 have one-byte keys: read here, without a call.
    if let Some(&byte) = message.chunk().first()
        && (8..0x80).contains(&byte)
        && let Ok(wire_type) = WireType::try_from(u64::from(byte & 7))
    {
        message.advance(1);
        return Ok((u32::from(byte >> 3), wire_type));
    }
    decode_key(message).map_err(|_| "a malformed field key")
}

/// The next varint.
#[inline(always)]
pub fn read_varint(message: &mut impl Cursor) -> Result<u64, Malformed> {
    // Values under 128 (most lengths and flags here) take one byte.
    if let Some(&byte) = message.chunk().first()
        && byte < 0x80
    {
        message.advance(1);
        return Ok(u64::from(byte));
    }
    decode_varint(message).map_err(|_| "a malformed varint")
}

/// The next length-delimited field's contents, a slice of `message`.
#[inline(always)]
pub fn read_length_delimited<C: Cursor>(message: &mut C) -> Result<C, Malformed> {
    let length = read_varint(message)?;
    match usize::try_from(length) {
        Ok(length) if length <= message.remaining() => Ok(message.take_front(length)),
        _ => Err("a length past the message's end"),
    }
}

/// Steps over a field of `wire_type` whose key was just read.
pub fn skip(wire_type: WireType, message: &mut impl Cursor) -> Result<(), Malformed> {
    let length = match wire_type {
        WireType::Varint => return read_varint(message).map(drop),
        WireType::LengthDelimited => return read_length_delimited(message).map(drop),
        WireType::SixtyFourBit => 8,
        WireType::ThirtyTwoBit => 4,
        WireType::StartGroup | WireType::EndGroup => return Err("a group field"),
    };
    if message.remaining() < length {
        return Err("a field past the message's end");
    }
    message.advance(length);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Keys and varints read as prost reads them (the one-byte fast paths
        /// included), and an error where prost finds one.
        #[test]
        fn keys_and_varints_read_as_prost_reads_them(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..12),
        ) {
            let (mut ours, mut theirs) = (&bytes[..], &bytes[..]);
            let key = read_key(&mut ours).ok();
            proptest::prop_assert_eq!(key, decode_key(&mut theirs).ok());
            if key.is_some() {
                proptest::prop_assert_eq!(ours.len(), theirs.len());
            }
            let (mut ours, mut theirs) = (&bytes[..], &bytes[..]);
            let varint = read_varint(&mut ours).ok();
            proptest::prop_assert_eq!(varint, decode_varint(&mut theirs).ok());
            if varint.is_some() {
                proptest::prop_assert_eq!(ours.len(), theirs.len());
            }
        }
    }
}
