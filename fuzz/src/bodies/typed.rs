//! `typed`: derived Rust types through typed decode ([`jitson::Engine::decode`]) on arbitrary
//! bytes, in two passes on the interpreter and on native code, and in one pass (the derived
//! `JsonDecode`, falling back to the two passes on what it does not take):
//!
//! - the three give the same answer: equal values, or the same error (kind, message,
//!   position, path);
//! - a value jitson decodes is one serde_json decodes too, equal up to serde_json's float
//!   rounding (jitson's schema may refuse what serde_json takes — see `jitson::typed` for the
//!   documented differences — never the other way round);
//! - a decoded value encodes ([`jitson::to_vec`]) to exactly serde_json's bytes for it, and
//!   those bytes decode to the same value (decode → encode → decode is a fixed point);
//! - every decode, failed or not, leaves no value alive once dropped: a counting string type
//!   sits at several depths of the types.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use jitson::engine::{BackendStatus, EngineOptions, Options, Tiering, TypedDecode};
use jitson::typed::{JsonDecode, JsonEncode, JsonType};
use jitson::{Engine, Error};
use serde::{Deserialize, Serialize};

use super::oracle::{SERDE_DEPTH, same_json, show};

// The counting string the stable typed tests use too.
#[path = "../../../tests/typed_support/counted.rs"]
mod counted;

pub use counted::{Counted, live};

// A number written as a JSON string, for a `with` field (the typed tests' too).
#[path = "../../../tests/typed_support/as_text.rs"]
mod as_text;

/// A message with most shapes the derive knows (field and variant aliases included).
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(rename_all = "camelCase")]
pub struct Message<'a> {
    id: u64,
    #[serde(borrow)]
    name: Cow<'a, str>,
    label: Counted,
    tags: Vec<Counted>,
    #[serde(alias = "points", alias = "s")]
    score: Option<f64>,
    ratio: f32,
    kind: Kind,
    payload: Payload,
    either: Vec<Either>,
    extra: BTreeMap<String, i32>,
    small: (u8, i16),
    #[serde(default)]
    flags: [bool; 2],
    child: Option<Box<Message<'a>>>,
    attachment: Option<Attachment>,
    #[serde(default)]
    seen: BTreeSet<i16>,
    #[serde(default)]
    timeout: Option<std::time::Duration>,
    #[serde(default)]
    switches: BTreeMap<bool, u8>,
    #[serde(default)]
    marks: BTreeMap<char, u8>,
    /// Read and written by serde through functions of ours (`with`).
    #[serde(default, with = "as_text")]
    code: u64,
    #[serde(flatten)]
    meta: Meta,
}

/// Flattened into [`Message`]: members it does not name itself.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
pub struct Meta {
    #[serde(default, alias = "lvl")]
    level: u8,
    note: Option<Counted>,
}

/// Unit variants: strings.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
pub enum Kind {
    #[serde(alias = "a")]
    Alpha,
    Beta,
    Gamma {
        level: u16,
    },
}

/// Internally tagged, with a catch-all variant.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Payload {
    #[serde(alias = "txt")]
    Text {
        body: Counted,
    },
    Number {
        value: i64,
    },
    Empty,
    Labelled(Meta),
    Blob {
        raw: jitson::RawValue,
    },
    /// Any other tag (`Kind` and `Envelope` keep refusing unknown ones).
    #[serde(other)]
    Unrecognized,
}

/// Adjacently tagged, other members allowed (serde skips them), the content before or
/// after the tag.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(tag = "kind", content = "data")]
pub enum Attachment {
    Link(String),
    Size { w: u16, h: u16 },
    Nothing,
}

/// Untagged: numbers pass from `Int` to `Wide` to `Real` (each refusal serde's too, but
/// `Real`'s), `null` is `Nothing`.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(untagged)]
pub enum Either {
    Nothing,
    Int(i32),
    Wide(u64),
    Real(f32),
    Text(String),
    List(Vec<bool>),
    Point { x: f64, y: f64 },
}

/// Adjacently tagged, at the root.
#[derive(Debug, PartialEq, Serialize, Deserialize, jitson::Schema)]
#[serde(tag = "t", content = "c", deny_unknown_fields)]
// A message is large, and a fuzz input holds one: boxing it would change nothing measured.
#[allow(clippy::large_enum_variant)]
pub enum Envelope<'a> {
    #[serde(borrow)]
    One(Message<'a>),
    Many(Vec<Counted>),
    Nothing,
}

/// The engines: two passes on the interpreter, two passes on native code with the types
/// compiled, and one pass (falling back to the interpreter).
fn engines() -> &'static [(&'static str, Engine); 3] {
    static ENGINES: OnceLock<[(&'static str, Engine); 3]> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let codec = Options::new().max_depth(SERDE_DEPTH as u32);
        let options = EngineOptions::new().codec(codec);
        let two_pass = options.typed_decode(TypedDecode::TwoPass);
        let interp = Engine::with_options(two_pass.tiering(Tiering::InterpreterOnly));
        let native = Engine::with_options(two_pass);
        let one_pass = Engine::with_options(options.tiering(Tiering::InterpreterOnly));
        for engine in [&interp, &native, &one_pass] {
            engine.register_many::<(Message<'_>, Envelope<'_>, Vec<Either>)>();
        }
        for codec in [native.register::<Message>(), native.register::<Envelope>()] {
            // Comparing the interpreter with itself would prove nothing.
            assert_eq!(codec.backend(), &BackendStatus::Native);
        }
        [
            ("interp", interp),
            ("native", native),
            ("one-pass", one_pass),
        ]
    })
}

/// The body of the `typed` target.
pub fn run(data: &[u8]) {
    let checks = [
        agrees::<Message<'_>>(data),
        agrees::<Envelope<'_>>(data),
        agrees::<Vec<Either>>(data),
    ];
    let live = live();
    for check in checks {
        if let Err(e) = check {
            panic!("input {}: {e}", show(data));
        }
    }
    assert_eq!(live, 0, "live values after the decodes of {}", show(data));
}

/// The checks of the module documentation for one type.
fn agrees<'a, T>(data: &'a [u8]) -> Result<(), String>
where
    T: JsonType
        + JsonEncode
        + JsonDecode<'a>
        + Deserialize<'a>
        + Serialize
        + PartialEq
        + Reread
        + std::fmt::Debug,
{
    let [(_, interp), others @ ..] = engines();
    let reference: Result<T, Error> = interp.decode(data);
    for (name, engine) in others {
        let got: Result<T, Error> = engine.decode(data);
        match (&got, &reference) {
            (Ok(got), Ok(reference)) if got == reference => {}
            (Err(got), Err(reference)) if got == reference => {}
            _ => return Err(format!("{name} {got:?}, interpreter {reference:?}")),
        }
    }
    let Ok(reference) = reference else {
        return Ok(());
    };
    let theirs: T = serde_json::from_slice(data)
        .map_err(|e| format!("jitson decoded {reference:?}, serde_json failed: {e}"))?;
    same_json(&json(&reference)?, &json(&theirs)?)?;
    round_trips(&reference)
}

/// Decoding a type again from other bytes (a borrowing type's lifetime is the input's, so
/// the new value is of the same type with another lifetime): as serde_json's tree.
trait Reread {
    /// `bytes` decoded by `engine` into this type, as serde_json's tree.
    fn reread(engine: &Engine, bytes: &[u8]) -> Result<serde_json::Value, String>;
}

/// [`Reread`] for each type of the target.
macro_rules! reread {
    ($($t:ty),*) => {$(
        impl Reread for $t {
            fn reread(engine: &Engine, bytes: &[u8]) -> Result<serde_json::Value, String> {
                let value: $t = engine.decode(bytes).map_err(|e| e.to_string())?;
                json(&value)
            }
        }
    )*};
}

reread!(Message<'_>, Envelope<'_>, Vec<Either>);

/// `value` encodes to serde_json's bytes, which decode (on every engine) to `value` again.
fn round_trips<T>(value: &T) -> Result<(), String>
where
    T: JsonEncode + Serialize + Reread + std::fmt::Debug,
{
    let bytes = jitson::to_vec(value);
    let want = serde_json::to_vec(value).map_err(|e| format!("serde_json to_vec: {e}"))?;
    if bytes != want {
        return Err(format!(
            "encode {:?}, serde_json {:?}",
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&want)
        ));
    }
    let expected = json(value)?;
    for (name, engine) in engines() {
        match T::reread(engine, &bytes) {
            Ok(again) if again == expected => {}
            again => {
                return Err(format!(
                    "{name}: {value:?} encoded, decoded again {again:?}"
                ));
            }
        }
    }
    Ok(())
}

/// A value as serde_json's tree.
fn json<T: Serialize>(value: &T) -> Result<serde_json::Value, String> {
    serde_json::to_value(value).map_err(|e| format!("to_value: {e}"))
}
