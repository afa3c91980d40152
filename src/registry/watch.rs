//! A directory of `NAME.schema.json` files as a schema source for a [`Registry`].
//!
//! [`DirectorySource::scan`] publishes every file whose content changed since the last scan
//! and removes the names whose files are gone; [`DirectorySource::watch`] runs
//! [`DirectorySource::poll`] on a background thread, which does the same but only for files
//! that have stayed unchanged (same length and modification time) for the debounce period,
//! so a file being written is not read half-way. A file that does not load is reported and
//! skipped: the name's previous version keeps serving. Polling needs no platform watcher
//! and sees every change within one interval plus the debounce.
//!
//! The files may refer to each other: each is a document the others' `$ref`s can name, by
//! its file name (`{"$ref": "address.schema.json#/$defs/zip"}` from a schema without `$id`)
//! or by its root's `$id` (see [`Loader`]). When a file changes or goes, the names whose
//! schemas read it (directly or through another document) are loaded again with the
//! directory's documents and published again when their schema changed, so a schema
//! follows the documents it refers to; one that no longer loads is reported once (its
//! previous version keeps serving), and one that could not load (for want of a document,
//! say) is tried again at every change, so it is published once that document arrives. A
//! new document may take a name another resolved through a `$id`, so when one arrives every
//! name is loaded again.
//!
//! The directory's other `.json` files are containers of schemas
//! ([`Loader::container_json`]): an OpenAPI document beside `pet.schema.json`, which reads
//! `{"$ref": "openapi.json#/components/schemas/Pet"}`. They publish nothing; a change to one
//! loads again the schemas that read it, and one that is not JSON is reported as
//! [`WatchEvent::Unreadable`]. So are its `.yaml` and `.yml` files, read as YAML
//! (`Loader::container_yaml`, with the `yaml` feature). [`DirectorySource::reference`]
//! publishes a schema a reference names without such a file: under a name of its own, it is
//! loaded as a schema file holding only that `$ref` would be, and follows the documents it
//! reads alike.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::ffi::OsStr;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};
use std::{fmt, fs, io};

use super::{PublishError, Registry, lock};
use crate::schema::{Loader, SchemaError, uri};

/// The file name suffix of schema files; the name is what precedes it.
pub const SUFFIX: &str = ".schema.json";

/// What a scan or poll did, one event per file acted on.
#[derive(Debug)]
pub enum WatchEvent {
    /// The file's schema now serves its name.
    Published {
        /// The schema name.
        name: String,
        /// The new version number.
        version: u64,
        /// The file.
        path: PathBuf,
    },
    /// The file did not load or compile; the previous version (if any) keeps serving.
    Rejected {
        /// The schema name.
        name: String,
        /// The file.
        path: PathBuf,
        /// Why.
        error: PublishError,
    },
    /// The file is gone, so its name no longer serves.
    Removed {
        /// The schema name.
        name: String,
        /// The file.
        path: PathBuf,
    },
    /// The directory or a file could not be read.
    Unreadable {
        /// The directory or file.
        path: PathBuf,
        /// The I/O error.
        error: io::Error,
    },
}

impl fmt::Display for WatchEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WatchEvent::Published {
                name,
                version,
                path,
            } => write!(f, "{}: published {name} version {version}", path.display()),
            WatchEvent::Rejected { name, path, error } => {
                write!(f, "{}: {name} not published: {error}", path.display())
            }
            WatchEvent::Removed { name, path } => {
                write!(f, "{}: removed, {name} no longer served", path.display())
            }
            WatchEvent::Unreadable { path, error } => {
                write!(f, "{}: unreadable: {error}", path.display())
            }
        }
    }
}

/// The length and modification time of a file: when they stay the same between two polls
/// a debounce period apart, the writer is taken to be done.
type Fingerprint = (u64, Option<SystemTime>);

/// What the source remembers of one file.
#[derive(Debug)]
struct FileState {
    /// The fingerprint at the last look, and since when it has been so.
    seen: Fingerprint,
    since: Instant,
    /// The content hash of the last version acted on (published or rejected), if any.
    handled: Option<u64>,
    /// The text of that version.
    text: Option<String>,
    /// Whether that text is a document of the directory's loader (it is JSON).
    document: bool,
    /// The documents (file names) its last load read, `None` when it did not load: a
    /// change to one of them loads it again; without them it is tried at every change.
    reads: Option<Vec<String>>,
    /// The error last reported for that text, so that loading it again for a document it
    /// refers to does not report the same rejection twice.
    rejection: Option<String>,
    /// Whether `seen` has been acted on.
    settled: bool,
}

/// Publishes a directory's `NAME.schema.json` files into a registry; its other `.json` files
/// (and `.yaml`, `.yml` ones) are containers of schemas they may refer to.
#[derive(Debug)]
pub struct DirectorySource {
    registry: Arc<Registry>,
    dir: PathBuf,
    files: HashMap<PathBuf, FileState>,
    /// Every file's last text that is JSON, as a document under its file name.
    loader: Loader,
    /// The schemas published by reference, in the order given.
    references: Vec<Reference>,
    /// Schema loads so far.
    loads: u64,
}

/// A schema [`DirectorySource::reference`] publishes, and what its last load did.
#[derive(Debug)]
struct Reference {
    /// The name it serves under.
    name: String,
    /// The schema that refers to it: `{"$ref": …}`.
    text: String,
    /// The directory's file the reference names, for events.
    path: PathBuf,
    /// Whether it has been loaded yet.
    loaded: bool,
    /// As a schema file's (see [`FileState`]).
    reads: Option<Vec<String>>,
    /// As a schema file's (see [`FileState`]).
    rejection: Option<String>,
}

impl DirectorySource {
    /// A source for the files of `dir` (nothing is read until the first scan or poll).
    pub fn new(registry: Arc<Registry>, dir: impl Into<PathBuf>) -> DirectorySource {
        DirectorySource {
            registry,
            dir: dir.into(),
            files: HashMap::new(),
            loader: Loader::new(),
            references: Vec::new(),
            loads: 0,
        }
    }

    /// Publishes under `name` the schema that `reference` names, resolved against the
    /// directory (`openapi.json#/components/schemas/Pet`, a schema in a container beside the
    /// schema files), as a schema file that holds only `{"$ref": reference}` would be: loaded
    /// at the first scan, and again when a document it reads changes; when it does not load,
    /// the event is a rejection (the previous version keeps serving). A schema file of the
    /// same name (`NAME.schema.json`) is then rejected ([`PublishError::NameTaken`]): the
    /// reference keeps the name. Give references before the first scan.
    ///
    /// ```no_run
    /// use jitson::registry::{Registry, watch::DirectorySource};
    /// use std::sync::Arc;
    ///
    /// let registry = Arc::new(Registry::new());
    /// let pet = "openapi.json#/components/schemas/Pet";
    /// let mut source = DirectorySource::new(Arc::clone(&registry), "schemas").reference(pet, pet);
    /// source.scan();
    /// let codec = registry.get(pet).expect("openapi.json has the schema");
    /// ```
    pub fn reference(mut self, name: impl Into<String>, reference: &str) -> DirectorySource {
        let document = uri::split_fragment(reference).0;
        self.references.push(Reference {
            name: name.into(),
            text: serde_json::json!({ "$ref": reference }).to_string(),
            path: self.dir.join(document),
            loaded: false,
            reads: None,
            rejection: None,
        });
        self
    }

    /// Loads the schemas with `format` asserted (when `yes`; see
    /// [`Loader::assert_formats`]). Set it before the first scan.
    pub fn assert_formats(mut self, yes: bool) -> DirectorySource {
        self.loader.assert_formats(yes);
        self
    }

    /// Loads the schemas with `loader`: its settings ([`Loader::assert_formats`],
    /// [`Loader::annotation_keyword`]) and its documents, beside the directory's files (a
    /// file takes the place of a document given under its file name). Set it before the
    /// first scan.
    pub fn loader(mut self, loader: Loader) -> DirectorySource {
        self.loader = loader;
        self
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many times this source has loaded a schema file (parsed it and resolved its
    /// references): once per changed file, and once per other file that reads a changed
    /// one, could not load before, or might resolve a name otherwise now.
    pub fn loads(&self) -> u64 {
        self.loads
    }

    /// Acts now on every changed or removed file, without waiting for writers to settle
    /// (an explicit reload).
    pub fn scan(&mut self) -> Vec<WatchEvent> {
        self.visit(Duration::ZERO)
    }

    /// Acts on the files that changed or disappeared and have stayed so for `debounce`.
    pub fn poll(&mut self, debounce: Duration) -> Vec<WatchEvent> {
        self.visit(debounce)
    }

    /// Runs [`DirectorySource::poll`] every `interval` on a background thread, handing each
    /// event to `on_event`, until the returned handle is dropped. The handle's
    /// [`DirectoryWatch::reload`] runs a [`DirectorySource::scan`] on the same source.
    pub fn watch(
        self,
        interval: Duration,
        debounce: Duration,
        mut on_event: impl FnMut(WatchEvent) + Send + 'static,
    ) -> io::Result<DirectoryWatch> {
        let source = Arc::new(Mutex::new(self));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (source, stop) = (Arc::clone(&source), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("jitson-schema-watch".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let events = lock(&source).poll(debounce);
                        events.into_iter().for_each(&mut on_event);
                        std::thread::park_timeout(interval);
                    }
                })?
        };
        Ok(DirectoryWatch {
            source,
            stop,
            thread: Some(thread),
        })
    }

    fn visit(&mut self, debounce: Duration) -> Vec<WatchEvent> {
        let now = Instant::now();
        let mut events = Vec::new();
        let present = match self.list() {
            Ok(present) => present,
            Err(error) => {
                let path = self.dir.clone();
                return vec![WatchEvent::Unreadable { path, error }];
            }
        };
        let mut changed = Vec::new();
        for (path, seen) in &present {
            let state = self.files.entry(path.clone()).or_insert(FileState {
                seen: *seen,
                since: now,
                handled: None,
                text: None,
                document: false,
                reads: None,
                rejection: None,
                settled: false,
            });
            if state.seen != *seen {
                state.seen = *seen;
                state.since = now;
                state.settled = false;
            }
            if !state.settled && now.duration_since(state.since) >= debounce {
                state.settled = true;
                match read_new(&self.registry, path, state) {
                    Ok(true) => changed.push(path.clone()),
                    Ok(false) => {}
                    Err(event) => events.push(event),
                }
            }
        }
        let gone: Vec<PathBuf> = self
            .files
            .keys()
            .filter(|p| !present.contains_key(*p))
            .cloned()
            .collect();
        let mut touched: Vec<String> = (gone.iter().chain(&changed))
            .filter_map(|p| Some(p.file_name()?.to_str()?.to_owned()))
            .collect();
        touched.sort();
        for path in gone {
            events.extend(self.forget(path));
        }
        if touched.is_empty() {
            events.extend(self.load_new_references());
            return events;
        }
        changed.sort();
        let mut arrived = false;
        for path in &changed {
            match self.update_document(path) {
                Ok(new) => arrived |= new,
                Err(error) => {
                    let error = io::Error::new(io::ErrorKind::InvalidData, error);
                    let path = path.clone();
                    events.push(WatchEvent::Unreadable { path, error });
                }
            }
        }
        for path in &changed {
            events.extend(self.load_file(path, Publish::Always));
        }
        let reads_touched =
            |reads: &Vec<String>| (reads.iter()).any(|r| touched.binary_search(r).is_ok());
        let follows =
            |reads: &Option<Vec<String>>| arrived || reads.as_ref().is_none_or(reads_touched);
        let mut others: Vec<PathBuf> = (self.files.iter())
            .filter(|(p, state)| !changed.contains(p) && follows(&state.reads))
            .map(|(p, _)| p.clone())
            .collect();
        others.sort();
        for path in &others {
            events.extend(self.load_file(path, Publish::IfChanged));
        }
        for reference in &mut self.references {
            if reference.loaded && !follows(&reference.reads) {
                continue;
            }
            events.extend(reference.load(&self.loader, &self.registry, &mut self.loads));
        }
        events
    }

    /// Loads the schema references name for the first time (a scan that finds no file
    /// changed loads them too).
    fn load_new_references(&mut self) -> Vec<WatchEvent> {
        (self.references.iter_mut())
            .filter(|reference| !reference.loaded)
            .filter_map(|reference| reference.load(&self.loader, &self.registry, &mut self.loads))
            .collect()
    }

    /// Puts the last text of the file at `path` in the loader under its file name (a
    /// schema file as a document, another as a container), or takes it out when the text is
    /// not JSON. `Ok(true)` when the file was no document before and is one now; the error of
    /// a container that is not JSON (a schema file's own load reports its error).
    fn update_document(&mut self, path: &Path) -> Result<bool, SchemaError> {
        let (Some(file), Some(state)) = (
            path.file_name().and_then(|f| f.to_str()),
            self.files.get_mut(path),
        ) else {
            return Ok(false);
        };
        let was = state.document;
        let schema = schema_name(path).is_some();
        let added = (state.text.as_ref()).map(|text| match schema {
            true => self.loader.document_json(file, text.as_bytes()).map(drop),
            false => add_container(&mut self.loader, file, text),
        });
        state.document = matches!(added, Some(Ok(())));
        if !state.document {
            self.loader.remove_document(file);
        }
        match added {
            Some(Err(error)) if !schema => Err(error),
            _ => Ok(state.document && !was),
        }
    }

    /// Loads the last text of the schema file at `path` with the directory's documents and
    /// publishes it as `publish` says. A file whose name a reference publishes is rejected
    /// (once per text) and not loaded: the reference keeps the name.
    fn load_file(&mut self, path: &Path, publish: Publish) -> Option<WatchEvent> {
        let state = self.files.get_mut(path)?;
        let name = schema_name(path)?;
        if self.references.iter().any(|r| r.name == name) {
            let error = PublishError::NameTaken { name: name.into() };
            if matches!(publish, Publish::IfChanged)
                && state.rejection.as_deref() == Some(&error.to_string())
            {
                return None;
            }
            state.rejection = Some(error.to_string());
            let (name, path) = (name.to_owned(), path.to_path_buf());
            return Some(WatchEvent::Rejected { name, path, error });
        }
        let served = Served {
            name,
            path,
            text: state.text.as_deref()?,
            reads: &mut state.reads,
            rejection: &mut state.rejection,
        };
        served.load(&self.loader, &self.registry, &mut self.loads, publish)
    }

    /// The schema files and containers of the directory with their fingerprints.
    fn list(&self) -> io::Result<HashMap<PathBuf, Fingerprint>> {
        let mut files = HashMap::new();
        for entry in fs::read_dir(&self.dir)? {
            let entry = entry?;
            let path = entry.path();
            let read = |extension: &OsStr| EXTENSIONS.iter().any(|e| extension == *e);
            if !path.extension().is_some_and(read) {
                continue;
            }
            if let Ok(meta) = entry.metadata()
                && meta.is_file()
            {
                files.insert(path, (meta.len(), meta.modified().ok()));
            }
        }
        Ok(files)
    }

    /// A file disappeared: its name stops serving (if this file had published it, and no
    /// reference holds the name).
    fn forget(&mut self, path: PathBuf) -> Option<WatchEvent> {
        let state = self.files.remove(&path)?;
        if let Some(file) = path.file_name().and_then(|f| f.to_str()) {
            self.loader.remove_document(file);
        }
        let name = schema_name(&path)?.to_string();
        state.handled?;
        if self.references.iter().any(|r| r.name == name) {
            return None;
        }
        self.registry.remove(&name).ok()?;
        Some(WatchEvent::Removed { name, path })
    }
}

/// Whether a load is published whatever it gives, or only when it changes what serves.
#[derive(Clone, Copy)]
enum Publish {
    /// A changed file: publish its schema, report its error.
    Always,
    /// A schema loaded again for a document it reads: publish its schema when it is not
    /// the one serving, report an error unless it is the one last reported.
    IfChanged,
}

/// A schema this source publishes (a file's or a reference's), as one load sees it.
struct Served<'s> {
    /// The name it serves under.
    name: &'s str,
    /// The file its events name.
    path: &'s Path,
    /// Its text.
    text: &'s str,
    /// The documents (file names) its last load read; `None` when it did not load.
    reads: &'s mut Option<Vec<String>>,
    /// The error last reported for it.
    rejection: &'s mut Option<String>,
}

impl Served<'_> {
    /// Loads the text with `loader` (counting the load in `loads`), notes which documents it
    /// read, and publishes it into `registry` as `publish` says (a load error is a
    /// rejection).
    fn load(
        self,
        loader: &Loader,
        registry: &Registry,
        loads: &mut u64,
        publish: Publish,
    ) -> Option<WatchEvent> {
        let mut read = Vec::new();
        let loaded = loader.load_json_reading(self.text.as_bytes(), &mut read);
        *loads += 1;
        *self.reads = loaded.is_ok().then_some(read);
        if let Publish::IfChanged = publish {
            let serving = registry.version(self.name);
            match &loaded {
                Ok(schema) if serving.is_some_and(|v| **v.schema() == *schema) => return None,
                Err(e) if *self.rejection == Some(PublishError::Schema(e.clone()).to_string()) => {
                    return None;
                }
                _ => {}
            }
        }
        let (name, path) = (self.name.to_owned(), self.path.to_path_buf());
        Some(match registry.publish_loaded(self.name, loaded, &[]) {
            Ok(version) => {
                *self.rejection = None;
                WatchEvent::Published {
                    name,
                    version: version.number(),
                    path,
                }
            }
            Err(error) => {
                *self.rejection = Some(error.to_string());
                WatchEvent::Rejected { name, path, error }
            }
        })
    }
}

impl Reference {
    /// Loads the schema (see [`Served::load`]); publishes it unless it serves already.
    fn load(
        &mut self,
        loader: &Loader,
        registry: &Registry,
        loads: &mut u64,
    ) -> Option<WatchEvent> {
        self.loaded = true;
        let served = Served {
            name: &self.name,
            path: &self.path,
            text: &self.text,
            reads: &mut self.reads,
            rejection: &mut self.rejection,
        };
        served.load(loader, registry, loads, Publish::IfChanged)
    }
}

/// The extensions of the files a source reads: schema files and JSON containers, and YAML
/// containers with the `yaml` feature.
const EXTENSIONS: &[&str] = if cfg!(feature = "yaml") {
    &["json", "yaml", "yml"]
} else {
    &["json"]
};

/// Gives `loader` the container `text` of the file named `file`: YAML when it ends in `.yaml`
/// or `.yml` (with the `yaml` feature), JSON otherwise.
fn add_container(loader: &mut Loader, file: &str, text: &str) -> Result<(), SchemaError> {
    #[cfg(feature = "yaml")]
    if file.ends_with(".yaml") || file.ends_with(".yml") {
        return loader.container_yaml(file, text.as_bytes()).map(drop);
    }
    loader.container_json(file, text.as_bytes()).map(drop)
}

/// Reads `path` into `state`: `Ok(true)` when its content is not what was last acted on
/// (or, for a schema file, its name is not serving), so it is to be published or, for a
/// container, given to the loader.
fn read_new(registry: &Registry, path: &Path, state: &mut FileState) -> Result<bool, WatchEvent> {
    let text = fs::read_to_string(path).map_err(|error| WatchEvent::Unreadable {
        path: path.to_path_buf(),
        error,
    })?;
    let hash = content_hash(&text);
    let serving = schema_name(path).is_none_or(|name| registry.version(name).is_some());
    if state.handled == Some(hash) && serving {
        return Ok(false);
    }
    state.handled = Some(hash);
    state.text = Some(text);
    Ok(true)
}

/// The schema name of a `NAME.schema.json` path (`NAME` non-empty).
pub fn schema_name(path: &Path) -> Option<&str> {
    let file = path.file_name()?.to_str()?;
    file.strip_suffix(SUFFIX).filter(|name| !name.is_empty())
}

fn content_hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// A running [`DirectorySource::watch`]: stops and joins its thread when dropped.
#[derive(Debug)]
pub struct DirectoryWatch {
    source: Arc<Mutex<DirectorySource>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl DirectoryWatch {
    /// Scans the directory now (see [`DirectorySource::scan`]) and returns what it did.
    pub fn reload(&self) -> Vec<WatchEvent> {
        lock(&self.source).scan()
    }
}

impl Drop for DirectoryWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}
