//! `jitson set FILE POINTER VALUE`: the document with the value a JSON Pointer names
//! replaced by VALUE, built by splicing (everything else is copied byte for byte).
//!
//! Prints the new document. Exit status 1 when nothing is at POINTER (with a message) or the
//! document is not valid up to the value (`FILE:LINE:COL: PATH: message`, as `jitson
//! check` writes it); 2 for usage errors: a malformed POINTER, or a VALUE that is not one
//! JSON value.

use std::ffi::OsString;
use std::io::Write;

use clap::Args;
use jitson::value::{self, BigNumbers, Bump, DEFAULT_MAX_DEPTH, ParseOptions};

use crate::get::{options, parse_pointers};
use crate::input;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE};

/// Arguments of `jitson set`.
#[derive(Args)]
pub struct SetArgs {
    /// The document; `-` reads standard input.
    #[arg(value_name = "FILE")]
    file: OsString,

    /// An RFC 6901 JSON Pointer to an existing value (`""` is the whole document).
    #[arg(value_name = "POINTER")]
    pointer: String,

    /// The new value, as JSON text.
    #[arg(value_name = "VALUE")]
    value: String,

    /// Only balance brackets in the skipped parts (trusted input): faster, not validated.
    #[arg(long)]
    unchecked: bool,

    /// The most containers a value may be nested in.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH)]
    max_depth: usize,
}

/// Runs `jitson set`; returns the exit status.
pub fn run(args: &SetArgs) -> u8 {
    let mut stderr = std::io::stderr();
    let pointers = match parse_pointers(std::slice::from_ref(&args.pointer)) {
        Ok(pointers) => pointers,
        Err(message) => {
            let _ = writeln!(stderr, "jitson: {message}");
            return EXIT_TROUBLE;
        }
    };
    let arena = Bump::new();
    let any_number = ParseOptions::new().big_numbers(BigNumbers::Raw);
    if let Err(e) = value::parse_with(args.value.as_bytes(), &arena, &any_number) {
        let _ = writeln!(stderr, "jitson: VALUE is not JSON: {e}");
        return EXIT_TROUBLE;
    }
    let Some(input::Input { name, bytes }) = input::read(&args.file) else {
        return EXIT_TROUBLE;
    };
    let options = options(args.unchecked, args.max_depth);
    match options.set(&bytes, &pointers[0], args.value.as_bytes()) {
        Ok(Some(edited)) => {
            let _ = std::io::stdout().lock().write_all(&edited);
            EXIT_OK
        }
        Ok(None) => {
            let _ = writeln!(stderr, "jitson: {name}: nothing at {:?}", args.pointer);
            EXIT_INVALID
        }
        Err(e) => {
            let _ = writeln!(
                std::io::stdout(),
                "{name}:{}:{}: {}: {}",
                e.line(),
                e.column(),
                e.path(),
                e.message()
            );
            EXIT_INVALID
        }
    }
}
