//! `jitson`: the command-line face of the jitson engine.
//!
//! ```text
//! jitson [--backend auto|interp|jit] check [--max-depth N] [FILE...]
//! jitson [--backend auto|interp|jit] [--big-ints f64|error|raw] validate --schema S.json [--ndjson] [--max-errors N] [FILE...]
//! jitson [--backend auto|interp|jit] [--big-ints f64|error|raw] transcode --schema S.json [--unknown keep|drop|deny] [--pick PTR]... [--redact PTR]... [--ndjson] [FILE]
//! jitson [--backend auto|interp|jit] explain [--clif] --schema S.json
//! jitson get FILE POINTER...
//! jitson set FILE POINTER VALUE
//! ```
//!
//! Subcommands are variants of [`Command`]; each lives in its own module, and the pieces
//! they share have theirs: [`input`] (files and standard input, `-`), [`report`] (the
//! `FILE:LINE:COL: PATH: message` lines, on standard output) and [`schema`] (the `--schema`
//! argument). `--backend` is global: `jit` runs validation on native code from Cranelift,
//! compiled before the first input (exit status 2 when it cannot be made here), `interp` on
//! the interpreter, `auto` on the interpreter and, once a schema has validated enough
//! documents, on native code compiled in the background (see [`schema`]); `check`, `get`
//! and `set` read no schema and use neither. `--big-ints` is global too: what integers
//! beyond the 64-bit ranges in the input become for the commands that compile a schema
//! (`f64`, the default and `serde_json`'s reading; `error`; `raw`: kept exactly, checked
//! exactly, written back verbatim).
//!
//! Exit status: 0 when every input passes, 1 when any input fails, 2 for a usage error, an
//! unavailable backend, an unreadable input or a schema that does not load.

mod check;
mod explain;
mod get;
mod input;
mod report;
mod schema;
mod set;
mod transcode;
mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit status: every input passed.
const EXIT_OK: u8 = 0;
/// Exit status: some input failed.
const EXIT_INVALID: u8 = 1;
/// Exit status: usage error, unavailable backend, unreadable input, bad schema.
const EXIT_TROUBLE: u8 = 2;

/// Runtime JIT JSON codec engine.
#[derive(Parser)]
#[command(name = "jitson", version, about, long_about = None)]
struct Cli {
    /// Which backend runs schema validation: the interpreter, the Cranelift JIT, or auto (the
    /// interpreter, then native code compiled in the background once a stream is long).
    #[arg(long, global = true, value_enum, default_value_t = Backend::Auto)]
    backend: Backend,

    /// What integers beyond the 64-bit ranges become: the nearest f64 (as serde_json), an
    /// error, or their exact digits (checked exactly, written back verbatim).
    #[arg(long, global = true, value_enum, default_value_t = BigInts::F64)]
    big_ints: BigInts,

    /// The most Cranelift IR instructions a schema's native code may have, per tier; a
    /// larger schema runs on the interpreter (with --backend jit: exit status 2).
    #[arg(long, global = true, value_name = "N", default_value_t = jitson::engine::DEFAULT_NATIVE_SIZE_LIMIT)]
    native_size_limit: usize,

    #[command(subcommand)]
    command: Command,
}

/// The `--backend` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The interpreter; after 100 documents, native code compiled in the background.
    Auto,
    /// The opcode interpreter.
    Interp,
    /// Native code from the Cranelift JIT; exit status 2 when it cannot be made.
    Jit,
}

/// The `--big-ints` choices (the engine's [`jitson::engine::BigInts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BigInts {
    /// The nearest `f64`.
    F64,
    /// A "number out of range" error.
    Error,
    /// The exact digits.
    Raw,
}

/// How the commands that compile a schema run it: the global options.
#[derive(Clone, Copy, Debug)]
pub struct RunOptions {
    /// `--backend`.
    pub backend: Backend,
    /// `--big-ints`.
    pub big_ints: BigInts,
    /// `--native-size-limit`.
    pub native_size_limit: usize,
}

/// The subcommands.
#[derive(Subcommand)]
enum Command {
    /// Check that each input is exactly one well-formed JSON text (RFC 8259).
    ///
    /// Prints one line per failing input, `FILE:LINE:COL: PATH: message`, and nothing for
    /// inputs that pass. Standard input is read when no FILE is given or FILE is `-`.
    Check(check::CheckArgs),
    /// Print the values JSON Pointers name, one line each, reading lazily.
    Get(get::GetArgs),
    /// Print the document with the value a JSON Pointer names replaced.
    Set(set::SetArgs),
    /// Validate each input against a JSON Schema (draft 2020-12).
    ///
    /// Prints one line per error, `FILE:LINE:COL: PATH: message (keyword K at POINTER)`, and
    /// nothing for valid documents. Standard input is read when no FILE is given or FILE is
    /// `-`. With --ndjson each line is a document and LINE is the line in the file.
    Validate(validate::ValidateArgs),
    /// Validate each document and write it back as compact JSON, shaped on the way.
    ///
    /// Unknown members are kept, dropped or denied (--unknown); --pick keeps only the values
    /// at the given JSON Pointers, --redact replaces them. Output documents go to standard
    /// output, one per line; failing documents get a report line on standard error.
    Transcode(transcode::TranscodeArgs),
    /// Print the opcode program a JSON Schema compiles to.
    Explain(explain::ExplainArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let run = RunOptions {
        backend: cli.backend,
        big_ints: cli.big_ints,
        native_size_limit: cli.native_size_limit,
    };
    let status = match &cli.command {
        Command::Check(args) => check::run(args),
        Command::Get(args) => get::run(args),
        Command::Set(args) => set::run(args),
        Command::Validate(args) => validate::run(args, run),
        Command::Transcode(args) => transcode::run(args, run),
        Command::Explain(args) => explain::run(args, run),
    };
    ExitCode::from(status)
}
