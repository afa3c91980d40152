//! Running the `jitson` binary from the CLI tests: the process helpers every test file uses,
//! and the workspace's test PRNG.

#![allow(dead_code, unused_imports)] // each test binary uses a different subset

#[path = "../../../kernels/tests/common/rng.rs"]
mod rng;

pub use rng::Rng;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (the CLI crate sits one level down).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A path under the repository root, as a string argument.
pub fn at_root(path: &str) -> String {
    root().join(path).to_str().expect("UTF-8 path").to_owned()
}

/// Runs `jitson ARGS` with `stdin` as standard input; fails the test if it panicked.
pub fn jitson(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jitson"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn jitson");
    // A run that never reads its input (usage errors, `--help`) may exit before the write:
    // a broken pipe here is expected, not a failure.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    let output = child.wait_with_output().expect("wait for jitson");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "jitson panicked: {stderr}");
    output
}

/// The exit status.
pub fn status(output: &Output) -> i32 {
    output.status.code().expect("exit status")
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Standard error, lossily.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A scratch directory for this test process, emptied at the start.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jitson-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes `text` to `dir/name`; returns the path as an argument.
pub fn write(dir: &std::path::Path, name: &str, text: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("UTF-8 path").to_owned()
}
