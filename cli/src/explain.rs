//! `jitson explain`: print the opcode program a schema compiles to, or (`--clif`) the
//! Cranelift IR of its native code.

use std::io::Write;

use clap::Args;

use crate::RunOptions;
use crate::input::trouble;
use crate::schema::SchemaArg;
use crate::{EXIT_OK, EXIT_TROUBLE};

/// Arguments of `jitson explain`.
#[derive(Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    schema: SchemaArg,
    /// Print the Cranelift IR the JIT compiles the program to, instead of the opcodes.
    #[arg(long)]
    clif: bool,
}

/// Prints the listing; returns the exit status.
pub fn run(args: &ExplainArgs, run: RunOptions) -> u8 {
    let Some(codec) = args.schema.codec(run) else {
        return EXIT_TROUBLE;
    };
    let listing = match args.clif {
        false => codec.program().to_string(),
        true => match jitson::jit::native::clif(codec.program()) {
            Ok(clif) => clif,
            Err(e) => {
                trouble(&format!("no Cranelift IR: {e}"));
                return EXIT_TROUBLE;
            }
        },
    };
    let _ = write!(std::io::stdout().lock(), "{listing}");
    EXIT_OK
}
