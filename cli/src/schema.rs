//! The `--schema S.json` argument, shared by the subcommands that take a schema: reading and
//! loading it, and compiling it to a codec.

use std::path::PathBuf;

use clap::Args;
use jitson::{Codec, Schema};

use crate::input::trouble;

/// The schema argument.
#[derive(Args)]
pub struct SchemaArg {
    /// The JSON Schema (draft 2020-12) file.
    #[arg(long, value_name = "S.json")]
    schema: PathBuf,
}

impl SchemaArg {
    /// The compiled schema; when the file cannot be read or is not a schema the engine
    /// supports, says why on standard error (naming the keyword and its JSON Pointer) and
    /// returns `None`.
    pub fn codec(&self) -> Option<Codec> {
        let name = self.schema.display();
        let text = std::fs::read(&self.schema)
            .map_err(|e| trouble(&format!("{name}: {e}")))
            .ok()?;
        let schema = Schema::from_json_slice(&text)
            .map_err(|e| trouble(&format!("{name}: schema error: {e}")))
            .ok()?;
        Some(Codec::new(&schema))
    }
}
