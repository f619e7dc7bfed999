//! When a connection has completed its handshake, told from its first bytes: the
//! HTTP/2 preface and the SETTINGS frame after it, or a whole HTTP/1.1 request
//! head; with TLS (which tonic runs above these bytes), a handshake record and then
//! application data. Knows nothing of sockets or timers.

/// The HTTP/2 client preface.
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Watches a connection's first bytes for the end of its handshake.
#[derive(Debug)]
pub(super) struct Detector {
    state: State,
}

#[derive(Debug)]
enum State {
    /// Plaintext, not yet told apart: the bytes so far (a prefix of the preface).
    Start {
        seen: usize,
    },
    /// HTTP/2: the first frame's header as it arrives, then its payload to skip.
    Settings {
        header: [u8; 9],
        have: usize,
    },
    /// Bytes left of the SETTINGS frame's payload.
    SettingsPayload {
        left: u64,
    },
    /// HTTP/1.1: the last four bytes, looking for the blank line.
    RequestHead {
        last: u32,
    },
    /// TLS records: the current record header as it arrives, the bytes of its
    /// payload still to skip, and the application-data records seen.
    Tls {
        header: [u8; 5],
        have: usize,
        skip: u64,
        application: u8,
    },
    Done,
}

/// TLS application-data records from the client that complete a handshake: with
/// TLS 1.3 the first carries the client's Finished, the second the first HTTP
/// bytes (with TLS 1.2, the HTTP/2 preface and the SETTINGS acknowledgement).
const TLS_APPLICATION_RECORDS: u8 = 2;

impl Detector {
    pub(super) fn new(tls: bool) -> Detector {
        let state = if tls {
            State::Tls {
                header: [0; 5],
                have: 0,
                skip: 0,
                application: 0,
            }
        } else {
            State::Start { seen: 0 }
        };
        Detector { state }
    }

    /// Takes the next bytes read; true once the handshake is complete.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> bool {
        for &byte in bytes {
            let state = std::mem::replace(&mut self.state, State::Done);
            self.state = state.next(byte);
            if matches!(self.state, State::Done) {
                return true;
            }
        }
        false
    }
}

impl State {
    /// The state after one more byte.
    fn next(self, byte: u8) -> State {
        match self {
            State::Start { seen } => start(seen, byte),
            State::Settings { header, have } => settings(header, have, byte),
            State::SettingsPayload { left } if left <= 1 => State::Done,
            State::SettingsPayload { left } => State::SettingsPayload { left: left - 1 },
            State::RequestHead { last } => {
                let last = last << 8 | u32::from(byte);
                if last == u32::from_be_bytes(*b"\r\n\r\n") {
                    State::Done
                } else {
                    State::RequestHead { last }
                }
            }
            State::Tls {
                header,
                have,
                skip,
                application,
            } if skip > 0 => State::Tls {
                header,
                have,
                skip: skip - 1,
                application,
            },
            State::Tls {
                header,
                have,
                application,
                ..
            } => tls_header(header, have, application, byte),
            State::Done => State::Done,
        }
    }
}

/// Plaintext so far a prefix of the preface, `seen` bytes long.
fn start(seen: usize, byte: u8) -> State {
    if byte != PREFACE[seen] {
        // Not the preface: an HTTP/1.1 request line, read on to its head's end
        // (the bytes so far held no line break past the preface's first).
        let last = PREFACE[..seen]
            .iter()
            .fold(0u32, |last, &b| last << 8 | u32::from(b));
        return State::RequestHead {
            last: last << 8 | u32::from(byte),
        };
    }
    if seen + 1 == PREFACE.len() {
        State::Settings {
            header: [0; 9],
            have: 0,
        }
    } else {
        State::Start { seen: seen + 1 }
    }
}

/// The first HTTP/2 frame's header, `have` bytes of it so far.
fn settings(mut header: [u8; 9], have: usize, byte: u8) -> State {
    header[have] = byte;
    if have + 1 < header.len() {
        return State::Settings {
            header,
            have: have + 1,
        };
    }
    let length = u64::from(header[0]) << 16 | u64::from(header[1]) << 8 | u64::from(header[2]);
    if length == 0 {
        State::Done
    } else {
        State::SettingsPayload { left: length }
    }
}

/// A TLS record header, `have` bytes of it so far, after `application`
/// application-data records.
fn tls_header(mut header: [u8; 5], have: usize, application: u8, byte: u8) -> State {
    header[have] = byte;
    if have + 1 < header.len() {
        return State::Tls {
            header,
            have: have + 1,
            skip: 0,
            application,
        };
    }
    // Content type 23: application data.
    let application = application + u8::from(header[0] == 23);
    if application >= TLS_APPLICATION_RECORDS {
        State::Done
    } else {
        State::Tls {
            header: [0; 5],
            have: 0,
            skip: u64::from(u16::from_be_bytes([header[3], header[4]])),
            application,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `bytes` in chunks of every size; where the handshake completed.
    fn completes_at(tls: bool, bytes: &[u8]) -> Vec<Option<usize>> {
        (1..=bytes.len().max(1))
            .map(|chunk| {
                let mut detector = Detector::new(tls);
                let mut fed = 0;
                for piece in bytes.chunks(chunk) {
                    fed += piece.len();
                    if detector.feed(piece) {
                        return Some(fed.div_ceil(chunk) * chunk);
                    }
                }
                None
            })
            .collect()
    }

    fn check(tls: bool, bytes: &[u8], complete: bool) {
        for (chunk, done) in completes_at(tls, bytes).into_iter().enumerate() {
            assert_eq!(
                done.is_some(),
                complete,
                "chunks of {}: {bytes:?}",
                chunk + 1
            );
        }
    }

    #[test]
    fn an_http2_preface_with_its_settings_completes_the_handshake() {
        let mut bytes = PREFACE.to_vec();
        // A SETTINGS frame with two settings (12 bytes of payload).
        bytes.extend_from_slice(&[0, 0, 12, 4, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&[0; 12]);
        check(false, &bytes, true);
        check(false, &bytes[..bytes.len() - 1], false);
        check(false, &bytes[..PREFACE.len()], false);
        // An empty SETTINGS frame.
        let mut empty = PREFACE.to_vec();
        empty.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]);
        check(false, &empty, true);
    }

    #[test]
    fn an_http1_request_head_completes_the_handshake() {
        let head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        check(false, head, true);
        check(false, &head[..head.len() - 1], false);
        // Starts like the preface, then is not it.
        check(false, b"PRI / HTTP/1.1\r\n\r\n", true);
        check(false, b"POST /sudoku.v1.SudokuService/Solve HTTP/1.1\r\nContent-Type: application/grpc-web\r\n\r\n", true);
        check(false, b"", false);
    }

    #[test]
    fn tls_needs_a_handshake_and_application_data() {
        let record = |kind: u8, length: usize| {
            let mut record = vec![kind, 3, 3, (length >> 8) as u8, length as u8];
            record.extend(std::iter::repeat_n(0xAB, length));
            record
        };
        let hello = record(22, 300);
        let mut bytes = hello.clone();
        bytes.extend(record(20, 1));
        bytes.extend(record(23, 53));
        check(true, &bytes, false);
        bytes.extend(record(23, 80));
        check(true, &bytes, true);
        // Payload bytes that look like record headers are skipped.
        let tricky = [record(22, 10), record(23, 23), record(22, 5), record(23, 1)].concat();
        check(true, &tricky, true);
    }
}
