//! `jitson get FILE POINTER...`: the values some JSON Pointers name, read lazily (only the
//! part of the document before each value is skipped, in one traversal for all of them).
//!
//! Prints one line per pointer, in order: the raw value with the whitespace between its
//! tokens removed (numbers and strings are printed exactly as written), or an empty line
//! when nothing is there (then a message goes to standard error and the exit status is 1).
//! A document error is one line `FILE:LINE:COL: PATH: message` on standard output and exit
//! status 1, as for `jitson check`.

use std::ffi::OsString;
use std::io::Write;

use clap::Args;
use jitson::lazy::{Mode, Options, Pointer};
use jitson::value::DEFAULT_MAX_DEPTH;

use crate::input;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE};

/// Arguments of `jitson get`.
#[derive(Args)]
pub struct GetArgs {
    /// The document; `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: OsString,

    /// RFC 6901 JSON Pointers (`""` is the whole document, `/a/0` the first element of `a`).
    #[arg(value_name = "POINTER", required = true)]
    pointers: Vec<String>,

    /// Only balance brackets in the skipped parts (trusted input): faster, not validated.
    #[arg(long)]
    unchecked: bool,

    /// The most containers a value may be nested in.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    max_depth: usize,
}

/// The lazy-read options the flags ask for.
pub(crate) fn options(unchecked: bool, max_depth: usize) -> Options {
    let mode = if unchecked {
        Mode::Unchecked
    } else {
        Mode::Checked
    };
    Options::new().mode(mode).max_depth(max_depth)
}

/// The pointers parsed, or the message for the first malformed one.
pub(crate) fn parse_pointers(texts: &[String]) -> Result<Vec<Pointer<'_>>, String> {
    texts
        .iter()
        .map(|text| Pointer::parse(text).map_err(|e| format!("invalid pointer {text:?}: {e}")))
        .collect()
}

/// Runs `jitson get`; returns the exit status.
pub fn run(args: &GetArgs) -> u8 {
    let mut stderr = std::io::stderr();
    let pointers = match parse_pointers(&args.pointers) {
        Ok(pointers) => pointers,
        Err(message) => {
            let _ = writeln!(stderr, "jitson: {message}");
            return EXIT_TROUBLE;
        }
    };
    let Some(input::Input { name, bytes }) = input::read(&args.file) else {
        return EXIT_TROUBLE;
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let found = match options(args.unchecked, args.max_depth).get_many(&bytes, &pointers) {
        Ok(found) => found,
        Err(e) => {
            let _ = writeln!(
                out,
                "{name}:{}:{}: {}: {}",
                e.line(),
                e.column(),
                e.path(),
                e.message()
            );
            return EXIT_INVALID;
        }
    };
    let mut status = EXIT_OK;
    for (text, value) in args.pointers.iter().zip(found) {
        let mut line = Vec::new();
        match value {
            Some(value) => minify(value.raw(), &mut line),
            None => {
                let _ = writeln!(stderr, "jitson: {name}: nothing at {text:?}");
                status = EXIT_INVALID;
            }
        }
        line.push(b'\n');
        // A closed stdout (`| head`) must not turn into a panic: write errors are ignored.
        let _ = out.write_all(&line);
    }
    status
}

/// Appends `raw` (one JSON value) without the whitespace outside its strings.
fn minify(raw: &[u8], out: &mut Vec<u8>) {
    let mut in_string = false;
    let mut escaped = false;
    for &b in raw {
        if in_string {
            out.push(b);
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            in_string = b == b'"';
            out.push(b);
        }
    }
}
