//! `jitson validate`: does each document match the schema?
//!
//! Each input is one document, or with `--ndjson` one document per line (lines holding
//! only whitespace are skipped). Every failing document gets up to `--max-errors` report
//! lines (see [`crate::report`]): after a schema violation checking goes on past the failing
//! value; a syntax error ends the document's list.

use std::ffi::OsString;
use std::io::Write;
use std::num::NonZeroUsize;

use clap::Args;
use jitson::{Cache, Codec};

use crate::RunOptions;
use crate::input::{self, Input};
use crate::schema::SchemaArg;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE, report};

/// Arguments of `jitson validate`.
#[derive(Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    schema: SchemaArg,

    /// Each line of each input is one document (blank lines are skipped).
    #[arg(long)]
    ndjson: bool,

    /// The most errors reported per document.
    #[arg(long, value_name = "N", default_value = "1")]
    max_errors: NonZeroUsize,

    /// Files to validate; `-` (or no FILE at all) reads standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
}

/// Validates every input; returns the exit status.
pub fn run(args: &ValidateArgs, run: RunOptions) -> u8 {
    let Some(codec) = args.schema.codec(run) else {
        return EXIT_TROUBLE;
    };
    let mut run = Run {
        codec: &codec,
        cache: Cache::new(),
        max_errors: args.max_errors.get(),
        out: std::io::stdout().lock(),
        status: EXIT_OK,
    };
    for file in input::files_or_stdin(&args.files) {
        match input::read(&file) {
            Some(input) if args.ndjson => run.lines(&input),
            Some(input) => run.document(&input.name, 1, &input.bytes),
            None => run.status = EXIT_TROUBLE,
        }
    }
    run.status
}

/// The state of one `validate` run.
struct Run<'a, W> {
    codec: &'a Codec,
    cache: Cache,
    max_errors: usize,
    out: W,
    status: u8,
}

impl<W: Write> Run<'_, W> {
    /// Validates each non-blank line of `input` as a document.
    fn lines(&mut self, input: &Input) {
        for (i, line) in input.bytes.split(|&b| b == b'\n').enumerate() {
            if !line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                self.document(&input.name, i + 1, line);
            }
        }
    }

    /// Validates one document, which starts on line `first_line` of input `name`.
    fn document(&mut self, name: &str, first_line: usize, doc: &[u8]) {
        let errors = self
            .codec
            .validate_all_with(&mut self.cache, doc, self.max_errors);
        for e in &errors {
            report::error(&mut self.out, name, first_line, e);
        }
        if !errors.is_empty() {
            self.status = self.status.max(EXIT_INVALID);
        }
    }
}
