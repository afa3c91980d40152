//! The `Engine` cache: one codec per schema key, built once however many threads ask; get,
//! remove, clear and the counters; the tiering policies' statuses.

// Native code cannot run under Miri.
#![cfg(not(miri))]

use std::sync::{Arc, Barrier};
use std::time::Duration;

use jitson::engine::{Backend, BackendStatus, Engine, EngineOptions, Options, Tiering};
use jitson::{Schema, TypeKey};

mod engine_support;
use engine_support::corpus_schema;

const WAIT: Duration = Duration::from_secs(30);

const USER: &str =
    r#"{"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}"#;
/// `USER` spelled differently: the same canonical schema.
const USER_AGAIN: &str =
    r#"{"required": ["id"], "properties": {"id": {"type": "integer"}}, "type": "object"}"#;

fn lazy(uses: u32) -> Engine {
    Engine::with_options(EngineOptions::new().tiering(Tiering::LazyAfter(uses)))
}

#[test]
fn same_schema_from_many_threads_is_built_once() {
    const THREADS: usize = 8;
    let engine = Arc::new(Engine::new());
    let schema = Arc::new(corpus_schema("twitter"));
    let barrier = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|_| {
            let (engine, schema, barrier) = (engine.clone(), schema.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                engine.compile(&schema)
            })
        })
        .collect();
    let codecs: Vec<_> = threads
        .into_iter()
        .map(|t| t.join().expect("a compiling thread panicked"))
        .collect();
    assert!(codecs.iter().all(|c| Arc::ptr_eq(c, &codecs[0])));
    let stats = engine.stats();
    assert_eq!(stats.builds, 1, "{stats:?}");
    assert_eq!(stats.codecs, 1);
    assert!(engine.wait_idle(WAIT));
    assert_eq!(engine.stats().native + engine.stats().fallbacks, 1);
}

#[test]
fn equal_schemas_share_a_codec_and_distinct_ones_do_not() {
    let engine = Engine::new();
    let a = engine.compile_json(USER).unwrap();
    let b = engine.compile_json(USER_AGAIN).unwrap();
    let c = engine.compile_json(r#"{"type": "string"}"#).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    assert!(!Arc::ptr_eq(&a, &c));
    let stats = engine.stats();
    assert_eq!((stats.builds, stats.hits, stats.codecs), (2, 1, 2));
    assert!(engine.compile_json(r#"{"type": "objekt"}"#).is_err());
    assert_eq!(engine.len(), 2);
}

#[test]
fn get_remove_and_clear() {
    let engine = Engine::new();
    let schema = Schema::from_json_str(USER).unwrap();
    let key = engine.key(&schema);
    assert_eq!(key, TypeKey::of(&schema, 0));
    assert!(engine.get(&key).is_none() && engine.is_empty());
    let codec = engine.compile(&schema);
    assert!(Arc::ptr_eq(&engine.get(&key).unwrap(), &codec));
    let removed = engine.remove(&key).expect("cached");
    assert!(Arc::ptr_eq(&removed, &codec));
    assert!(engine.get(&key).is_none());
    // A removed codec keeps working for its holders.
    assert!(codec.validate(br#"{"id": 1}"#).is_ok());
    let rebuilt = engine.compile(&schema);
    assert!(!Arc::ptr_eq(&rebuilt, &codec));
    engine.compile_json(r#"{"type": "string"}"#).unwrap();
    assert_eq!(engine.len(), 2);
    engine.clear();
    assert!(engine.is_empty());
    assert_eq!(engine.stats().builds, 3);
}

#[test]
fn eager_codecs_serve_at_once_and_turn_native() {
    let engine = Engine::new();
    let codec = engine.compile(&corpus_schema("book"));
    assert_eq!(codec.options(), Options::new().backend(Backend::Native));
    let before = codec.backend().clone();
    assert!(
        matches!(
            before,
            BackendStatus::Pending | BackendStatus::Compiling | BackendStatus::Native
        ),
        "{before}"
    );
    assert!(codec.validate(b"{}").is_err());
    assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
    assert!(engine.wait_idle(WAIT));
    let stats = engine.stats();
    assert_eq!((stats.native, stats.fallbacks, stats.queued), (1, 0, 0));
    assert!(stats.native_time > Duration::ZERO);
}

#[test]
fn lazy_codecs_are_queued_after_their_uses() {
    let engine = lazy(3);
    let codec = engine.compile_json(USER).unwrap();
    for _ in 0..2 {
        assert!(codec.validate(br#"{"id": 1}"#).is_ok());
    }
    // Not queued yet: nothing to wait for.
    assert!(engine.wait_idle(Duration::ZERO));
    assert_eq!(
        codec.wait_native(Duration::from_millis(1)),
        &BackendStatus::Pending
    );
    assert_eq!(engine.stats().native, 0);
    assert!(codec.validate(br#"{"id": "x"}"#).is_err());
    assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
    assert_eq!(engine.stats().native, 1);
    // Uses past the threshold queue nothing more.
    for _ in 0..10 {
        assert!(codec.validate(br#"{"id": 2}"#).is_ok());
    }
    assert!(engine.wait_idle(WAIT));
    assert_eq!(engine.stats().native, 1);
}

#[test]
fn interpreter_only_never_compiles() {
    let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::InterpreterOnly));
    let codec = engine.compile_json(USER).unwrap();
    assert_eq!(codec.backend(), &BackendStatus::Interpreter);
    assert_eq!(codec.wait_native(WAIT), &BackendStatus::Interpreter);
    for _ in 0..100 {
        assert!(codec.validate(br#"{"id": 1}"#).is_ok());
    }
    assert!(engine.wait_idle(Duration::ZERO));
    assert_eq!(engine.stats().native, 0);
}

#[test]
fn a_dropped_engine_cancels_what_it_had_not_compiled() {
    let engine = lazy(2);
    let cold = engine.compile_json(USER).unwrap();
    let eager = Engine::new();
    let held: Vec<_> = (0..20)
        .map(|i| {
            eager
                .compile_json(&format!(r#"{{"type": "array", "maxItems": {i}}}"#))
                .unwrap()
        })
        .collect();
    drop(eager);
    drop(engine);
    for codec in &held {
        let status = codec.backend();
        assert!(
            matches!(status, BackendStatus::Native | BackendStatus::Cancelled),
            "{status}"
        );
        assert!(codec.validate(b"[]").is_ok());
    }
    // The lazy codec reaches its threshold after its engine is gone.
    assert_eq!(cold.backend(), &BackendStatus::Pending);
    assert!(cold.validate(br#"{"id": 1}"#).is_ok());
    assert!(cold.validate(br#"{}"#).is_err());
    assert_eq!(cold.backend(), &BackendStatus::Cancelled);
    assert_eq!(cold.wait_native(WAIT), &BackendStatus::Cancelled);
    assert!(cold.validate(br#"{"id": 1}"#).is_ok());
}

#[test]
fn compile_threads_are_bounded_and_all_finish() {
    let engine = Engine::with_options(EngineOptions::new().compile_threads(2));
    let codecs: Vec<_> = (0..40)
        .map(|i| {
            engine
                .compile_json(&format!(r#"{{"type": "string", "maxLength": {i}}}"#))
                .unwrap()
        })
        .collect();
    assert!(engine.wait_idle(WAIT));
    let stats = engine.stats();
    assert_eq!((stats.native, stats.queued), (40, 0), "{stats:?}");
    for (i, codec) in codecs.iter().enumerate() {
        assert_eq!(codec.backend(), &BackendStatus::Native);
        let long = format!("\"{}\"", "x".repeat(i + 1));
        assert!(codec.validate(long.as_bytes()).is_err());
    }
}

#[test]
fn engine_is_send_and_sync() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<Engine>();
    static GLOBAL: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    let engine = GLOBAL.get_or_init(Engine::new);
    assert!(
        engine
            .compile_json(USER)
            .unwrap()
            .validate(br#"{"id": 3}"#)
            .is_ok()
    );
}
