//! Named schemas with versions and atomic hot swaps: what a proxy serves from.
//!
//! ```
//! use jitson::registry::Registry;
//!
//! let registry = Registry::new();
//! registry.publish_json("user", r#"{"type": "object", "required": ["id"]}"#).unwrap();
//! let v1 = registry.version("user").unwrap(); // a request holds its version to its end
//! assert!(v1.validate(br#"{"id": 1}"#).is_ok());
//!
//! // A schema that does not load is refused; version 1 keeps serving.
//! assert!(registry.publish_json("user", r#"{"type": "objekt"}"#).is_err());
//! assert_eq!(registry.version("user").unwrap().number(), v1.number());
//! ```
//!
//! - [`Registry::publish`] compiles first and swaps only on success; the swap is one atomic
//!   pointer store, so every caller sees either the old or the new version, never a mix.
//! - [`Registry::get`] / [`Registry::version`] are lock-free (two atomic loads and a hash
//!   lookup) and hand out an `Arc`: in-flight work finishes on the version it started with,
//!   and a replaced version's codec (and its code memory) is freed when its last holder
//!   drops it.
//! - Each name keeps a bounded history of its schemas (not their codecs), so
//!   [`Registry::rollback`] recompiles an earlier version; [`Stats`] counts compiles,
//!   compile time, refusals, documents and failures per name.
//! - With [`RegistryOptions::tiering`], a publish does not wait for native code: the new
//!   version serves from the interpreter at once and switches to native code when a
//!   background thread has compiled it (with the same answers); a version replaced before
//!   its turn is never compiled.
//! - [`watch`] publishes the `NAME.schema.json` files of a directory as they change.

mod error;
mod stats;
pub mod watch;

pub use error::{PublishError, RegistryError};
pub use stats::Stats;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime};

use arc_swap::{ArcSwap, ArcSwapOption};

use crate::Error;
use crate::engine::{Codec, Options, Tiering, Worker};
use crate::schema::{Loader, Schema, SchemaError, TypeKey};
use stats::Counters;

/// How a [`Registry`] compiles and what it keeps.
#[derive(Clone, Copy, Debug)]
pub struct RegistryOptions {
    codec: Options,
    history: usize,
    tiering: Option<Tiering>,
}

impl Default for RegistryOptions {
    fn default() -> RegistryOptions {
        RegistryOptions {
            codec: Options::default(),
            history: 8,
            tiering: None,
        }
    }
}

impl RegistryOptions {
    /// Codec options default, 8 versions of history per name, no tiering.
    pub fn new() -> RegistryOptions {
        RegistryOptions::default()
    }

    /// The options every published codec is compiled with. Without
    /// [`RegistryOptions::tiering`], a publish with [`Backend::Native`](crate::engine::Backend::Native)
    /// compiles native code before it swaps.
    pub fn codec(mut self, options: Options) -> RegistryOptions {
        self.codec = options;
        self
    }

    /// Published versions get native code in the background per `tiering` (one compile
    /// thread per registry), serving from the interpreter until it is ready; the codec
    /// options' backend is then set by the tiering, as in an [`Engine`](crate::Engine).
    pub fn tiering(mut self, tiering: Tiering) -> RegistryOptions {
        self.tiering = Some(tiering);
        self
    }

    /// How many versions (the current one included) each name keeps for
    /// [`Registry::rollback`] (at least 1).
    pub fn history(mut self, versions: usize) -> RegistryOptions {
        self.history = versions.max(1);
        self
    }
}

/// One published version of a named schema: its codec, identity and when it was made.
#[derive(Debug)]
pub struct Version {
    name: Arc<str>,
    number: u64,
    key: TypeKey,
    schema: Arc<Schema>,
    codec: Arc<Codec>,
    compile_time: Duration,
    published: SystemTime,
    counters: Arc<Counters>,
}

impl Version {
    /// The schema name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The version number: unique in its registry, increasing with each publish.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The schema's structural key.
    pub fn key(&self) -> TypeKey {
        self.key
    }

    /// The schema.
    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }

    /// The compiled codec.
    pub fn codec(&self) -> &Arc<Codec> {
        &self.codec
    }

    /// How long compiling took (with [`RegistryOptions::tiering`], building the program:
    /// native code comes later, off the publishing thread).
    pub fn compile_time(&self) -> Duration {
        self.compile_time
    }

    /// When this version was published (or rolled back to).
    pub fn published_at(&self) -> SystemTime {
        self.published
    }

    /// Validates `input` with this version's codec, counting the document in the name's
    /// [`Stats`].
    pub fn validate(&self, input: &[u8]) -> Result<(), Error> {
        let result = self.codec.validate(input);
        self.counters.document(result.is_ok());
        result
    }

    /// Counts one document handled with this version by other means (decode, transcode).
    pub fn record(&self, ok: bool) {
        self.counters.document(ok);
    }
}

/// What [`Registry::versions`] lists per kept version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    /// The version number.
    pub number: u64,
    /// The schema's structural key.
    pub key: TypeKey,
    /// When it was published.
    pub published_at: SystemTime,
    /// Whether it is the one serving.
    pub current: bool,
}

/// A kept schema of a name's history (no codec: rollback recompiles).
#[derive(Debug)]
struct Release {
    number: u64,
    key: TypeKey,
    schema: Arc<Schema>,
    published: SystemTime,
}

/// Everything the registry holds for one name.
#[derive(Debug, Default)]
struct Slot {
    current: ArcSwapOption<Version>,
    /// Newest last; at most `RegistryOptions::history` entries.
    history: Mutex<VecDeque<Release>>,
    counters: Arc<Counters>,
}

/// Named, versioned, hot-swappable codecs. Share it in an `Arc`; every method takes `&self`.
#[derive(Debug)]
pub struct Registry {
    options: RegistryOptions,
    /// Copy-on-write: replaced (under `writer`) only when a name is first seen.
    slots: ArcSwap<HashMap<Arc<str>, Arc<Slot>>>,
    /// Serializes swaps, history updates and slot creation; never taken by readers.
    writer: Mutex<()>,
    next_version: AtomicU64,
    /// Compiles native code for tiered publishes (no thread until the first one).
    worker: Worker,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::with_options(RegistryOptions::default())
    }
}

impl Registry {
    /// An empty registry with default options.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// An empty registry with `options`.
    pub fn with_options(options: RegistryOptions) -> Registry {
        Registry {
            options,
            slots: ArcSwap::from_pointee(HashMap::new()),
            writer: Mutex::new(()),
            next_version: AtomicU64::new(1),
            worker: Worker::new(1),
        }
    }

    /// Loads the JSON Schema `text` and publishes it under `name` (see [`Registry::publish`]).
    pub fn publish_json(&self, name: &str, text: &str) -> Result<Arc<Version>, PublishError> {
        self.publish_json_checked(name, text, &[])
    }

    /// [`Registry::publish_json`], refused unless every sample validates.
    pub fn publish_json_checked(
        &self,
        name: &str,
        text: &str,
        samples: &[&[u8]],
    ) -> Result<Arc<Version>, PublishError> {
        self.publish_loaded(name, Schema::from_json_str(text), samples)
    }

    /// [`Registry::publish_json`] with the documents of `loader` for the schema's `$ref`s.
    pub fn publish_json_with(
        &self,
        name: &str,
        text: &str,
        loader: &Loader,
    ) -> Result<Arc<Version>, PublishError> {
        self.publish_loaded(name, loader.load_json(text.as_bytes()), &[])
    }

    /// Publishes a loaded schema as [`Registry::publish_checked`] does; a load error is a
    /// rejection.
    pub(crate) fn publish_loaded(
        &self,
        name: &str,
        loaded: Result<Schema, SchemaError>,
        samples: &[&[u8]],
    ) -> Result<Arc<Version>, PublishError> {
        match loaded {
            Ok(schema) => self.publish_checked(name, schema, samples),
            Err(e) => {
                self.slot(name).counters.rejected();
                Err(PublishError::Schema(e))
            }
        }
    }

    /// Compiles `schema` and, on success, makes it the version serving `name` (atomically;
    /// callers holding the previous version keep it until they drop it).
    pub fn publish(&self, name: &str, schema: Schema) -> Result<Arc<Version>, PublishError> {
        self.publish_checked(name, schema, &[])
    }

    /// [`Registry::publish`], refused (the previous version keeps serving) unless every
    /// sample document validates against the new schema.
    pub fn publish_checked(
        &self,
        name: &str,
        schema: Schema,
        samples: &[&[u8]],
    ) -> Result<Arc<Version>, PublishError> {
        let slot = self.slot(name);
        let (codec, compile_time) = self.compile(&slot, &schema);
        let mut cache = crate::engine::Cache::new();
        for (index, sample) in samples.iter().enumerate() {
            if let Err(error) = codec.validate_with(&mut cache, sample) {
                slot.counters.rejected();
                return Err(PublishError::SampleRejected { index, error });
            }
        }
        let _writer = self.lock_writer();
        let number = self.next_version.fetch_add(1, Ordering::Relaxed);
        let version = self.install(name, &slot, number, Arc::new(schema), codec, compile_time);
        Ok(version)
    }

    /// The codec serving `name`, if any. Lock-free.
    pub fn get(&self, name: &str) -> Option<Arc<Codec>> {
        self.version(name).map(|v| Arc::clone(&v.codec))
    }

    /// The version serving `name`, if any. Lock-free.
    pub fn version(&self, name: &str) -> Option<Arc<Version>> {
        self.slots.load().get(name)?.current.load_full()
    }

    /// The names currently served, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .slots
            .load()
            .iter()
            .filter(|(_, slot)| slot.current.load().is_some())
            .map(|(name, _)| name.to_string())
            .collect();
        names.sort();
        names
    }

    /// The kept versions of `name`, oldest first.
    pub fn versions(&self, name: &str) -> Result<Vec<VersionInfo>, RegistryError> {
        let slot = self.existing(name)?;
        let current = slot.current.load().as_ref().map(|v| v.number);
        let history = lock(&slot.history);
        Ok(history
            .iter()
            .map(|r| VersionInfo {
                number: r.number,
                key: r.key,
                published_at: r.published,
                current: Some(r.number) == current,
            })
            .collect())
    }

    /// Makes the kept version `number` of `name` serve again (recompiled from its schema).
    pub fn rollback(&self, name: &str, number: u64) -> Result<Arc<Version>, RegistryError> {
        let slot = self.existing(name)?;
        let unknown = || RegistryError::UnknownVersion {
            name: name.to_string(),
            version: number,
        };
        let schema = lock(&slot.history)
            .iter()
            .find(|r| r.number == number)
            .map(|r| Arc::clone(&r.schema))
            .ok_or_else(unknown)?;
        let (codec, compile_time) = self.compile(&slot, &schema);
        let _writer = self.lock_writer();
        Ok(self.install(name, &slot, number, schema, codec, compile_time))
    }

    /// Stops serving `name`; returns the version that was serving. Its history and counters
    /// are kept, so a later publish or rollback can bring it back.
    pub fn remove(&self, name: &str) -> Result<Arc<Version>, RegistryError> {
        let slot = self.existing(name)?;
        let _writer = self.lock_writer();
        slot.current
            .swap(None)
            .ok_or_else(|| RegistryError::UnknownName(name.to_string()))
    }

    /// The counters of `name` (over all its versions), if the name was ever published.
    pub fn stats(&self, name: &str) -> Option<Stats> {
        Some(self.slots.load().get(name)?.counters.snapshot())
    }

    fn compile(&self, slot: &Slot, schema: &Schema) -> (Arc<Codec>, Duration) {
        let start = Instant::now();
        let codec = match self.options.tiering {
            Some(tiering) => Codec::tiered(schema, self.options.codec, tiering, &self.worker),
            None => Arc::new(Codec::with_options(schema, self.options.codec)),
        };
        let took = start.elapsed();
        slot.counters.compiled(took);
        (codec, took)
    }

    /// Swaps `codec` in as version `number` and records it in the history. Called with the
    /// writer lock held.
    fn install(
        &self,
        name: &str,
        slot: &Slot,
        number: u64,
        schema: Arc<Schema>,
        codec: Arc<Codec>,
        compile_time: Duration,
    ) -> Arc<Version> {
        let key = TypeKey::of(&schema, 0);
        let published = SystemTime::now();
        let version = Arc::new(Version {
            name: Arc::from(name),
            number,
            key,
            schema: Arc::clone(&schema),
            codec,
            compile_time,
            published,
            counters: Arc::clone(&slot.counters),
        });
        slot.current.store(Some(Arc::clone(&version)));
        let mut history = lock(&slot.history);
        history.retain(|r| r.number != number);
        history.push_back(Release {
            number,
            key,
            schema,
            published,
        });
        while history.len() > self.options.history {
            history.pop_front();
        }
        version
    }

    /// The slot of `name`, created (copy-on-write of the name map) on first use.
    fn slot(&self, name: &str) -> Arc<Slot> {
        if let Some(slot) = self.slots.load().get(name) {
            return Arc::clone(slot);
        }
        let _writer = self.lock_writer();
        let slots = self.slots.load_full();
        if let Some(slot) = slots.get(name) {
            return Arc::clone(slot);
        }
        let slot = Arc::new(Slot::default());
        let mut next = HashMap::clone(&slots);
        next.insert(Arc::from(name), Arc::clone(&slot));
        self.slots.store(Arc::new(next));
        slot
    }

    fn existing(&self, name: &str) -> Result<Arc<Slot>, RegistryError> {
        self.slots
            .load()
            .get(name)
            .cloned()
            .ok_or_else(|| RegistryError::UnknownName(name.to_string()))
    }

    fn lock_writer(&self) -> MutexGuard<'_, ()> {
        lock(&self.writer)
    }
}

/// Locks `mutex`, ignoring poisoning: every critical section leaves its data consistent
/// before anything that could panic.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
