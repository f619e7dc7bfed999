//! Compiles `proto/sudoku/v1/sudoku.proto` into Rust with tonic-prost-build, using the
//! protoc binary vendored by `protoc-bin-vendored`, so no system protoc is needed.
//! Also writes the file descriptor set that server reflection serves, and names
//! the engine build (`SUDOKUD_ENGINE_BUILD`): a hash of the search's and the
//! board's sources, so that a build that may search differently has another name.

use std::path::{Path, PathBuf};

/// FNV-1a over the bytes, continuing from `hash`.
fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The files below `dir`, sorted.
fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

/// The hash of the engine's sources (names and contents).
fn engine_build() -> Result<u64, Box<dyn std::error::Error>> {
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for dir in ["src/solver", "src/board"] {
        println!("cargo:rerun-if-changed={dir}");
        let mut paths = Vec::new();
        files(Path::new(dir), &mut paths)?;
        for path in paths {
            hash = fnv1a(hash, path.to_string_lossy().as_bytes());
            hash = fnv1a(hash, &std::fs::read(&path)?);
        }
    }
    Ok(hash)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto = "proto/sudoku/v1/sudoku.proto";
    println!("cargo:rerun-if-changed={proto}");
    println!("cargo:rerun-if-changed=proto/google");
    println!(
        "cargo:rustc-env=SUDOKUD_ENGINE_BUILD={:016x}",
        engine_build()?
    );

    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    let mut config = tonic_prost_build::Config::new();
    config.protoc_executable(protoc_bin_vendored::protoc_bin_path()?);

    tonic_prost_build::configure()
        .codec_path("crate::codec::SmallBuffers")
        // SolveBatch's messages are kept as their encodings, read and written
        // in place by the codec's own code.
        .extern_path(
            ".sudoku.v1.SolveBatchRequest",
            "crate::codec::SolveBatchRequest",
        )
        .extern_path(
            ".sudoku.v1.SolveBatchResponse",
            "crate::codec::SolveBatchResponse",
        )
        .file_descriptor_set_path(out_dir.join("sudoku_descriptor.bin"))
        .compile_with_config(config, &[proto], &["proto"])?;
    Ok(())
}
