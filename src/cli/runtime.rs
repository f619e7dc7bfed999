//! What every command's run shares: the result `main` prints, and the one
//! async runtime builder.

/// What a command ends with: nothing, or the error `main` prints.
pub(super) type CliResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// How many threads a command's async runtime has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Threads {
    /// One: a client making one call at a time.
    One,
    /// One per core: the server and the load generator.
    PerCore,
}

/// The one runtime builder of every command.
pub(super) fn runtime(threads: Threads) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = match threads {
        Threads::One => tokio::runtime::Builder::new_current_thread(),
        Threads::PerCore => tokio::runtime::Builder::new_multi_thread(),
    };
    builder.enable_all().build()
}
