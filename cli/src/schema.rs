//! The `--schema S.json` argument, shared by the subcommands that take a schema: reading and
//! loading it, and compiling it to a codec.

use std::path::PathBuf;

use clap::Args;
use jitson::engine::{Backend as EngineBackend, BackendStatus, BigInts as EngineBigInts, Options};
use jitson::{Codec, Schema};

use crate::{Backend, BigInts, Engine};

use crate::input::trouble;

/// The schema argument.
#[derive(Args)]
pub struct SchemaArg {
    /// The JSON Schema (draft 2020-12) file.
    #[arg(long, value_name = "S.json")]
    schema: PathBuf,
}

impl SchemaArg {
    /// The schema compiled for `engine`'s backend and big-integer policy; when the file cannot be read, is not a schema the
    /// engine supports, or `--backend jit` cannot make native code, says why on standard
    /// error (naming the keyword and its JSON Pointer for schema errors) and returns `None`.
    pub fn codec(&self, engine: Engine) -> Option<Codec> {
        let backend = engine.backend;
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
        let big_ints = match engine.big_ints {
            BigInts::F64 => EngineBigInts::F64,
            BigInts::Error => EngineBigInts::Error,
            BigInts::Raw => EngineBigInts::Raw,
        };
        let options = Options::new().backend(engine_backend).big_ints(big_ints);
        let codec = Codec::with_options(&schema, options);
        if let (Backend::Jit, BackendStatus::Fallback(e)) = (backend, codec.backend()) {
            trouble(&format!("the jit backend is not available here: {e}"));
            return None;
        }
        Some(codec)
    }
}
