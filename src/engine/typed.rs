//! Typed decode and encode on an [`Engine`]: Rust types that derive `jitson::Schema` (and
//! serde's `Deserialize`) registered once, then decoded by their compiled codec (see
//! [`Engine::decode`]), and encoded by their derived [`JsonEncode`].

use std::any::TypeId;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde::Deserialize;

use super::{
    BigInts, Codec, DuplicateKeys, Engine, Options, Tiering, TypedDecode, with_thread_cache,
};
use crate::error::Error;
use crate::schema::TypeKey;
use crate::typed::decode::{self, JsonDecode};
use crate::typed::{JsonEncode, JsonType};

/// The options word of typed codecs' [`TypeKey`]s (the engine's schema codecs use 0).
const TYPED_KEY: u64 = 1;

/// How long [`Engine::register`] waits for native code at most.
const REGISTER_WAIT: Duration = Duration::from_secs(60);

impl Engine {
    /// Builds `T`'s codec now: call it at start-up so that the first requests run at full
    /// speed. The codec decodes what the one-pass reader leaves to it (the errors among
    /// them), and everything with [`TypedDecode::TwoPass`]. With two passes and eager
    /// tiering, `register` waits for the codec's native validate and decode code, like a
    /// pretouch (its encode tier is never needed: typed encode is derived); with the
    /// one-pass reader (the default) the native code compiles in the background (the
    /// interpreter answers until it is ready), since valid inputs never need it. A decode
    /// that reaches an unregistered type's codec registers it without waiting. Returns the
    /// codec (the same one on every call).
    pub fn register<T: JsonType + ?Sized>(&self) -> Arc<Codec> {
        let codec = self.typed_codec::<T>();
        if self.waits_at_register() {
            codec.prepare_decode();
            codec.wait_native(REGISTER_WAIT);
        }
        codec
    }

    /// Registers every type of the tuple `L` (up to 12: `engine.register_many::<(A, B)>()`),
    /// their native code compiled concurrently by the engine's compile threads (waited for
    /// as [`Engine::register`] says).
    pub fn register_many<L: TypeList>(&self) {
        let codecs = L::codecs(self);
        if self.waits_at_register() {
            for codec in &codecs {
                codec.prepare_decode();
            }
            for codec in codecs {
                codec.wait_native(REGISTER_WAIT);
            }
        }
    }

    /// Whether registering waits for native code: eager tiering with two-pass decode.
    fn waits_at_register(&self) -> bool {
        self.tiering() == Tiering::Eager
            && self.options().typed_decode_mode() == TypedDecode::TwoPass
    }

    /// Decodes `input` into a `T`: the first error with its offset, line, column and path
    /// (a schema keyword's failure, or `T`'s refusal).
    ///
    /// `T`'s [`JsonDecode`] (derived with the schema) reads the input in one pass, building
    /// the value as it goes, unescaped strings borrowed where `T` borrows. When it does not
    /// take the input (an invalid input, or a shape it leaves to the codec: see
    /// [`crate::typed::decode`]), or with [`TypedDecode::TwoPass`], decoding is two passes:
    /// the codec decodes the input into a [`Document`](crate::Document) (on native code
    /// once compiled, checking everything the schema says), then `T`'s serde
    /// `Deserialize` reads it ([`Document::deserialize`](crate::Document::deserialize),
    /// which lends unescaped strings to borrowing types); that pass gives the errors.
    /// Typed codecs deny repeated named fields, as serde's derived `Deserialize` does.
    ///
    /// ```
    /// use jitson::Engine;
    ///
    /// #[derive(serde::Deserialize, jitson::Schema, Debug, PartialEq)]
    /// #[serde(deny_unknown_fields)]
    /// struct Book<'a> {
    ///     title: &'a str,
    ///     pages: u16,
    ///     tags: Vec<String>,
    /// }
    ///
    /// let engine = Engine::new();
    /// engine.register::<Book>(); // builds the codec now (its native code compiles in the background)
    /// let input = br#"{"title": "Dune", "pages": 412, "tags": ["sf"]}"#;
    /// let book: Book = engine.decode(input).unwrap();
    /// assert_eq!(book, Book { title: "Dune", pages: 412, tags: vec!["sf".into()] });
    ///
    /// let e = engine.decode::<Book>(br#"{"title": "Dune", "pages": 70000, "tags": []}"#).unwrap_err();
    /// assert_eq!(e.to_string(), "number above the maximum at line 1 column 28, path $.pages, keyword maximum");
    /// ```
    ///
    pub fn decode<'a, T>(&self, input: &'a [u8]) -> Result<T, Error>
    where
        T: JsonType + JsonDecode<'a> + Deserialize<'a>,
    {
        if let Some(value) = self.read_one_pass(input) {
            return Ok(value);
        }
        // The codec is cloned out of the cache, whose lock is not held while the type's
        // `Deserialize` runs (it may decode, and register, other types on this engine).
        let codec = self.typed_codec::<T>();
        let doc = with_thread_cache(input.len(), |cache| codec.decode_with(cache, input))?;
        doc.deserialize()
    }

    /// Decodes `input` into `target`: the value [`Engine::decode`] gives, or on the two-pass
    /// path, reusing what `target` holds where `T`'s `Deserialize::deserialize_in_place`
    /// does. On error, `target` holds a valid value that may be partly updated.
    pub fn decode_into<'a, T: JsonType + JsonDecode<'a> + Deserialize<'a>>(
        &self,
        target: &mut T,
        input: &'a [u8],
    ) -> Result<(), Error> {
        if let Some(value) = self.read_one_pass(input) {
            *target = value;
            return Ok(());
        }
        let codec = self.typed_codec::<T>();
        let doc = with_thread_cache(input.len(), |cache| codec.decode_with(cache, input))?;
        doc.deserialize_in_place(target)
    }

    /// Appends `value`'s JSON to `out`: the bytes `serde_json::to_vec` writes for it
    /// ([`JsonEncode`], which the derive implements; no codec is involved, the derived code
    /// is the encoder).
    pub fn encode<T: JsonEncode + ?Sized>(&self, value: &T, out: &mut Vec<u8>) {
        value.encode_json(out);
    }

    /// `input` read by `T`'s one-pass reader under the typed codecs' options, unless the
    /// engine reads in two passes or the reader bails.
    #[inline]
    fn read_one_pass<'a, T: JsonDecode<'a>>(&self, input: &'a [u8]) -> Option<T> {
        let options = self.options();
        if options.typed_decode_mode() != TypedDecode::OnePass {
            return None;
        }
        decode::read(input, typed_options(options.codec_options()).exec()).ok()
    }

    /// `T`'s codec: cached by its key type, or built (and queued per the tiering).
    fn typed_codec<T: JsonType + ?Sized>(&self) -> Arc<Codec> {
        let id = TypeId::of::<T::Key>();
        if let Some(codec) = self.types.get(&id) {
            return Arc::clone(&codec);
        }
        let schema = T::schema();
        let options = typed_options(self.options().codec_options());
        let codec = self.compile_keyed(TypeKey::of(&schema, TYPED_KEY), &schema, options);
        self.types.insert(id, Arc::clone(&codec));
        codec
    }
}

/// The options of typed codecs made from the engine's codec options: repeated named fields
/// denied, as serde's derived `Deserialize` does, and integers beyond 64 bits kept exactly
/// ([`BigInts::Raw`]), so that the bounds of every integer width are checked exactly and
/// `u128` / `i128` read their whole range, as serde_json reads them.
fn typed_options(options: Options) -> Options {
    options
        .duplicate_keys(DuplicateKeys::Deny)
        .big_ints(BigInts::Raw)
}

/// A tuple of types for [`Engine::register_many`].
pub trait TypeList {
    /// Each type's codec, built or found in `engine`.
    fn codecs(engine: &Engine) -> Vec<Arc<Codec>>;
}

macro_rules! type_lists {
    ($(($($t:ident),+);)*) => {$(
        impl<$($t: JsonType),+> TypeList for ($($t,)+) {
            fn codecs(engine: &Engine) -> Vec<Arc<Codec>> {
                vec![$(engine.typed_codec::<$t>()),+]
            }
        }
    )*};
}

crate::typed::for_each_tuple!(type_lists);

/// The process-wide engine of [`crate::from_slice`] (default options: eager tiering).
pub fn global() -> &'static Engine {
    static GLOBAL: OnceLock<Engine> = OnceLock::new();
    GLOBAL.get_or_init(Engine::new)
}
