//! LZ-string's base64 form read back (what f-puzzles and SudokuPad links
//! carry): an LZW stream whose codes start three bits wide, read six bits a
//! character. The dictionary keeps each entry as its prefix's index and one
//! unit, so memory grows with the input, and the output stops at a cap: a
//! crafted link cannot make a small message into a large text.

use std::fmt;

/// Why a payload is no LZ-string text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LzError {
    /// A character outside the base64 alphabet, at this position.
    NotBase64(usize, char),
    /// The codes end before the end mark.
    Truncated,
    /// A code names no entry of the dictionary.
    BadCode(usize),
    /// The text would be longer than this many units.
    TooLong(usize),
    /// The units are no UTF-16 text.
    NotText,
}

impl fmt::Display for LzError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LzError::NotBase64(at, c) => write!(f, "{c:?} at {at} is not base64"),
            LzError::Truncated => write!(f, "the compressed data ends early"),
            LzError::BadCode(code) => write!(f, "code {code} names nothing yet"),
            LzError::TooLong(cap) => write!(f, "it decompresses past {cap} characters"),
            LzError::NotText => write!(f, "it decompresses to no UTF-16 text"),
        }
    }
}

/// The value of a base64 character (`=` pads, as 0).
fn base64_value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        b'=' => 0,
        _ => return None,
    } as u32)
}

/// The bits of a base64 text, first character first, each character's
/// highest bit first.
struct Bits<'a> {
    text: &'a [u8],
    at: usize,
    value: u32,
    /// The next bit to read of `value` (0: read the next character).
    mask: u32,
}

impl Bits<'_> {
    fn bit(&mut self) -> Result<u32, LzError> {
        if self.mask == 0 {
            let &c = self.text.get(self.at).ok_or(LzError::Truncated)?;
            self.value = base64_value(c).ok_or(LzError::NotBase64(self.at, char::from(c)))?;
            self.at += 1;
            self.mask = 32;
        }
        let bit = u32::from(self.value & self.mask != 0);
        self.mask >>= 1;
        Ok(bit)
    }

    /// A number of `width` bits, its lowest bit read first.
    fn number(&mut self, width: u32) -> Result<u32, LzError> {
        let mut number = 0;
        for place in 0..width {
            number |= self.bit()? << place;
        }
        Ok(number)
    }
}

/// One dictionary entry: its prefix entry (none for a single unit), last
/// unit, first unit and length.
#[derive(Clone, Copy)]
struct Entry {
    prefix: Option<u32>,
    last: u16,
    first: u16,
    len: u32,
}

/// The text of LZ-string's `compressToBase64` output `payload`, at most `cap`
/// UTF-16 units long.
pub fn decompress_base64(payload: &str, cap: usize) -> Result<String, LzError> {
    let mut bits = Bits {
        text: payload.as_bytes(),
        at: 0,
        value: 0,
        mask: 0,
    };
    // Codes 0, 1 and 2 are no entries: an 8-bit unit, a 16-bit unit, the end.
    let mut dictionary: Vec<Entry> = Vec::new();
    let code_of = |dictionary: &Vec<Entry>| dictionary.len() as u32 + 3;
    let mut width = 2;
    let mut grow_in = 1u32;
    let mut out: Vec<u16> = Vec::new();
    let mut last: Option<u32> = None;
    loop {
        let mut code = bits.number(width)?;
        if code <= 1 {
            let unit = bits.number(if code == 0 { 8 } else { 16 })? as u16;
            dictionary.push(Entry {
                prefix: None,
                last: unit,
                first: unit,
                len: 1,
            });
            code = code_of(&dictionary) - 1;
            grow(&mut grow_in, &mut width);
        } else if code == 2 {
            return String::from_utf16(&out).map_err(|_| LzError::NotText);
        }
        let next = code_of(&dictionary);
        // The entry's first unit; the code one past the last entry names
        // the entry about to be made: the last one and its own first unit.
        let first = match (dictionary.get(code as usize - 3), last) {
            (Some(entry), _) => entry.first,
            (None, Some(previous)) if code == next => dictionary[previous as usize - 3].first,
            _ => return Err(LzError::BadCode(code as usize)),
        };
        if let Some(previous) = last {
            let before = dictionary[previous as usize - 3];
            dictionary.push(Entry {
                prefix: Some(previous),
                last: first,
                first: before.first,
                len: before.len + 1,
            });
            grow(&mut grow_in, &mut width);
        }
        write(&dictionary, code, &mut out, cap)?;
        last = Some(code);
    }
}

/// Appends the units of entry `code` to `out`, walking its prefixes from
/// the last unit back; `TooLong` past `cap` units.
fn write(dictionary: &[Entry], code: u32, out: &mut Vec<u16>, cap: usize) -> Result<(), LzError> {
    let entry = dictionary[code as usize - 3];
    if out.len() + entry.len as usize > cap {
        return Err(LzError::TooLong(cap));
    }
    let start = out.len();
    out.resize(start + entry.len as usize, 0);
    let mut at = Some(code);
    for slot in out[start..].iter_mut().rev() {
        let Some(index) = at else { break };
        let here = dictionary[index as usize - 3];
        *slot = here.last;
        at = here.prefix;
    }
    Ok(())
}

/// One code used of the current width: past its last, one bit wider.
fn grow(grow_in: &mut u32, width: &mut u32) {
    *grow_in -= 1;
    if *grow_in == 0 {
        *grow_in = 1 << *width;
        *width += 1;
    }
}
