//! `jitson explain`: print the opcode program a schema compiles to.

use std::io::Write;

use clap::Args;

use crate::schema::SchemaArg;
use crate::{EXIT_OK, EXIT_TROUBLE};

/// Arguments of `jitson explain`.
#[derive(Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    schema: SchemaArg,
}

/// Prints the listing; returns the exit status.
pub fn run(args: &ExplainArgs) -> u8 {
    let Some(codec) = args.schema.codec() else {
        return EXIT_TROUBLE;
    };
    let _ = write!(std::io::stdout().lock(), "{}", codec.program());
    EXIT_OK
}
