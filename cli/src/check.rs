//! `jitson check`: is each input one well-formed JSON text?
//!
//! The verdict comes from the validating skip kernel
//! ([`jitson::kernels::skip::validate_document`]), which allocates nothing. For a failing
//! input the value parser runs too, to name the error the way serde_json would, with its
//! JSON path; it is configured to accept every well-formed number (big numbers kept raw) and
//! the same depth limit, so on every input both give the same verdict (the CLI tests check
//! this over the conformance suite and mutated documents).

use std::ffi::OsString;
use std::io::Write;

use clap::Args;
use jitson::Position;
use jitson::kernels::KernelError;
use jitson::kernels::skip::validate_document;
use jitson::value::{self, BigNumbers, Bump, DEFAULT_MAX_DEPTH, ParseOptions};

use crate::input::{self, Input};
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE, report};

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
    let mut status = EXIT_OK;
    let mut out = std::io::stdout().lock();
    for file in input::files_or_stdin(&args.files) {
        let Some(input) = input::read(&file) else {
            status = EXIT_TROUBLE;
            continue;
        };
        let Err(kernel_error) = validate_document(&input.bytes, args.max_depth) else {
            continue;
        };
        status = status.max(EXIT_INVALID);
        let arena = Bump::new();
        let options = ParseOptions::new()
            .max_depth(args.max_depth)
            .big_numbers(BigNumbers::Raw);
        match value::parse_with(&input.bytes, &arena, &options) {
            Err(e) => report::error(&mut out, &input.name, 1, &e),
            Ok(_) => disagreement(&mut out, &input, kernel_error),
        }
    }
    status
}

/// The report when the kernel rejects what the parser accepts (a bug in one of them): the
/// kernel's error, at the document root.
#[cold]
fn disagreement(out: &mut impl Write, input: &Input, error: KernelError) {
    let Position { line, column } = Position::of(&input.bytes, error.offset);
    let _ = writeln!(out, "{}:{line}:{column}: $: {}", input.name, error.kind);
}
