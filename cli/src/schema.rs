//! The `--schema S.json` argument (with the `--document` files its `$ref`s may name), shared
//! by the subcommands that take a schema: reading and loading it, and compiling it to a codec.
//!
//! `--backend auto` takes the codec from a process-wide [`Engine`] with lazy tiering: a
//! schema's first [`AUTO_AFTER`] documents run on the interpreter, and then a background
//! thread compiles native code while the run goes on, switching when it is ready. The engine
//! is never dropped, so the process exits without waiting for a compilation in progress.
//! Measured (docs/benchmarks.md): compiling costs far more than one document saves (book:
//! 11 ms of compile against 1.3 µs saved per document), and with eager tiering the compile
//! thread still slowed a one-document command on a busy machine; waiting for
//! [`AUTO_AFTER`] documents keeps one-shot commands at the interpreter's cost and gives
//! streams native code. `--backend jit` compiles before any input is read, so that every
//! document runs natively (or the command refuses).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use clap::Args;
use jitson::Codec;
use jitson::engine::{
    Backend as EngineBackend, BackendStatus, BigInts as EngineBigInts, Engine, EngineOptions,
    Options, Tiering,
};
use jitson::schema::Loader;

use crate::{Backend, BigInts, RunOptions};

use crate::input::trouble;

/// The schema argument.
#[derive(Args)]
pub struct SchemaArg {
    /// The JSON Schema (draft 2020-12) file.
    #[arg(long, value_name = "S.json")]
    schema: PathBuf,
    /// A document the schema's `$ref`s may name, under URI (with `URI=FILE`) or under the
    /// FILE's path as written (and, either way, under its root's `$id`); YAML when FILE
    /// ends in `.yaml` or `.yml`. Repeatable.
    #[arg(long = "document", value_name = "[URI=]FILE")]
    documents: Vec<String>,
    /// A document that is no schema but holds schemas (an OpenAPI document), under URI or
    /// the FILE's path as written: `$ref`s name its schemas by JSON Pointer
    /// (`openapi.json#/components/schemas/Pet`); YAML when FILE ends in `.yaml` or `.yml`.
    /// Repeatable.
    #[arg(long = "container", value_name = "[URI=]FILE")]
    containers: Vec<String>,
    /// Check `format` (date-time, email, uri, ...) instead of taking it as an annotation;
    /// formats draft 2020-12 does not define stay annotations.
    #[arg(long)]
    assert_formats: bool,
    /// Take KEYWORD as an annotation (any value, not checked) instead of refusing the schema
    /// for a keyword the engine does not implement; `x-*` takes every keyword starting
    /// with `x-`, `*` every keyword. Repeatable (OpenAPI's dialects, see `--dialect`, take
    /// OpenAPI's keywords and `x-` extensions without it).
    #[arg(long = "annotation-keyword", value_name = "KEYWORD")]
    annotation_keywords: Vec<String>,
    /// Read the schema and its documents, where they name no `$schema`, in the dialect URI:
    /// draft 2020-12 (the default), OpenAPI 3.1's
    /// (https://spec.openapis.org/oas/3.1/dialect/base), OpenAPI 3.0's
    /// (https://spec.openapis.org/oas/3.0/schema/2021-09-28#/definitions/Schema), or a
    /// meta-schema given with `--document`, whose `$vocabulary` says which vocabularies the
    /// schemas use.
    #[arg(long, value_name = "URI")]
    dialect: Option<String>,
}

impl SchemaArg {
    /// The schema compiled for `run`'s backend, big-integer policy and size limit; when the
    /// file cannot be read, is not a schema the engine supports, or `--backend jit` cannot
    /// make native code, says why on standard error (naming the keyword and its JSON Pointer
    /// for schema errors) and returns `None`.
    pub fn codec(&self, run: RunOptions) -> Option<Arc<Codec>> {
        let loader = self.loader()?;
        let name = self.schema.display();
        let text = std::fs::read(&self.schema)
            .map_err(|e| trouble(&format!("{name}: {e}")))
            .ok()?;
        let schema = loader
            .load_json(&text)
            .map_err(|e| trouble(&format!("{name}: schema error: {e}")))
            .ok()?;
        let big_ints = match run.big_ints {
            BigInts::F64 => EngineBigInts::F64,
            BigInts::Error => EngineBigInts::Error,
            BigInts::Raw => EngineBigInts::Raw,
        };
        let options = (Options::new().big_ints(big_ints)).native_size_limit(run.native_size_limit);
        let engine_backend = match run.backend {
            Backend::Auto => return Some(engine(options).compile(&schema)),
            Backend::Interp => EngineBackend::Interpreter,
            Backend::Jit => EngineBackend::Native,
        };
        let codec = Codec::with_options(&schema, options.backend(engine_backend));
        if let BackendStatus::Fallback(e) = codec.backend() {
            trouble(&format!("the jit backend is not available here: {e}"));
            return None;
        }
        Some(Arc::new(codec))
    }
}

impl SchemaArg {
    /// A loader with the `--document` and `--container` files (YAML when named `.yaml` or
    /// `.yml`); `None` (said on standard error) when one cannot be read or is not a document
    /// under a URI a `$ref` can name.
    fn loader(&self) -> Option<Loader> {
        let mut loader = Loader::new();
        loader.assert_formats(self.assert_formats);
        for keyword in &self.annotation_keywords {
            loader.annotation_keyword(keyword);
        }
        if let Some(dialect) = &self.dialect {
            loader.default_dialect(dialect);
        }
        let documents = (self.documents.iter()).map(|d| (d, false));
        let containers = (self.containers.iter()).map(|c| (c, true));
        for (argument, container) in documents.chain(containers) {
            let (uri, path) = argument.split_once('=').unwrap_or((argument, argument));
            let yaml = path.ends_with(".yaml") || path.ends_with(".yml");
            let add: Add = match (container, yaml) {
                (false, false) => Loader::document_json,
                (false, true) => Loader::document_yaml,
                (true, false) => Loader::container_json,
                (true, true) => Loader::container_yaml,
            };
            let text = std::fs::read(path)
                .map_err(|e| trouble(&format!("{path}: {e}")))
                .ok()?;
            add(&mut loader, uri, &text)
                .map_err(|e| trouble(&format!("{path}: schema error: {e}")))
                .ok()?;
        }
        Some(loader)
    }
}

/// How a file is given to the loader: [`Loader::document_json`], [`Loader::container_json`]
/// or their YAML twins.
type Add = for<'l> fn(&'l mut Loader, &str, &[u8]) -> Result<&'l mut Loader, jitson::SchemaError>;

/// Documents a schema validates under `--backend auto` before its native code is compiled.
const AUTO_AFTER: u32 = 100;

/// The process-wide engine of `--backend auto` (never dropped), made with the codec
/// `options` of the first call (one process runs one command, with one set of options).
fn engine(options: Options) -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let tiering = Tiering::LazyAfter(AUTO_AFTER);
        Engine::with_options(EngineOptions::new().codec(options).tiering(tiering))
    })
}
