//! The `--schema S.json` argument, shared by the subcommands that take a schema: reading and
//! loading it, and compiling it to a codec.

use std::path::PathBuf;

use clap::Args;
use jitson::engine::{Backend as EngineBackend, BackendStatus, Options};
use jitson::{Codec, Schema};

use crate::Backend;

use crate::input::trouble;

/// The schema argument.
#[derive(Args)]
pub struct SchemaArg {
    /// The JSON Schema (draft 2020-12) file.
    #[arg(long, value_name = "S.json")]
    schema: PathBuf,
}

impl SchemaArg {
    /// The schema compiled for `backend`; when the file cannot be read, is not a schema the
    /// engine supports, or `--backend jit` cannot make native code, says why on standard
    /// error (naming the keyword and its JSON Pointer for schema errors) and returns `None`.
    pub fn codec(&self, backend: Backend) -> Option<Codec> {
        let name = self.schema.display();
        let text = std::fs::read(&self.schema)
            .map_err(|e| trouble(&format!("{name}: {e}")))
            .ok()?;
        let schema = Schema::from_json_slice(&text)
            .map_err(|e| trouble(&format!("{name}: schema error: {e}")))
            .ok()?;
        let engine_backend = match backend {
            Backend::Interp => EngineBackend::Interpreter,
            Backend::Auto | Backend::Jit => EngineBackend::Native,
        };
        let codec = Codec::with_options(&schema, Options::new().backend(engine_backend));
        if let (Backend::Jit, BackendStatus::Fallback(e)) = (backend, codec.backend()) {
            trouble(&format!("the jit backend is not available here: {e}"));
            return None;
        }
        Some(codec)
    }
}
