//! Per-name counters of a [`Registry`](super::Registry): cheap relaxed atomics, read as a
//! [`Stats`] snapshot.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// A snapshot of one name's counters, summed over all its versions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Schemas compiled for this name (accepted or not).
    pub compiles: u64,
    /// Time spent compiling them.
    pub compile_time: Duration,
    /// Publishes refused (load error or rejected sample).
    pub rejected: u64,
    /// Documents checked through the registry ([`Version::validate`](super::Version::validate)
    /// and [`Version::record`](super::Version::record)).
    pub documents: u64,
    /// Those that failed.
    pub failures: u64,
}

/// The live counters behind [`Stats`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    compiles: AtomicU64,
    compile_nanos: AtomicU64,
    rejected: AtomicU64,
    documents: AtomicU64,
    failures: AtomicU64,
}

impl Counters {
    pub(crate) fn compiled(&self, took: Duration) {
        self.compiles.fetch_add(1, Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.compile_nanos.fetch_add(nanos, Relaxed);
    }

    pub(crate) fn rejected(&self) {
        self.rejected.fetch_add(1, Relaxed);
    }

    pub(crate) fn document(&self, ok: bool) {
        self.documents.fetch_add(1, Relaxed);
        if !ok {
            self.failures.fetch_add(1, Relaxed);
        }
    }

    pub(crate) fn snapshot(&self) -> Stats {
        Stats {
            compiles: self.compiles.load(Relaxed),
            compile_time: Duration::from_nanos(self.compile_nanos.load(Relaxed)),
            rejected: self.rejected.load(Relaxed),
            documents: self.documents.load(Relaxed),
            failures: self.failures.load(Relaxed),
        }
    }
}
