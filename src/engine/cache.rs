//! [`Engine`]: the shared cache of codecs, keyed by schema [`TypeKey`], with tiering.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use dashmap::DashMap;

use super::worker::Worker;
use super::{Codec, Options, Tiering};
use crate::schema::{Schema, SchemaError, TypeKey};

/// How an [`Engine`] makes its codecs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    codec: Options,
    tiering: Tiering,
    compile_threads: usize,
    typed_decode: TypedDecode,
}

/// How [`Engine::decode`] reads Rust types.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TypedDecode {
    /// The type's [`JsonDecode`](crate::typed::JsonDecode) reads the input in one pass; an
    /// input it does not take (an invalid one, or a shape it leaves to the codec) goes
    /// through [`TypedDecode::TwoPass`], which gives the error. The default.
    #[default]
    OnePass,
    /// The codec decodes the input into a document, then the type's serde `Deserialize`
    /// reads it.
    TwoPass,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            codec: Options::default(),
            tiering: Tiering::default(),
            compile_threads: 1,
            typed_decode: TypedDecode::OnePass,
        }
    }
}

impl EngineOptions {
    /// Default codec options, [`Tiering::Eager`], one compile thread.
    pub fn new() -> EngineOptions {
        EngineOptions::default()
    }

    /// The options every codec is made with; their [`Options::backend`] is set by the
    /// tiering (native for `Eager` and `LazyAfter`, the interpreter for `InterpreterOnly`).
    pub fn codec(mut self, options: Options) -> EngineOptions {
        self.codec = options;
        self
    }

    /// The options codecs are made with (see [`EngineOptions::codec`]).
    pub fn codec_options(&self) -> Options {
        self.codec
    }

    /// When codecs get native code.
    pub fn tiering(mut self, tiering: Tiering) -> EngineOptions {
        self.tiering = tiering;
        self
    }

    /// The most background threads compiling native code at once (at least 1; default 1).
    pub fn compile_threads(mut self, threads: usize) -> EngineOptions {
        self.compile_threads = threads.max(1);
        self
    }

    /// How typed decode reads Rust types (default [`TypedDecode::OnePass`]).
    pub fn typed_decode(mut self, how: TypedDecode) -> EngineOptions {
        self.typed_decode = how;
        self
    }

    /// How typed decode reads Rust types (see [`EngineOptions::typed_decode`]).
    pub fn typed_decode_mode(&self) -> TypedDecode {
        self.typed_decode
    }
}

/// A snapshot of an [`Engine`]'s counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Codecs cached now.
    pub codecs: usize,
    /// Codecs built (cache misses of [`Engine::compile`]).
    pub builds: u64,
    /// [`Engine::compile`] calls answered from the cache.
    pub hits: u64,
    /// Native compilations that made code.
    pub native: u64,
    /// Native compilations that failed (those codecs stay on the interpreter).
    pub fallbacks: u64,
    /// Time spent compiling native code.
    pub native_time: Duration,
    /// Compile jobs waiting for a thread (a codec's native code, or a later tier of it).
    pub queued: usize,
}

/// The codec cache: one codec per schema [`TypeKey`], with tiering.
///
/// ```
/// use std::time::Duration;
/// use jitson::engine::{BackendStatus, Engine, EngineOptions, Tiering};
///
/// let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::Eager));
/// let schema = r#"{"type": "object", "properties": {"id": {"type": "integer"}}}"#;
/// let codec = engine.compile_json(schema).unwrap(); // serves at once, from the interpreter
/// assert!(codec.validate(br#"{"id": 7}"#).is_ok());
///
/// // The same schema (however spelled) is the same codec.
/// let again = engine.compile_json(r#"{"properties": {"id": {"type": "integer"}}, "type": "object"}"#);
/// assert!(std::sync::Arc::ptr_eq(&codec, &again.unwrap()));
///
/// // Native code arrives from a background thread; the answers stay the same.
/// let status = codec.wait_native(Duration::from_secs(10));
/// assert!(matches!(status, BackendStatus::Native | BackendStatus::Fallback(_)));
/// assert!(codec.validate(br#"{"id": "7"}"#).is_err());
/// ```
///
/// - [`Engine::compile`] returns the cached codec of the schema's key, or builds it: two
///   threads asking for the same key at once build it once (the second waits for the
///   first), and builds of other keys are not held up. [`Engine::get`] is one hash lookup.
/// - Codecs are made per [`Tiering`]: they serve from the interpreter until their native
///   code is ready, compiled off the caller's thread by the engine's bounded worker
///   ([`EngineOptions::compile_threads`], started on the first job).
/// - Dropping the engine stops its worker (codecs still queued settle on the interpreter as
///   [`BackendStatus::Cancelled`](super::BackendStatus::Cancelled), a compilation in progress
///   finishes) and frees every codec, with its code memory, that nobody else holds.
/// - Rust types deriving `jitson::Schema` and serde's `Deserialize` are registered and
///   decoded by type: [`Engine::register`], [`Engine::decode`].
/// - An `Engine` is `Send + Sync`: share it in an `Arc`, or keep a process-wide one in a
///   `static OnceLock<Engine>`.
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
    codecs: DashMap<TypeKey, Arc<Codec>>,
    /// Typed codecs by the `TypeId` of the Rust type's [`JsonType::Key`](crate::JsonType::Key)
    /// (see [`Engine::register`]); the same codecs are in `codecs`.
    pub(super) types: DashMap<std::any::TypeId, Arc<Codec>, foldhash::fast::RandomState>,
    /// Builds in progress: a second caller of the same key waits on the first's cell.
    building: DashMap<TypeKey, Arc<OnceLock<Arc<Codec>>>>,
    builds: AtomicU64,
    hits: AtomicU64,
    /// Dropped after `codecs` (fields drop in order): the worker then skips every queued
    /// codec that only the cache held.
    worker: Worker,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::with_options(EngineOptions::default())
    }
}

impl Engine {
    /// An empty engine with default options ([`Tiering::Eager`]).
    pub fn new() -> Engine {
        Engine::default()
    }

    /// An empty engine with `options`. No thread starts until a codec needs compiling.
    pub fn with_options(options: EngineOptions) -> Engine {
        Engine {
            options,
            codecs: DashMap::new(),
            types: DashMap::default(),
            building: DashMap::new(),
            builds: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            worker: Worker::new(options.compile_threads),
        }
    }

    /// The options.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// When codecs get native code.
    pub(super) fn tiering(&self) -> Tiering {
        self.options.tiering
    }

    /// The key `schema`'s codec is cached under ([`TypeKey::of`] with options word 0, as
    /// the registry uses).
    pub fn key(&self, schema: &Schema) -> TypeKey {
        TypeKey::of(schema, 0)
    }

    /// The codec of `schema`: cached, or built now (once, however many threads ask) and
    /// queued for native code per the engine's [`Tiering`].
    pub fn compile(&self, schema: &Schema) -> Arc<Codec> {
        self.compile_keyed(self.key(schema), schema, self.options.codec)
    }

    /// The codec cached under `key`, or built from `schema` with `options` (see
    /// [`Engine::compile`]); `key` must tell apart every schema and options it is used with.
    pub(crate) fn compile_keyed(
        &self,
        key: TypeKey,
        schema: &Schema,
        options: Options,
    ) -> Arc<Codec> {
        if let Some(codec) = self.get(&key) {
            self.hits.fetch_add(1, Relaxed);
            return codec;
        }
        let cell = Arc::clone(&self.building.entry(key).or_default());
        let codec = Arc::clone(cell.get_or_init(|| {
            // A build of this key may have finished between the lookup and the cell.
            if let Some(codec) = self.get(&key) {
                return codec;
            }
            self.builds.fetch_add(1, Relaxed);
            let codec = Codec::tiered(schema, options, self.options.tiering, &self.worker);
            self.codecs.insert(key, Arc::clone(&codec));
            codec
        }));
        self.building.remove_if(&key, |_, c| Arc::ptr_eq(c, &cell));
        codec
    }

    /// Loads the JSON Schema `text` and returns its codec (see [`Engine::compile`]).
    pub fn compile_json(&self, text: &str) -> Result<Arc<Codec>, SchemaError> {
        Ok(self.compile(&Schema::from_json_str(text)?))
    }

    /// The cached codec of `key`, if any.
    pub fn get(&self, key: &TypeKey) -> Option<Arc<Codec>> {
        self.codecs.get(key).map(|codec| Arc::clone(&codec))
    }

    /// How many codecs are cached.
    pub fn len(&self) -> usize {
        self.codecs.len()
    }

    /// Whether no codec is cached.
    pub fn is_empty(&self) -> bool {
        self.codecs.is_empty()
    }

    /// Removes the codec of `key` from the cache and returns it (holders keep it working;
    /// it is freed, with its code memory, when the last one drops it).
    pub fn remove(&self, key: &TypeKey) -> Option<Arc<Codec>> {
        let (_, codec) = self.codecs.remove(key)?;
        self.types.retain(|_, typed| !Arc::ptr_eq(typed, &codec));
        Some(codec)
    }

    /// Removes every codec, typed ones included (see [`Engine::remove`]).
    pub fn clear(&self) {
        self.codecs.clear();
        self.types.clear();
    }

    /// Waits up to `timeout` until no codec is queued for or in native compilation;
    /// whether that happened. (Codecs waiting for [`Tiering::LazyAfter`] uses are not
    /// queued.)
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        self.worker.queue().wait_idle(timeout)
    }

    /// The counters.
    pub fn stats(&self) -> EngineStats {
        let queue = self.worker.queue();
        EngineStats {
            codecs: self.codecs.len(),
            builds: self.builds.load(Relaxed),
            hits: self.hits.load(Relaxed),
            native: queue.counters.native.load(Relaxed),
            fallbacks: queue.counters.fallbacks.load(Relaxed),
            native_time: Duration::from_nanos(queue.counters.nanos.load(Relaxed)),
            queued: queue.queued(),
        }
    }
}
