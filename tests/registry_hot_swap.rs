//! Hot swaps under load: 1 000 publishes of alternating schemas while two threads validate.
//! Codecs are native, so replaced versions' code memory must be returned. Every validation
//! sees exactly one version, no call fails for a reason other than the
//! data, and resident memory comes back to where it was.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use jitson::engine::{Backend, BackendStatus, Options, Tiering};
use jitson::registry::{Registry, RegistryOptions};

mod memory_support;
use memory_support::rss;

/// Accepts `A` and rejects `B`.
const SCHEMA_A: &str =
    r#"{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}"#;
/// Accepts `B` and rejects `A`.
const SCHEMA_B: &str =
    r#"{"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}"#;
const A: &[u8] = br#"{"a": 1}"#;

/// Held by each test for its whole run: both measure the resident memory of the one test
/// process, so one must not allocate while the other measures (seen failing on a loaded
/// machine when they ran side by side).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
const B: &[u8] = br#"{"b": "x"}"#;

/// Publishes `rounds` alternating versions while two readers check that each version they
/// hold accepts exactly one of `A` and `B`, consistently with its key.
fn swap_under_load(registry: &Arc<Registry>, rounds: usize) -> u64 {
    let key_a = registry.publish_json("s", SCHEMA_A).unwrap().key();
    let stop = Arc::new(AtomicBool::new(false));
    let checks = Arc::new(AtomicU64::new(0));
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let (registry, stop, checks) = (registry.clone(), stop.clone(), checks.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let version = registry.version("s").expect("a version always serves");
                    let a = version.validate(A).is_ok();
                    let b = version.validate(B).is_ok();
                    assert!(a != b, "version {} accepted a={a} b={b}", version.number());
                    assert_eq!(a, version.key() == key_a, "mixed result");
                    checks.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for i in 0..rounds {
        let text = if i % 2 == 0 { SCHEMA_B } else { SCHEMA_A };
        registry
            .publish_json("s", text)
            .expect("a good schema publishes");
    }
    stop.store(true, Ordering::Relaxed);
    for reader in readers {
        reader.join().expect("a reader panicked");
    }
    checks.load(Ordering::Relaxed)
}

#[test]
fn a_thousand_swaps_while_two_threads_validate() {
    // Native code, so that every swap also frees a replaced version's code memory.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let native = RegistryOptions::new().codec(Options::new().backend(Backend::Native));
    let registry = Arc::new(Registry::with_options(native));
    // Warm up allocator pools and thread stacks before measuring.
    swap_under_load(&registry, 50);
    let before = rss();
    let checks = swap_under_load(&registry, 1000);
    let serving = registry.version("s").unwrap();
    assert_eq!(serving.codec().backend(), &BackendStatus::Native);
    let after = rss();
    assert!(checks > 0);
    let stats = registry.stats("s").unwrap();
    assert_eq!(stats.compiles, 1052);
    assert_eq!(stats.failures * 2, stats.documents);
    let grown = after.saturating_sub(before);
    assert!(grown < 5 << 20, "resident memory grew by {grown} bytes");
}

#[test]
fn a_thousand_tiered_swaps_compile_in_the_background_and_return_memory() {
    // Publishes do not wait for native code; a version replaced before its turn on the
    // compile thread is never compiled.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let tiered = RegistryOptions::new().tiering(Tiering::Eager);
    let registry = Arc::new(Registry::with_options(tiered));
    swap_under_load(&registry, 50);
    let before = rss();
    let checks = swap_under_load(&registry, 1000);
    let serving = registry.version("s").unwrap();
    let status = serving
        .codec()
        .wait_native(std::time::Duration::from_secs(30));
    assert_eq!(status, &BackendStatus::Native);
    assert!(checks > 0);
    let stats = registry.stats("s").unwrap();
    assert_eq!(stats.compiles, 1052);
    assert_eq!(stats.failures * 2, stats.documents);
    let grown = rss().saturating_sub(before);
    assert!(grown < 5 << 20, "resident memory grew by {grown} bytes");
}
