//! The one-line report of a failing input, shared by every subcommand:
//!
//! ```text
//! FILE:LINE:COL: PATH: message
//! FILE:LINE:COL: PATH: message (keyword KEYWORD at POINTER)
//! ```
//!
//! `FILE` is the path as given (`-` for standard input), `LINE` and `COL` are 1-based line
//! and byte column in that file, `PATH` the failing value's JSON path (`$.statuses[3].id`).
//! Schema failures end with the keyword that said no and its JSON Pointer in the schema.
//! Reports go to standard output, one line each; trouble (unreadable files, bad schemas) goes
//! to standard error.

use std::io::Write;

use jitson::Error;

/// Writes the report of `error`, found in input `name` whose first line is file line
/// `first_line` (1 for a whole file; the line's number for one NDJSON line).
pub fn error(out: &mut impl Write, name: &str, first_line: usize, error: &Error) {
    let line = first_line + error.line() - 1;
    let (column, path, message) = (error.column(), error.path(), error.message());
    // A closed stdout (`| head`) must not turn into a panic: write errors are ignored.
    let _ = match (error.keyword(), error.schema_pointer()) {
        (Some(keyword), Some(pointer)) => writeln!(
            out,
            "{name}:{line}:{column}: {path}: {message} (keyword {keyword} at {pointer})"
        ),
        (Some(keyword), None) => {
            writeln!(
                out,
                "{name}:{line}:{column}: {path}: {message} (keyword {keyword})"
            )
        }
        _ => writeln!(out, "{name}:{line}:{column}: {path}: {message}"),
    };
}
