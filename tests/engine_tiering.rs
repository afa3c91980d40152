//! A codec's answers never change across its switch from the interpreter to native code:
//! threads validating (or decoding and encoding) the corpus and thousands of mutations of
//! it while the compilation finishes get exactly the interpreter's results and errors
//! (kind, offset, path, message).

// Native code cannot run under Miri.
#![cfg(not(miri))]

#[allow(dead_code)]
#[path = "../jit/tests/native_support/mod.rs"]
mod native_support;

mod engine_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use engine_support::{corpus_schema, testdata};
use jitson::engine::{BackendStatus, Engine, EngineOptions, Tiering};
use jitson::registry::{Registry, RegistryOptions};
use jitson::{Cache, Codec, Error};
use native_support::mutations;

const THREADS: usize = 4;

/// One operation of a codec on an input, as the tests compare it.
type Op<R> = fn(&Codec, &mut Cache, &[u8]) -> R;

/// Validates `input`.
fn validate(codec: &Codec, cache: &mut Cache, input: &[u8]) -> Result<(), Error> {
    codec.validate_with(cache, input)
}

/// Decodes `input` and encodes the document: the bytes, or the decode's error.
fn round_trip(codec: &Codec, cache: &mut Cache, input: &[u8]) -> Result<Vec<u8>, Error> {
    let doc = codec.decode_with(cache, input)?;
    let mut out = Vec::new();
    codec.encode(&doc, &mut out);
    Ok(out)
}

/// The book documents and the interpreter's answers on them.
fn cases<R>(op: Op<R>) -> (Vec<Vec<u8>>, Vec<R>) {
    let book = testdata("bench/book.json");
    let mut inputs = mutations(&book, if cfg!(miri) { 10 } else { 1500 }, 7);
    inputs.push(book);
    let interp = Codec::new(&corpus_schema("book"));
    let mut cache = Cache::new();
    let expected = inputs.iter().map(|i| op(&interp, &mut cache, i)).collect();
    (inputs, expected)
}

/// Runs `op` on every input on `THREADS` threads, pass after pass, until a pass has run
/// entirely on settled code; asserts each answer is the interpreter's. Returns how many
/// passes started before native code was in.
fn across_the_switch<R>(
    codec: &Arc<Codec>,
    inputs: &Arc<Vec<Vec<u8>>>,
    expected: &Arc<Vec<R>>,
    op: Op<R>,
) -> usize
where
    R: PartialEq + std::fmt::Debug + Send + Sync + 'static,
{
    let early = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (codec, inputs, expected, early) = (
                codec.clone(),
                inputs.clone(),
                expected.clone(),
                early.clone(),
            );
            std::thread::spawn(move || {
                let mut cache = Cache::new();
                for pass in 0.. {
                    assert!(pass < 5000, "never settled: {:?}", codec.backend());
                    let settled = codec.backend() == &BackendStatus::Native;
                    if !settled {
                        early.fetch_add(1, Ordering::Relaxed);
                    }
                    // Each thread starts at its own place, so the switch lands mid-pass.
                    for k in 0..inputs.len() {
                        let i = (k + t * inputs.len() / THREADS) % inputs.len();
                        let got = op(&codec, &mut cache, &inputs[i]);
                        assert_eq!(got, expected[i], "input {i}: {:?}", codec.backend());
                    }
                    if settled {
                        return;
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a working thread panicked");
    }
    early.load(Ordering::Relaxed)
}

#[test]
fn results_and_errors_are_identical_across_the_switch() {
    let (inputs, expected) = cases(validate);
    assert!(expected.iter().filter(|r| r.is_err()).count() > 100);
    let (inputs, expected) = (Arc::new(inputs), Arc::new(expected));
    // The threshold is reached in the first pass, so the compile finishes under load.
    let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::LazyAfter(200)));
    let codec = engine.compile(&corpus_schema("book"));
    assert_eq!(codec.backend(), &BackendStatus::Pending);
    let early = across_the_switch(&codec, &inputs, &expected, validate);
    assert!(early >= THREADS, "every thread starts on the interpreter");
    assert_eq!(codec.backend(), &BackendStatus::Native);
}

#[test]
fn decode_and_encode_give_the_same_bytes_and_errors_across_their_tiers() {
    let (inputs, expected) = cases(round_trip);
    assert!(expected.iter().filter(|r| r.is_err()).count() > 100);
    let (inputs, expected) = (Arc::new(inputs), Arc::new(expected));
    // Decodes count as uses: the threshold is reached in the first pass, after the decode
    // and encode tiers were asked for, so the worker builds the three tiers in a row
    // while the threads run on the interpreter, then on each tier as it comes.
    let engine = Engine::with_options(EngineOptions::new().tiering(Tiering::LazyAfter(200)));
    let codec = engine.compile(&corpus_schema("book"));
    let early = across_the_switch(&codec, &inputs, &expected, round_trip);
    assert!(early >= THREADS, "every thread starts on the interpreter");
    assert_eq!(
        codec.wait_native(Duration::from_secs(30)),
        &BackendStatus::Native
    );
    assert_eq!(engine.stats().native, 1);
}

#[test]
fn a_tiered_registry_serves_at_once_and_switches_without_a_change() {
    let (inputs, expected) = cases(validate);
    let (inputs, expected) = (Arc::new(inputs), Arc::new(expected));
    let registry = Registry::with_options(RegistryOptions::new().tiering(Tiering::Eager));
    let text = String::from_utf8(testdata("schemas/book.schema.json")).unwrap();
    let version = registry.publish_json("book", &text).unwrap();
    let codec = Arc::clone(version.codec());
    across_the_switch(&codec, &inputs, &expected, validate);
    assert_eq!(
        codec.wait_native(Duration::from_secs(30)),
        &BackendStatus::Native
    );
}
