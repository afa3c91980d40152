//! `jitson check`: is each input one well-formed JSON text?
//!
//! The verdict comes from the validating skip kernel
//! ([`jitson::kernels::skip::validate_document`]), which allocates nothing. For a failing
//! input the value parser runs too, to name the error the way serde_json would, with its
//! JSON path; it is configured to accept every well-formed number (big numbers kept raw) and
//! the same depth limit, so on every input both give the same verdict (the CLI tests check
//! this over the conformance suite and mutated documents).

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;

use clap::Args;
use jitson::Position;
use jitson::kernels::KernelError;
use jitson::kernels::skip::validate_document;
use jitson::value::{self, BigNumbers, Bump, DEFAULT_MAX_DEPTH, ParseOptions};

use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE};

/// Arguments of `jitson check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Files to check; `-` (or no FILE at all) reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,

    /// The most containers a value may be nested in.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    max_depth: usize,
}

/// Checks every input; returns the exit status.
pub fn run(args: &CheckArgs) -> u8 {
    let stdin_only = [OsString::from("-")];
    let files = if args.files.is_empty() {
        &stdin_only[..]
    } else {
        &args.files[..]
    };
    let mut status = EXIT_OK;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for file in files {
        let (name, bytes) = match read_input(file) {
            Ok(input) => input,
            Err((name, error)) => {
                let _ = writeln!(std::io::stderr(), "jitson: {name}: {error}");
                status = EXIT_TROUBLE;
                continue;
            }
        };
        if let Some(line) = diagnose(&bytes, args.max_depth) {
            // A closed stdout (`| head`) must not turn into a panic: write errors are ignored.
            let _ = writeln!(out, "{name}:{line}");
            status = status.max(EXIT_INVALID);
        }
    }
    status
}

/// The display name and the bytes of `file` (`-` is standard input), or the name and why it
/// could not be read.
pub(crate) fn read_input(file: &OsString) -> Result<(String, Vec<u8>), (String, std::io::Error)> {
    let mut bytes = Vec::new();
    if file == "-" {
        let name = "<stdin>".to_owned();
        return match std::io::stdin().lock().read_to_end(&mut bytes) {
            Ok(_) => Ok((name, bytes)),
            Err(error) => Err((name, error)),
        };
    }
    let name = Path::new(file).display().to_string();
    match std::fs::read(file) {
        Ok(bytes) => Ok((name, bytes)),
        Err(error) => Err((name, error)),
    }
}

/// `None` for one well-formed JSON text, else the diagnostic after the file name:
/// `LINE:COL: PATH: message`.
fn diagnose(input: &[u8], max_depth: usize) -> Option<String> {
    let kernel_error = validate_document(input, max_depth).err()?;
    let arena = Bump::new();
    let options = ParseOptions::new()
        .max_depth(max_depth)
        .big_numbers(BigNumbers::Raw);
    Some(match value::parse_with(input, &arena, &options) {
        Err(e) => format!("{}:{}: {}: {}", e.line(), e.column(), e.path(), e.message()),
        Ok(_) => disagreement(input, kernel_error),
    })
}

/// The diagnostic when the kernel rejects what the parser accepts (a bug in one of them):
/// the kernel's error, at the document root.
#[cold]
fn disagreement(input: &[u8], error: KernelError) -> String {
    let position = Position::of(input, error.offset);
    format!("{}:{}: $: {}", position.line, position.column, error.kind)
}
