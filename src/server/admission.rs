//! Admission of connections: our own stream of accepted connections for tonic.
//! A connection must complete its handshake (the HTTP/2 preface and SETTINGS, or a
//! whole HTTP/1.1 request head; with TLS, the TLS handshake and application data)
//! within the handshake timeout or it is closed; open connections are capped below
//! the descriptor limit, and at the cap the oldest connection still in its
//! handshake makes room for the new one (the new one is refused when there is
//! none); accept errors back off instead of spinning; what is refused is logged,
//! rate-limited. Knows nothing of gRPC beyond those first bytes.

use std::collections::BTreeMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use futures_util::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;
use tokio_stream::Stream;
use tonic::transport::server::{Connected, TcpConnectInfo};

use crate::metrics::Metrics;

/// The bounds on connections.
#[derive(Debug, Clone, Copy)]
pub struct Admission {
    /// Open connections at most; `None`: nine tenths of the descriptor limit.
    pub max_connections: Option<usize>,
    /// How long a new connection has to complete its handshake.
    pub handshake_timeout: Duration,
}

impl Default for Admission {
    fn default() -> Self {
        Admission {
            max_connections: None,
            handshake_timeout: Duration::from_secs(5),
        }
    }
}

impl Admission {
    /// The connection cap in force.
    pub fn cap(&self) -> usize {
        self.max_connections
            .unwrap_or_else(|| descriptor_limit().map_or(1024, |limit| limit / 10 * 9))
            .max(1)
    }
}

/// The soft limit on open file descriptors (Linux), from `/proc/self/limits`.
fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|line| line.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The accepted connections, admitted as above: the incoming stream tonic serves.
pub struct Incoming {
    listener: TcpListener,
    admission: Admission,
    cap: usize,
    tls: bool,
    registry: Arc<Registry>,
    /// Set after an accept error: no accept until it fires.
    backoff: Option<Pin<Box<Sleep>>>,
    /// The next pause after an accept error (doubling, reset by a success).
    pause: Duration,
    warnings: RateLimited,
}

/// Open connections, and the ones still in their handshake by age.
#[derive(Default)]
struct Registry {
    open: AtomicUsize,
    next_id: AtomicU64,
    in_handshake: Mutex<BTreeMap<u64, Arc<Closer>>>,
    metrics: Arc<Metrics>,
}

/// Closes a connection from outside: its next read fails.
#[derive(Default)]
struct Closer {
    closed: AtomicBool,
    waker: AtomicWaker,
}

impl Incoming {
    /// Admits connections accepted on `listener`; `tls` when tonic will run TLS
    /// over them (the handshake is then looked for in TLS records).
    pub fn new(
        listener: TcpListener,
        admission: Admission,
        tls: bool,
        metrics: Arc<Metrics>,
    ) -> Self {
        Incoming {
            listener,
            cap: admission.cap(),
            admission,
            tls,
            registry: Arc::new(Registry {
                metrics,
                ..Registry::default()
            }),
            backoff: None,
            pause: FIRST_PAUSE,
            warnings: RateLimited::default(),
        }
    }

    /// Makes room for one more connection, or says there is none.
    fn make_room(&mut self) -> bool {
        let registry = &self.registry;
        if registry.open.load(Ordering::Acquire) < self.cap {
            return true;
        }
        let oldest = registry
            .in_handshake
            .lock()
            .ok()
            .and_then(|mut waiting| waiting.pop_first());
        match oldest {
            Some((_, closer)) => {
                closer.close();
                registry.metrics.connection_closed("cap");
                self.warnings.warn(format_args!(
                    "connection cap of {} reached: closed the oldest connection still in its handshake",
                    self.cap
                ));
                true
            }
            None => {
                registry.metrics.connection_closed("cap_refused");
                self.warnings.warn(format_args!(
                    "connection cap of {} reached with every connection past its handshake: refused a new one",
                    self.cap
                ));
                false
            }
        }
    }

    fn admit(&mut self, stream: TcpStream) -> Conn {
        // A socket that refuses the option still works, only slower: a response
        // would wait for the peer's delayed ACK (Nagle's algorithm).
        let _ = stream.set_nodelay(true);
        let registry = self.registry.clone();
        registry.open.fetch_add(1, Ordering::AcqRel);
        registry.metrics.connections_open.inc();
        let id = registry.next_id.fetch_add(1, Ordering::Relaxed);
        let closer = Arc::new(Closer::default());
        if let Ok(mut waiting) = registry.in_handshake.lock() {
            waiting.insert(id, closer.clone());
        }
        let info = TcpConnectInfo {
            local_addr: stream.local_addr().ok(),
            remote_addr: stream.peer_addr().ok(),
        };
        Conn {
            stream,
            info,
            handshake: Some(Handshake {
                id,
                detector: Detector::new(self.tls),
                deadline: Box::pin(tokio::time::sleep(self.admission.handshake_timeout)),
                closer,
            }),
            registry,
        }
    }
}

/// The first pause after an accept error, and the longest.
const FIRST_PAUSE: Duration = Duration::from_millis(5);
const LONGEST_PAUSE: Duration = Duration::from_secs(1);

impl Stream for Incoming {
    type Item = io::Result<Conn>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(backoff) = &mut this.backoff {
                ready!(backoff.as_mut().poll(cx));
                this.backoff = None;
            }
            match ready!(this.listener.poll_accept(cx)) {
                Ok((stream, _)) => {
                    this.pause = FIRST_PAUSE;
                    if this.make_room() {
                        return Poll::Ready(Some(Ok(this.admit(stream))));
                    }
                    // Refused at once: dropping the socket closes it.
                }
                Err(error) => {
                    // Out of descriptors, or the like: pause instead of spinning.
                    this.warnings.warn(format_args!(
                        "accepting a connection failed ({error}); pausing {} ms",
                        this.pause.as_millis()
                    ));
                    this.backoff = Some(Box::pin(tokio::time::sleep(this.pause)));
                    this.pause = (this.pause * 2).min(LONGEST_PAUSE);
                }
            }
        }
    }
}

impl Closer {
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        self.waker.wake();
    }
}

/// An admitted connection: the socket, watched until its handshake is complete.
pub struct Conn {
    stream: TcpStream,
    info: TcpConnectInfo,
    handshake: Option<Handshake>,
    registry: Arc<Registry>,
}

/// A connection's handshake under way.
struct Handshake {
    id: u64,
    detector: Detector,
    deadline: Pin<Box<Sleep>>,
    closer: Arc<Closer>,
}

impl Conn {
    /// Ends the watch: the handshake is complete.
    fn handshake_done(&mut self) {
        if let Some(handshake) = self.handshake.take()
            && let Ok(mut waiting) = self.registry.in_handshake.lock()
        {
            waiting.remove(&handshake.id);
        }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.handshake_done();
        self.registry.open.fetch_sub(1, Ordering::AcqRel);
        self.registry.metrics.connections_open.dec();
    }
}

impl Connected for Conn {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.info.clone()
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(handshake) = &mut this.handshake {
            handshake.closer.waker.register(cx.waker());
            if handshake.closer.closed.load(Ordering::Acquire) {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::ConnectionAborted,
                    "closed at the connection cap to admit another",
                )));
            }
            if handshake.deadline.as_mut().poll(cx).is_ready() {
                this.registry.metrics.connection_closed("handshake_timeout");
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "no handshake within the handshake timeout",
                )));
            }
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.stream).poll_read(cx, buf))?;
        if let Some(handshake) = &mut this.handshake
            && handshake.detector.feed(&buf.filled()[before..])
        {
            this.handshake_done();
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The HTTP/2 client preface.
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Watches a connection's first bytes for the end of its handshake.
#[derive(Debug)]
struct Detector {
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
    fn new(tls: bool) -> Detector {
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
    fn feed(&mut self, bytes: &[u8]) -> bool {
        for &byte in bytes {
            self.state = match std::mem::replace(&mut self.state, State::Done) {
                State::Start { seen } if byte == PREFACE[seen] => {
                    if seen + 1 == PREFACE.len() {
                        State::Settings {
                            header: [0; 9],
                            have: 0,
                        }
                    } else {
                        State::Start { seen: seen + 1 }
                    }
                }
                // Not the preface: an HTTP/1.1 request line, read on to its head's end
                // (the bytes so far held no line break past the preface's first).
                State::Start { seen } => {
                    let last = PREFACE[..seen]
                        .iter()
                        .fold(0u32, |last, &b| last << 8 | u32::from(b));
                    State::RequestHead {
                        last: last << 8 | u32::from(byte),
                    }
                }
                State::Settings { mut header, have } => {
                    header[have] = byte;
                    if have + 1 < header.len() {
                        State::Settings {
                            header,
                            have: have + 1,
                        }
                    } else {
                        let length = u64::from(header[0]) << 16
                            | u64::from(header[1]) << 8
                            | u64::from(header[2]);
                        if length == 0 {
                            State::Done
                        } else {
                            State::SettingsPayload { left: length }
                        }
                    }
                }
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
                    mut header,
                    have,
                    application,
                    ..
                } => {
                    header[have] = byte;
                    if have + 1 < header.len() {
                        State::Tls {
                            header,
                            have: have + 1,
                            skip: 0,
                            application,
                        }
                    } else {
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
                }
                State::Done => State::Done,
            };
            if matches!(self.state, State::Done) {
                return true;
            }
        }
        false
    }
}

/// Warnings at most once per interval, with a count of the ones held back.
#[derive(Default)]
struct RateLimited {
    last: Option<Instant>,
    held_back: u64,
}

/// The shortest interval between two warnings of the same kind of refusal.
const WARN_EVERY: Duration = Duration::from_secs(10);

impl RateLimited {
    fn warn(&mut self, message: std::fmt::Arguments<'_>) {
        let now = Instant::now();
        if self.last.is_some_and(|last| now - last < WARN_EVERY) {
            self.held_back += 1;
            return;
        }
        tracing::warn!(held_back = self.held_back, "{message}");
        self.last = Some(now);
        self.held_back = 0;
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
