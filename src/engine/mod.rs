//! The codec API: a schema compiled once to an opcode program, then run over many inputs.
//!
//! ```
//! use jitson::Schema;
//! use jitson::engine::Codec;
//!
//! let schema = Schema::from_json_str(r#"{"type": "object", "properties": {"id": {"type": "integer"}}}"#).unwrap();
//! let codec = Codec::new(&schema);
//! assert!(codec.validate(br#"{"id": 7}"#).is_ok());
//! let e = codec.validate(br#"{"id": "7"}"#).unwrap_err();
//! assert_eq!(e.to_string(), "expected integer, found string at line 1 column 8, path $.id, keyword type");
//! assert_eq!(e.schema_pointer(), Some("/properties/id/type"));
//! ```
//!
//! Failures are [`crate::Error`]s, the same type the value parser returns: the interpreter
//! records an offset and a compact path, and the message, line, column, `$.a[3].b` path and
//! the keyword's pointer in the schema are worked out only when a run fails.
//!
//! A [`Codec`] is immutable and shareable between threads; a [`Cache`] holds the scratch
//! buffers of one thread's runs (the `*_with` methods take one; the others use their thread's own).
//! [`Codec::program`] shows the opcode program (its `Display` is the listing `jitson
//! explain` prints). `validate` and `decode` run on the interpreter or, with
//! [`Backend::Native`], on native code compiled by Cranelift from the same program
//! ([`Codec::backend`] tells which); the other operations run on the interpreter.
//!
//! An [`Engine`] is the shared cache of codecs: one per schema [`TypeKey`](crate::TypeKey),
//! built once however many threads ask, serving from the interpreter at once while a
//! background worker compiles native code ([`Tiering`]).

mod backend;
mod cache;
mod error;
mod pointer;
mod thread_cache;
mod tier;
mod transcode;
mod typed;
mod worker;

pub use backend::{Backend, BackendStatus};
pub use cache::{Engine, EngineOptions, EngineStats, TypedDecode};
pub use jitson_jit::ir::{BigInts, DuplicateKeys};
pub use jitson_jit::native::{CodeTier, CompileError};
pub use jitson_kernels::escape::EscapeMode;
pub(crate) use thread_cache::with_thread_cache;
pub use tier::Tiering;
pub use transcode::{Tokens, TranscodeOptions, Unknown};
pub use typed::{TypeList, global};
pub(crate) use worker::Worker;

use jitson_jit::encode::{EncodePlan, write_raw};
use jitson_jit::interp::{self, Scratch, TranscodeSpec, WalkGuide};
use jitson_jit::ir::{ExecOptions, Program};
use jitson_jit::native;
use jitson_kernels::minify::{minify, minify_checked};
use jitson_kernels::whitespace::count_whitespace;
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use crate::document::{DocPath, Document, PathError};
use crate::error::Error;
use crate::resolve::{resolve, walk_guide};
use crate::schema::Schema;
use tier::{Later, Tier};

/// How a [`Codec`] reads input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    exec: ExecOptions,
    escape: EscapeMode,
    backend: Backend,
    native_size_limit: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            exec: ExecOptions::default(),
            escape: EscapeMode::default(),
            backend: Backend::default(),
            native_size_limit: DEFAULT_NATIVE_SIZE_LIMIT,
        }
    }
}

/// The default of [`Options::native_size_limit`], in Cranelift IR instructions per tier.
pub const DEFAULT_NATIVE_SIZE_LIMIT: usize = jitson_jit::native::DEFAULT_SIZE_LIMIT;

impl Options {
    /// The execution options of every run (nesting limit, duplicate keys, big integers).
    pub(crate) fn exec(&self) -> &ExecOptions {
        &self.exec
    }

    /// The defaults: depth 128, duplicate keys accepted (last wins), integers beyond 64 bits
    /// read as `f64`.
    pub fn new() -> Options {
        Options::default()
    }

    /// Most arrays and objects open at once; deeper input is an error (default 128).
    pub fn max_depth(mut self, depth: u32) -> Options {
        self.exec.max_depth = depth;
        self
    }

    /// What a repeated named field does (default: accepted, last wins).
    pub fn duplicate_keys(mut self, policy: DuplicateKeys) -> Options {
        self.exec.duplicate_keys = policy;
        self
    }

    /// Which characters encode and transcode escape in strings (default: only what JSON
    /// requires, as `serde_json`).
    pub fn escape(mut self, mode: EscapeMode) -> Options {
        self.escape = mode;
        self
    }

    /// Which code runs `validate` and `decode` (default: the interpreter; see [`Backend`]).
    pub fn backend(mut self, backend: Backend) -> Options {
        self.backend = backend;
        self
    }

    /// The most Cranelift IR instructions each native tier (validate, decode, encode) may
    /// lower to (default [`DEFAULT_NATIVE_SIZE_LIMIT`], about seven times the corpus schemas'
    /// largest tier). A tier over it is not compiled: the codec runs it on the interpreter
    /// (or the encode plan), and [`Codec::backend`] says
    /// [`CompileError::TooLarge`]. Compile time and memory grow with a tier's size (about
    /// 2–9 µs and 180–850 bytes per instruction), so this bounds what a large or hostile
    /// schema costs the thread that compiles it; lowering stops as soon as the limit is
    /// passed.
    pub fn native_size_limit(mut self, instructions: usize) -> Options {
        self.native_size_limit = instructions;
        self
    }

    /// What integers beyond the 64-bit ranges (above `u64::MAX`, below `i64::MIN`) in the
    /// input become, wherever they are, `{}` values included (default: the nearest `f64`, as
    /// `serde_json`): an error, or with [`BigInts::Raw`] their exact text — decoded as
    /// [`Node::BigInt`](crate::document::Node::BigInt), encoded and transcoded verbatim,
    /// checked exactly by `type: integer`, bounds (exclusive ones too) and `multipleOf`,
    /// and compared by their digits with `enum` / `const` numbers. Under [`BigInts::F64`],
    /// `enum` / `const` see such an integer as its nearest `f64`, as every other check does.
    /// Schema numbers themselves are read as `serde_json` reads them (beyond 64 bits, the
    /// nearest `f64`), and a big integer nested in an array or object compared with `enum` /
    /// `const` is compared as its nearest `f64` under every policy. Typed decode
    /// ([`Engine::decode`]) always keeps them exactly, as serde_json reads a `u128`.
    pub fn big_ints(mut self, policy: BigInts) -> Options {
        self.exec.big_ints = policy;
        self
    }
}

/// A compiled schema: validate, decode, encode and transcode.
#[derive(Debug)]
pub struct Codec {
    program: Program,
    options: Options,
    /// The schema the program came from: read only to explain failures.
    schema: Schema,
    /// Which native code the codec has (for `validate` and `decode`), or how it will get it.
    native: Tier,
    /// The layout's encode steps for [`Options::escape`], made on the first `encode`.
    encode_plan: OnceLock<EncodePlan>,
    /// The schema's nodes as transcode's walk after native validate reads them, made on
    /// the first transcode that drops or denies unknown members.
    walk_guide: OnceLock<WalkGuide>,
}

/// Reusable scratch buffers for one thread's runs of any [`Codec`].
#[derive(Debug, Default)]
pub struct Cache {
    scratch: Scratch,
    native: native::Scratch,
    /// A rewritten transcode's minified input.
    minified: Vec<u8>,
}

impl Cache {
    /// Empty buffers.
    pub fn new() -> Cache {
        Cache::default()
    }
}

impl Codec {
    /// Compiles `schema` with the default [`Options`].
    pub fn new(schema: &Schema) -> Codec {
        Codec::with_options(schema, Options::default())
    }

    /// Compiles `schema` with `options` (native code, when [`Options::backend`] asks for
    /// it, is compiled here, on the caller's thread).
    pub fn with_options(schema: &Schema, options: Options) -> Codec {
        let program = resolve(schema);
        let native = backend::prepare(&program, &options);
        Codec {
            program,
            options,
            schema: schema.clone(),
            native,
            encode_plan: OnceLock::new(),
            walk_guide: OnceLock::new(),
        }
    }

    /// A codec of `schema` that gets native code per `tiering` from `worker`'s background
    /// threads, serving from the interpreter meanwhile (`options.backend` is set from
    /// `tiering`).
    pub(crate) fn tiered(
        schema: &Schema,
        options: Options,
        tiering: Tiering,
        worker: &Worker,
    ) -> Arc<Codec> {
        let after = match tiering {
            Tiering::InterpreterOnly => {
                let options = options.backend(Backend::Interpreter);
                return Arc::new(Codec::with_options(schema, options));
            }
            Tiering::Eager => 0,
            Tiering::LazyAfter(uses) => uses,
        };
        let program = resolve(schema);
        let codec = Arc::new_cyclic(|me: &Weak<Codec>| Codec {
            program,
            options: options.backend(Backend::Native),
            schema: schema.clone(),
            native: Tier::pending(after, me.clone(), Arc::clone(worker.queue())),
            encode_plan: OnceLock::new(),
            walk_guide: OnceLock::new(),
        });
        if after == 0 {
            codec.native.request();
        }
        codec
    }

    /// What `validate` and `decode` run on: the interpreter (as asked, while native code is pending or
    /// compiling, or because it could not be made — and why), or native code.
    pub fn backend(&self) -> &BackendStatus {
        self.native.status()
    }

    /// Waits up to `timeout` for the native code of an [`Engine`]'s codec to settle, with
    /// the decode and encode tiers asked for so far (by a decode or an encode, or by
    /// [`Codec::prepare_decode`] / [`Codec::prepare_encode`]): returns the status then,
    /// [`BackendStatus::Native`], [`BackendStatus::DecodeFallback`],
    /// [`BackendStatus::EncodeFallback`], [`BackendStatus::Fallback`] or
    /// [`BackendStatus::Cancelled`]; still `Pending`, `Compiling`, `DecodePending` or
    /// `EncodePending` on timeout (a [`Tiering::LazyAfter`] codec is not queued until it is
    /// used enough). Returns at once for a lone codec, whose backend settles when it is made.
    pub fn wait_native(&self, timeout: Duration) -> &BackendStatus {
        self.native.wait(timeout)
    }

    /// Asks for native decode code ahead of the first decode, so that decode runs native
    /// code from its first call: a lone native codec compiles it now; an [`Engine`]'s codec
    /// has its worker compile it once the validate tier is ready ([`Codec::wait_native`]
    /// then waits for it too). Without this call, the first decode asks for it. No effect
    /// on the interpreter.
    pub fn prepare_decode(&self) {
        self.native.prepare(Later::Decode);
    }

    /// [`Codec::prepare_decode`] for encode: native encode code ahead of the first encode.
    pub fn prepare_encode(&self) {
        self.native.prepare(Later::Encode);
    }

    /// The opcode program (`Display` prints the listing).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Checks that `input` is one JSON document the schema accepts: `Ok`, or the first
    /// error.
    pub fn validate(&self, input: &[u8]) -> Result<(), Error> {
        with_thread_cache(input.len(), |cache| self.validate_with(cache, input))
    }

    /// [`Codec::validate`] with reusable buffers.
    pub fn validate_with(&self, cache: &mut Cache, input: &[u8]) -> Result<(), Error> {
        let exec = &self.options.exec;
        match self.native.code() {
            Some(code) => code.validate(input, exec, &mut cache.native),
            None => interp::validate(&self.program, input, exec, &mut cache.scratch),
        }
        .map_err(|f| self.explain().error(input, f))
    }

    /// Decodes `input` into a [`Document`], checking it exactly as [`Codec::validate`]
    /// does: the document, or the first error.
    pub fn decode<'a>(&self, input: &'a [u8]) -> Result<Document<'a>, Error> {
        with_thread_cache(input.len(), |cache| self.decode_with(cache, input))
    }

    /// [`Codec::decode`] with reusable buffers.
    pub fn decode_with<'a>(
        &self,
        cache: &mut Cache,
        input: &'a [u8],
    ) -> Result<Document<'a>, Error> {
        let exec = &self.options.exec;
        match self.native.decode_code() {
            Some(code) => code.decode(input, exec, &mut cache.native),
            None => interp::decode(&self.program, input, exec, &mut cache.scratch),
        }
        .map(Document::new)
        .map_err(|f| self.explain().error(input, f))
    }

    /// Appends the compact JSON of `doc` to `out`: named fields in schema order, then the
    /// other members; strings escaped per [`Options::escape`]; numbers as `serde_json`
    /// writes them (big integers kept by [`BigInts::Raw`] verbatim, including those in raw
    /// values of a document read with that policy).
    pub fn encode(&self, doc: &Document<'_>, out: &mut Vec<u8>) {
        let plan = self
            .encode_plan
            .get_or_init(|| EncodePlan::new(Arc::clone(&self.program.layout), self.options.escape));
        match self.native.encode_code() {
            Some(code) => {
                code.encode(plan, doc.root(), doc.big_ints(), out);
            }
            None => plan.encode(doc.root(), doc.big_ints(), out),
        }
    }

    /// Validates `input` and appends it to `out` as compact JSON in one pass, shaped by
    /// `options` (unknown members, picks, redactions; tokens rewritten as `serde_json`
    /// writes them, strings escaped per [`Options::escape`], or kept byte for byte with
    /// [`Tokens::Verbatim`]). On error `out` is left as it was. With native code, native
    /// validate checks the input and a walk that does not validate again writes it (a plain
    /// rewrite or the minify kernel when everything is kept; the schema guides the walk
    /// where unknown members are dropped or denied): the same bytes. Pretty-printed input
    /// kept whole is minified first and the minified text validated (and rewritten), which
    /// is valid exactly when the input is. The interpreter writes
    /// invalid inputs (for the error), unknown members to drop below an `anyOf` / `oneOf`
    /// whose branch no discriminator's tag names (only validation tells the branches
    /// apart), and denied members.
    pub fn transcode(
        &self,
        input: &[u8],
        options: &TranscodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        with_thread_cache(input.len(), |cache| {
            self.transcode_with(cache, input, options, out)
        })
    }

    /// [`Codec::transcode`] with reusable buffers.
    pub fn transcode_with(
        &self,
        cache: &mut Cache,
        input: &[u8],
        options: &TranscodeOptions,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let mut spec = std::borrow::Cow::Borrowed(&options.spec);
        if spec.escape != self.options.escape {
            spec.to_mut().escape = self.options.escape;
        }
        let exec = &self.options.exec;
        if let Some(code) = self.native.code()
            && self.transcode_natively(code, cache, input, &spec, out)
        {
            return Ok(());
        }
        interp::transcode(&self.program, input, exec, &spec, &mut cache.scratch, out)
            .map_err(|f| self.explain().error(input, f))
    }

    /// Transcodes `input` on native code when it can: a valid input is checked by the
    /// native code, then written without a second validation, rewritten by `write_raw` or
    /// minified when the spec keeps everything, else walked for its picks, redactions and
    /// unknown members (the interpreter's transcode writes the same bytes). Pretty-printed
    /// input ([`spaced`]) kept whole is minified first and the shorter minified text
    /// validated (and rewritten) instead: when the dropped whitespace kept tokens apart, it
    /// is valid exactly when the input is, with the same value (see
    /// `jitson_kernels::minify`). False, with `out` as it was, for an invalid input and one
    /// the walk leaves to the interpreter (a denied member, members to drop under an
    /// untagged `anyOf` / `oneOf`).
    fn transcode_natively(
        &self,
        code: &native::NativeCode,
        cache: &mut Cache,
        input: &[u8],
        spec: &TranscodeSpec,
        out: &mut Vec<u8>,
    ) -> bool {
        let exec = &self.options.exec;
        let start = out.len();
        let written = if !spec.keeps_everything() {
            // Only dropping or denying unknown members needs the schema's guide.
            let open;
            let guide = match spec.unknown {
                Unknown::Keep => {
                    open = WalkGuide::open();
                    &open
                }
                Unknown::Drop | Unknown::Deny => self
                    .walk_guide
                    .get_or_init(|| walk_guide(&self.schema, &self.program.layout)),
            };
            code.validate(input, exec, &mut cache.native).is_ok()
                && interp::transcode_accepted(&self.program, guide, input, exec, spec, out).is_ok()
        } else if spaced(input) {
            match spec.tokens {
                Tokens::Verbatim => {
                    minify_checked(input, out)
                        && code
                            .validate(&out[start..], exec, &mut cache.native)
                            .is_ok()
                }
                Tokens::Rewritten => {
                    let minified = &mut cache.minified;
                    minified.clear();
                    let valid = minify_checked(input, minified)
                        && code.validate(minified, exec, &mut cache.native).is_ok();
                    if valid {
                        write_raw(minified, spec.escape, exec.big_ints, out);
                    }
                    valid
                }
            }
        } else {
            let valid = code.validate(input, exec, &mut cache.native).is_ok();
            if valid {
                match spec.tokens {
                    Tokens::Verbatim => minify(input, out),
                    Tokens::Rewritten => write_raw(input, spec.escape, exec.big_ints, out),
                }
            }
            valid
        };
        if !written {
            out.truncate(start);
        }
        written
    }

    /// A JSON Pointer compiled for this codec's documents: named fields are resolved to
    /// their place in the records once, here.
    pub fn compile_path(&self, pointer: &str) -> Result<DocPath, PathError> {
        let layout = &self.program.layout;
        let root = layout.funcs[self.program.entry as usize].shape;
        DocPath::compile(pointer, layout, root)
    }

    /// Checks `input` and collects up to `cap` errors (empty when valid): after a schema
    /// violation the value is skipped and checking goes on; a syntax error ends the list.
    ///
    /// With native code, a valid input is checked by it alone (valid inputs are the common
    /// case); only an invalid one is run again on the interpreter, which collects the errors.
    pub fn validate_all(&self, input: &[u8], cap: usize) -> Vec<Error> {
        with_thread_cache(input.len(), |cache| {
            self.validate_all_with(cache, input, cap)
        })
    }

    /// [`Codec::validate_all`] with reusable buffers.
    pub fn validate_all_with(&self, cache: &mut Cache, input: &[u8], cap: usize) -> Vec<Error> {
        let exec = &self.options.exec;
        if let Some(code) = self.native.code()
            && code.validate(input, exec, &mut cache.native).is_ok()
        {
            return Vec::new();
        }
        let failures = interp::validate_all(&self.program, input, exec, &mut cache.scratch, cap);
        if failures.is_empty() {
            return Vec::new();
        }
        let explain = self.explain();
        failures
            .into_iter()
            .map(|f| explain.error(input, f))
            .collect()
    }

    /// What turns this codec's failures into errors.
    fn explain(&self) -> error::Context<'_> {
        error::Context {
            schema: &self.schema,
            program: &self.program,
            exec: self.options.exec,
            document: std::cell::OnceCell::new(),
        }
    }
}

/// The share of whitespace in the first [`SPACING_SAMPLE`] bytes from which a transcode
/// minifies before it validates: one byte in 16.
const SPACED_SHARE: usize = 16;

/// How many bytes at the input's start [`spaced`] looks at.
const SPACING_SAMPLE: usize = 4096;

/// Inputs shorter than this are taken as compact without a look: minifying first saves them
/// little, and counting costs them (book.json, 367 bytes: its verbatim transcode +13 % with
/// the count). Public for the tests and fuzz bodies that pad inputs to take the
/// minify-first order; not part of the API.
#[doc(hidden)]
pub const SPACING_MIN: usize = 1024;

/// Whether `input` looks pretty-printed: at least [`SPACING_MIN`] bytes, and whitespace
/// (strings' included) makes at least one byte in [`SPACED_SHARE`] of its first
/// [`SPACING_SAMPLE`]. Minifying first pays on such text (twitter, 27 % whitespace: verbatim
/// transcode −20 %, citm_catalog, 71 %: −38 %) and costs on compact text, nearly all of which
/// is kept (canada: +9 %).
fn spaced(input: &[u8]) -> bool {
    if input.len() < SPACING_MIN {
        return false;
    }
    let sample = &input[..input.len().min(SPACING_SAMPLE)];
    count_whitespace(sample) * SPACED_SHARE >= sample.len()
}
