//! Typed decode on every engine — the two-pass decode on the interpreter and (not under
//! Miri) on native code, and the one-pass reader (falling back to native code, or to the
//! interpreter under Miri) — checked against serde_json: shared by the typed decode tests.

use std::fmt::Debug;

use jitson::engine::{BackendStatus, EngineOptions, Tiering, TypedDecode};
use jitson::typed::{JsonDecode, JsonType};
use jitson::{Engine, ErrorKind};
use serde::Deserialize;

/// The two-pass decode on an interpreter-only engine and (not under Miri) a native one,
/// and the one-pass reader.
pub fn engines() -> Vec<(&'static str, Engine)> {
    let two_pass = |tiering| {
        Engine::with_options(
            EngineOptions::new()
                .tiering(tiering)
                .typed_decode(TypedDecode::TwoPass),
        )
    };
    let one_pass = if cfg!(miri) {
        Engine::with_options(EngineOptions::new().tiering(Tiering::InterpreterOnly))
    } else {
        Engine::new()
    };
    let mut all = vec![
        ("interp", two_pass(Tiering::InterpreterOnly)),
        ("one-pass", one_pass),
    ];
    if !cfg!(miri) {
        all.push(("native", two_pass(Tiering::Eager)));
    }
    all
}

/// Registers `T` on every engine, checking the native one has native code.
pub fn registered<T: JsonType>() -> Vec<(&'static str, Engine)> {
    let engines = engines();
    for (name, engine) in &engines {
        let codec = engine.register::<T>();
        let want_native = *name != "interp" && !cfg!(miri);
        if want_native {
            // The one-pass engine compiles in the background.
            codec.wait_native(std::time::Duration::from_secs(60));
        }
        assert_eq!(
            matches!(codec.backend(), BackendStatus::Native),
            want_native,
            "{name}: {:?}",
            codec.backend()
        );
    }
    engines
}

/// `input`, which serde_json decodes, decodes on every engine to serde_json's value.
pub fn same<'a, T>(input: &'a [u8])
where
    T: JsonType + JsonDecode<'a> + Deserialize<'a> + PartialEq + Debug,
{
    let shown = String::from_utf8_lossy(input);
    let expected = serde_json::from_slice::<T>(input)
        .unwrap_or_else(|e| panic!("serde_json refuses {shown}: {e}"));
    for (name, engine) in registered::<T>() {
        match engine.decode::<T>(input) {
            Ok(got) => assert_eq!(got, expected, "{name}: {shown}"),
            Err(e) => panic!("{name}: jitson refuses {shown}: {e}"),
        }
    }
}

/// `input`, which serde_json refuses, is refused by every engine too (with one error: see
/// [`error`]).
pub fn refused<'a, T>(input: &'a [u8])
where
    T: JsonType + JsonDecode<'a> + Deserialize<'a> + Debug,
{
    let shown = String::from_utf8_lossy(input);
    assert!(
        serde_json::from_slice::<T>(input).is_err(),
        "serde_json takes {shown}"
    );
    error::<T>(input);
}

/// The error message every engine gives for `input` (they must agree).
pub fn error<'a, T>(input: &'a [u8]) -> (ErrorKind, String)
where
    T: JsonType + JsonDecode<'a> + Deserialize<'a> + Debug,
{
    let mut seen: Option<(ErrorKind, String)> = None;
    for (name, engine) in registered::<T>() {
        let e = engine.decode::<T>(input).expect_err(name);
        let this = (e.kind(), e.to_string());
        if let Some(first) = &seen {
            assert_eq!(&this, first, "{name}");
        }
        seen = Some(this);
    }
    seen.expect("one engine at least")
}
