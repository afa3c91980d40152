//! Each thread's [`Cache`] for the codec methods that take none ([`Codec::validate`],
//! [`Codec::decode`], [`Codec::transcode`], [`Codec::validate_all`]) and for typed decode.
//!
//! Reusing the buffers is what makes small documents cheap: a fresh cache per call cost
//! book.json's native decode half again its time (0.40 → 0.60 µs) and validate a tenth. A
//! run over more than [`RETAIN_INPUT_LIMIT`] bytes leaves no buffers behind (its thread's
//! cache starts afresh), so one large document does not pin its buffers' memory to every
//! thread that ever read one.
//!
//! [`Codec::validate`]: super::Codec::validate
//! [`Codec::decode`]: super::Codec::decode
//! [`Codec::transcode`]: super::Codec::transcode
//! [`Codec::validate_all`]: super::Codec::validate_all

use std::cell::RefCell;

use super::Cache;

/// Inputs longer than this leave their thread's cache empty after the run.
pub(crate) const RETAIN_INPUT_LIMIT: usize = 1 << 20;

thread_local! {
    /// This thread's scratch buffers.
    static CACHE: RefCell<Cache> = RefCell::new(Cache::new());
}

/// Runs `run` with this thread's cache for an input of `input_len` bytes. A run nested in
/// another on the same thread (a typed `Deserialize` that decodes another type), or one
/// during the thread's exit, gets a fresh cache instead: never a panic.
pub(crate) fn with_thread_cache<R>(input_len: usize, run: impl FnOnce(&mut Cache) -> R) -> R {
    let mut run = Some(run);
    let reused = CACHE.try_with(|cell| {
        let mut cache = cell.try_borrow_mut().ok()?;
        let run = run.take().expect("taken once");
        let result = run(&mut cache);
        if input_len > RETAIN_INPUT_LIMIT {
            *cache = Cache::new();
        }
        Some(result)
    });
    match reused {
        Ok(Some(result)) => result,
        _ => (run.take().expect("not run yet"))(&mut Cache::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The capacity of the cache's minified-text buffer seen by a run on this thread.
    fn minified_capacity() -> usize {
        with_thread_cache(0, |cache| cache.minified.capacity())
    }

    #[test]
    fn buffers_are_kept_between_runs_up_to_the_limit() {
        with_thread_cache(RETAIN_INPUT_LIMIT, |cache| cache.minified.reserve(4096));
        assert!(minified_capacity() >= 4096);
        with_thread_cache(RETAIN_INPUT_LIMIT + 1, |cache| {
            assert!(
                cache.minified.capacity() >= 4096,
                "the same cache serves the run"
            );
        });
        assert_eq!(minified_capacity(), 0);
    }

    #[test]
    fn a_nested_run_gets_a_fresh_cache() {
        with_thread_cache(0, |outer| {
            outer.minified.reserve(64);
            let inner = with_thread_cache(0, |inner| inner.minified.capacity());
            assert_eq!(inner, 0);
        });
        assert!(minified_capacity() >= 64);
    }

    #[test]
    fn a_run_during_thread_exit_gets_a_fresh_cache() {
        static RAN: AtomicBool = AtomicBool::new(false);
        /// Runs with the thread cache when the thread's locals are destroyed.
        struct RunOnDrop;
        impl Drop for RunOnDrop {
            fn drop(&mut self) {
                with_thread_cache(0, |cache| cache.minified.push(1));
                RAN.store(true, Ordering::SeqCst);
            }
        }
        thread_local! {
            static GUARD: RunOnDrop = const { RunOnDrop };
        }
        std::thread::spawn(|| {
            // Registered first, so destroyed after the cache (destructors run in reverse).
            GUARD.with(|_| ());
            minified_capacity();
        })
        .join()
        .expect("the thread exits cleanly");
        assert!(RAN.load(Ordering::SeqCst));
    }
}
