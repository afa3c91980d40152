//! `jitson transcode`: validate each document and write it back as compact JSON, shaped on
//! the way: unknown members kept, dropped or denied, only picked values kept, redacted values
//! replaced.
//!
//! The output (one compact document per line) goes to standard output; the report of a
//! document that fails (see [`crate::report`]) goes to standard error, and nothing of it is
//! written to the output. With `--ndjson` each line of the input is one document.

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, ValueEnum};
use jitson::engine::{Tokens, TranscodeOptions, Unknown};
use jitson::{Cache, Codec};

use crate::RunOptions;
use crate::input::{self, trouble};
use crate::schema::SchemaArg;
use crate::{EXIT_INVALID, EXIT_OK, EXIT_TROUBLE, report};

/// Arguments of `jitson transcode`.
#[derive(Args)]
pub struct TranscodeArgs {
    #[command(flatten)]
    schema: SchemaArg,

    /// Members the schema does not name (where it allows any value): keep them, drop them,
    /// or reject the document.
    #[arg(long, value_enum, default_value_t = UnknownArg::Keep)]
    unknown: UnknownArg,

    /// Keep only the values at these JSON Pointers (and their ancestors); repeatable.
    #[arg(long, value_name = "PTR")]
    pick: Vec<String>,

    /// Replace the values at these JSON Pointers (after validating them); repeatable.
    #[arg(long, value_name = "PTR")]
    redact: Vec<String>,

    /// The JSON value redacted values are replaced with.
    #[arg(long, value_name = "JSON", default_value = "null")]
    replacement: String,

    /// How kept strings, numbers and keys are written: rewritten as serde_json writes their
    /// values, or verbatim (byte for byte; only whitespace between tokens is dropped).
    #[arg(long, value_enum, default_value_t = TokensArg::Rewritten)]
    tokens: TokensArg,

    /// Each line of the input is one document (blank lines are skipped).
    #[arg(long)]
    ndjson: bool,

    /// The input; `-` (or none) reads standard input.
    #[arg(value_name = "FILE")]
    file: Option<OsString>,
}

/// The `--unknown` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum UnknownArg {
    /// Write them as they are.
    Keep,
    /// Leave them out.
    Drop,
    /// Reject the document.
    Deny,
}

/// The `--tokens` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TokensArg {
    /// As serde_json writes the value: shortest numbers, minimal escapes.
    Rewritten,
    /// As the input has them: numbers keep every digit, strings their escapes.
    Verbatim,
}

/// Transcodes the input; returns the exit status.
pub fn run(args: &TranscodeArgs, run: RunOptions) -> u8 {
    let Some(options) = options(args) else {
        return EXIT_TROUBLE;
    };
    let Some(codec) = args.schema.codec(run) else {
        return EXIT_TROUBLE;
    };
    let file = args
        .file
        .clone()
        .unwrap_or_else(|| OsString::from(input::STDIN));
    let Some(input) = input::read(&file) else {
        return EXIT_TROUBLE;
    };
    let mut run = Run {
        codec: &codec,
        options: &options,
        cache: Cache::new(),
        out: std::io::stdout().lock(),
        text: Vec::new(),
        status: EXIT_OK,
    };
    match args.ndjson {
        true => {
            for (i, line) in input.bytes.split(|&b| b == b'\n').enumerate() {
                if !line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                    run.document(&input.name, i + 1, line);
                }
            }
        }
        false => run.document(&input.name, 1, &input.bytes),
    }
    run.status
}

/// The transcode options the arguments ask for, or `None` after saying what is wrong.
fn options(args: &TranscodeArgs) -> Option<TranscodeOptions> {
    let unknown = match args.unknown {
        UnknownArg::Keep => Unknown::Keep,
        UnknownArg::Drop => Unknown::Drop,
        UnknownArg::Deny => Unknown::Deny,
    };
    let replacement: serde_json::Value = serde_json::from_str(&args.replacement)
        .map_err(|e| trouble(&format!("--replacement is not JSON: {e}")))
        .ok()?;
    let tokens = match args.tokens {
        TokensArg::Rewritten => Tokens::Rewritten,
        TokensArg::Verbatim => Tokens::Verbatim,
    };
    let mut options = TranscodeOptions::new()
        .unknown(unknown)
        .tokens(tokens)
        .replacement(&replacement);
    for pointer in &args.pick {
        options = options
            .pick(pointer)
            .map_err(|e| trouble(&format!("--pick {pointer}: {e}")))
            .ok()?;
    }
    for pointer in &args.redact {
        options = options
            .redact(pointer)
            .map_err(|e| trouble(&format!("--redact {pointer}: {e}")))
            .ok()?;
    }
    Some(options)
}

/// The state of one `transcode` run.
struct Run<'a, W> {
    codec: &'a Codec,
    options: &'a TranscodeOptions,
    cache: Cache,
    out: W,
    text: Vec<u8>,
    status: u8,
}

impl<W: Write> Run<'_, W> {
    /// Transcodes one document, which starts on line `first_line` of input `name`.
    fn document(&mut self, name: &str, first_line: usize, doc: &[u8]) {
        self.text.clear();
        match self
            .codec
            .transcode_with(&mut self.cache, doc, self.options, &mut self.text)
        {
            Ok(()) => {
                self.text.push(b'\n');
                // A closed stdout (`| head`) must not turn into a panic.
                let _ = self.out.write_all(&self.text);
            }
            Err(e) => {
                report::error(&mut std::io::stderr().lock(), name, first_line, &e);
                self.status = self.status.max(EXIT_INVALID);
            }
        }
    }
}
