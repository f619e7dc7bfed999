//! One `sudoku.v1.BatchAnswer` written field by field into a response's bytes,
//! as prost writes the generated type (fields in number order, zero values
//! left out, `stats` present when given), but without prost's walk over the
//! message to size it and its out-of-line varints (the room is made once and
//! filled): the server writes one for every puzzle of a batch. Knows the
//! message's field numbers and nothing of what they mean.

/// A `BatchAnswer`'s fields, borrowed from whoever made the answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Answer<'a> {
    /// `id` (1).
    pub id: &'a str,
    /// `outcome` (2, protobuf value).
    pub outcome: i32,
    /// `solution` (3).
    pub solution: &'a str,
    /// `solution_count` (4).
    pub solution_count: u32,
    /// `stats` (5), a `SolveStats` message when present.
    pub stats: Option<AnswerStats>,
    /// `code` (6).
    pub code: u32,
    /// `error` (7).
    pub error: &'a str,
    /// `algorithm` (8, protobuf value).
    pub algorithm: i32,
}

/// A `SolveStats`'s fields (1 to 4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnswerStats {
    /// `placements` (1).
    pub placements: u64,
    /// `backtracks` (2).
    pub backtracks: u64,
    /// `guesses` (3).
    pub guesses: u64,
    /// `elapsed_micros` (4).
    pub elapsed_micros: u64,
}

/// The key of field `number` with the varint wire type (every number here is
/// under 16: one byte).
const fn varint_key(number: u8) -> u8 {
    number << 3
}

/// The key of length-delimited field `number`.
const fn delimited_key(number: u8) -> u8 {
    number << 3 | 2
}

impl Answer<'_> {
    /// Writes the answer after what `out` holds as field `number` of the
    /// message `out` is (key, length, the answer's fields), into room made
    /// for it at once.
    pub(super) fn write_entry(&self, number: u8, out: &mut Vec<u8>) {
        let stats = self.stats.map(|stats| (stats, stats.encoded_len()));
        let length = self.encoded_len(stats.map(|(_, length)| length));
        let start = out.len();
        out.resize(start + 1 + varint_len(length as u64) + length, 0);
        let mut to = Cursor {
            bytes: &mut out[start..],
            at: 0,
        };
        to.byte(delimited_key(number));
        to.varint(length as u64);
        to.text(1, self.id);
        to.number(2, self.outcome as u64);
        to.text(3, self.solution);
        to.number(4, self.solution_count.into());
        if let Some((stats, length)) = stats {
            to.byte(delimited_key(5));
            to.varint(length as u64);
            for (number, value) in (1..).zip(stats.fields()) {
                to.number(number, value);
            }
        }
        to.number(6, self.code.into());
        to.text(7, self.error);
        to.number(8, self.algorithm as u64);
    }

    /// The length of the answer's fields, its stats' being `stats`.
    #[inline]
    fn encoded_len(&self, stats: Option<usize>) -> usize {
        let mut length = text_len(self.id) + text_len(self.solution) + text_len(self.error);
        length += enum_len(self.outcome) + enum_len(self.algorithm);
        length += number_len(self.solution_count.into()) + number_len(self.code.into());
        if let Some(inner) = stats {
            length += 1 + varint_len(inner as u64) + inner;
        }
        length
    }
}

impl AnswerStats {
    fn fields(&self) -> [u64; 4] {
        [
            self.placements,
            self.backtracks,
            self.guesses,
            self.elapsed_micros,
        ]
    }

    fn encoded_len(&self) -> usize {
        self.fields().into_iter().map(number_len).sum()
    }
}

/// An enum's field: negative values take ten bytes, as protobuf has it.
fn enum_len(value: i32) -> usize {
    number_len(value as u64)
}

/// A varint field's key and value (nothing for zero).
fn number_len(value: u64) -> usize {
    if value == 0 { 0 } else { 1 + varint_len(value) }
}

/// A string field's key, length and bytes (nothing for an empty one).
fn text_len(text: &str) -> usize {
    if text.is_empty() {
        0
    } else {
        1 + varint_len(text.len() as u64) + text.len()
    }
}

/// The bytes of a varint.
fn varint_len(value: u64) -> usize {
    // Seven bits a byte; zero takes one byte.
    (64 - (value | 1).leading_zeros() as usize).div_ceil(7)
}

/// Where the next byte of an answer goes, in room made for the whole answer:
/// writing past it is a length miscounted, a bug the tests catch.
struct Cursor<'a> {
    bytes: &'a mut [u8],
    at: usize,
}

impl Cursor<'_> {
    #[inline]
    fn byte(&mut self, byte: u8) {
        self.bytes[self.at] = byte;
        self.at += 1;
    }

    #[inline]
    fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.byte(value as u8 | 0x80);
            value >>= 7;
        }
        self.byte(value as u8);
    }

    /// A varint field (nothing for zero).
    #[inline]
    fn number(&mut self, number: u8, value: u64) {
        if value != 0 {
            self.byte(varint_key(number));
            self.varint(value);
        }
    }

    /// A string field (nothing for an empty one).
    #[inline]
    fn text(&mut self, number: u8, text: &str) {
        if !text.is_empty() {
            self.byte(delimited_key(number));
            self.varint(text.len() as u64);
            let end = self.at + text.len();
            self.bytes[self.at..end].copy_from_slice(text.as_bytes());
            self.at = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_lengths_match_prost() {
        for shift in 0..64 {
            for value in [1u64 << shift, (1u64 << shift) - 1, (1u64 << shift) + 1] {
                assert_eq!(
                    varint_len(value),
                    prost::encoding::encoded_len_varint(value),
                    "{value}"
                );
                let mut ours = Cursor {
                    bytes: &mut [0; 10],
                    at: 0,
                };
                ours.varint(value);
                let mut theirs = Vec::new();
                prost::encoding::encode_varint(value, &mut theirs);
                assert_eq!(ours.bytes[..ours.at], theirs, "{value}");
            }
        }
        assert_eq!(varint_len(0), 1);
        assert_eq!(varint_len(u64::MAX), 10);
    }

    #[test]
    fn an_entry_fills_the_room_it_made_after_what_was_there() {
        let answer = Answer {
            id: "x",
            outcome: -1,
            solution: &"5".repeat(200),
            solution_count: 2,
            stats: Some(AnswerStats {
                placements: 300,
                elapsed_micros: u64::MAX,
                ..AnswerStats::default()
            }),
            code: 0,
            error: "",
            algorithm: 4,
        };
        let mut out = vec![7];
        answer.write_entry(1, &mut out);
        // The key, a two-byte length, the fields.
        let length = answer.encoded_len(answer.stats.map(|stats| stats.encoded_len()));
        assert_eq!(out.len(), 1 + 1 + 2 + length);
        assert_eq!(out[..2], [7, 0x0a]);
        assert_ne!(*out.last().unwrap(), 0, "the algorithm's value ends it");
    }
}
