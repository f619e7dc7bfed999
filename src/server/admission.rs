//! Admission of connections: our own stream of accepted connections for tonic.
//! A connection must complete its handshake (the HTTP/2 preface and SETTINGS, or a
//! whole HTTP/1.1 request head; with TLS, the TLS handshake and application data)
//! within the handshake timeout (`handshake` tells when it is) or it is closed; open connections are capped below
//! the descriptor limit, and at the cap the oldest connection still in its
//! handshake makes room for the new one (the new one is refused when there is
//! none); accept errors back off instead of spinning; what is refused is logged,
//! rate-limited. A connection's first write after a quiet spell waits once for
//! the tasks already due (see `Conn::put_off`). Knows nothing of gRPC beyond
//! those first bytes.

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

use super::handshake::Detector;
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
            writes: Writes::default(),
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
    writes: Writes,
}

/// How a connection's writes are put off (see `Conn::put_off`).
#[derive(Default)]
struct Writes {
    /// The write now asked for was put off once already.
    put_off: bool,
    /// When a write was last asked for.
    last: Option<Instant>,
}

/// A connection that wrote nothing for this long is quiet.
const QUIET: Duration = Duration::from_micros(500);

/// A connection's handshake under way.
struct Handshake {
    id: u64,
    detector: Detector,
    deadline: Pin<Box<Sleep>>,
    closer: Arc<Closer>,
}

impl Conn {
    /// Puts the first write after a quiet spell off once, to after the tasks
    /// already waiting to run (the connection's task wakes itself and answers
    /// `Pending`): the other streams of this connection that fell due at the same
    /// time (paced streams, which keep to their connection's grid) add their frames
    /// meanwhile, and all go out in one system call instead of one each. A busy
    /// connection (calls and answers back to back) writes at once. `true` when
    /// this write is put off.
    fn put_off(&mut self, cx: &mut Context<'_>) -> bool {
        let writes = &mut self.writes;
        if std::mem::take(&mut writes.put_off) {
            return false;
        }
        let now = Instant::now();
        let quiet = writes
            .last
            .is_none_or(|last| now.duration_since(last) >= QUIET);
        writes.last = Some(now);
        if quiet {
            writes.put_off = true;
            cx.waker().wake_by_ref();
        }
        quiet
    }

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
        let this = self.get_mut();
        if this.put_off(cx) {
            return Poll::Pending;
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.put_off(cx) {
            return Poll::Pending;
        }
        Pin::new(&mut this.stream).poll_write_vectored(cx, bufs)
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
    use std::task::{Wake, Waker};

    use tokio::io::AsyncReadExt;
    use tokio_stream::StreamExt;

    use super::*;

    /// Counts its wakes.
    #[derive(Default)]
    struct Wakes(AtomicUsize);

    impl Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.wake_by_ref();
        }

        fn wake_by_ref(self: &Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn write(conn: &mut Conn, cx: &mut Context<'_>, bytes: &[u8]) -> Poll<usize> {
        Pin::new(conn)
            .poll_write(cx, bytes)
            .map(|written| written.unwrap())
    }

    #[tokio::test]
    async fn a_write_after_a_quiet_spell_waits_once_and_a_busy_one_goes_at_once() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let metrics = Arc::new(Metrics::new());
        let mut incoming = Incoming::new(listener, Admission::default(), false, metrics);
        let mut client = TcpStream::connect(address).await.unwrap();
        let mut conn = incoming.next().await.unwrap().unwrap();
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        // The first write of a connection comes after a quiet spell.
        assert_eq!(write(&mut conn, &mut cx, b"one"), Poll::Pending);
        assert_eq!(wakes.0.load(Ordering::Relaxed), 1);
        assert_eq!(write(&mut conn, &mut cx, b"one"), Poll::Ready(3));
        // A write asked for later than the last one (as busy as can be) goes at once.
        conn.writes.last = Some(Instant::now() + Duration::from_secs(3600));
        assert_eq!(write(&mut conn, &mut cx, b"two"), Poll::Ready(3));
        assert_eq!(wakes.0.load(Ordering::Relaxed), 1);
        let mut read = [0; 6];
        client.read_exact(&mut read).await.unwrap();
        assert_eq!(&read, b"onetwo");
    }
}
