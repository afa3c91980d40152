//! Reading the inputs named on the command line: files, or standard input for `-` (and when
//! no file is named). Shared by every subcommand.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;

/// The name standard input goes by, on the command line and in reports.
pub const STDIN: &str = "-";

/// One input read whole: its display name (`-` for standard input) and its bytes.
pub struct Input {
    /// The name reports print: the path as given, or `-`.
    pub name: String,
    /// The contents.
    pub bytes: Vec<u8>,
}

/// The inputs to read: `files`, or standard input alone when there are none.
pub fn files_or_stdin(files: &[OsString]) -> Vec<OsString> {
    match files {
        [] => vec![OsString::from(STDIN)],
        files => files.to_vec(),
    }
}

/// Reads `file` (`-` is standard input); when that fails, says why on standard error and
/// returns `None`.
pub fn read(file: &OsString) -> Option<Input> {
    let (name, result) = if file == STDIN {
        let mut bytes = Vec::new();
        let result = std::io::stdin().lock().read_to_end(&mut bytes);
        (STDIN.to_owned(), result.map(|_| bytes))
    } else {
        (Path::new(file).display().to_string(), std::fs::read(file))
    };
    match result {
        Ok(bytes) => Some(Input { name, bytes }),
        Err(error) => {
            trouble(&format!("{name}: {error}"));
            None
        }
    }
}

/// Prints `jitson: {message}` on standard error (a closed stream is ignored).
pub fn trouble(message: &str) {
    let _ = writeln!(std::io::stderr(), "jitson: {message}");
}
