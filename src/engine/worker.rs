//! The background compile worker behind tiering: a queue of codecs waiting for native code,
//! drained by a bounded number of threads that start with the first job. The owner
//! ([`Worker`], held by an [`Engine`](super::Engine) or a tiered registry) shuts it down
//! when dropped: queued codecs settle on the interpreter as
//! [`BackendStatus::Cancelled`](super::BackendStatus::Cancelled), the compilation in
//! progress (if any) finishes, and every thread is joined. A codec whose native code was
//! made is queued again for each later tier it uses ([`Later`]: decode, encode): at once
//! for the tiers already asked for, otherwise at their first use. A later tier queued (or
//! asked for) when the worker shuts down is left to that use's own thread.

use std::collections::VecDeque;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use jitson_jit::ir::Program;
use jitson_jit::native::{self, CompileError, NativeCode};

use super::Codec;
use super::tier::Later;

/// What compiles a program to native code within a size limit (`native::compile_within`;
/// tests put failures here).
pub(crate) type CompileFn = fn(&Program, usize) -> Result<NativeCode, CompileError>;

/// The owner of a compile queue: shuts it down (and joins its threads) when dropped.
pub(crate) struct Worker {
    queue: Arc<Queue>,
}

impl fmt::Debug for Worker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Worker")
            .field("threads", &self.queue.threads)
            .finish_non_exhaustive()
    }
}

impl Worker {
    /// A worker of at most `threads` threads (at least 1), none started yet.
    pub(crate) fn new(threads: usize) -> Worker {
        Worker::with_compiler(threads, native::compile_within)
    }

    /// [`Worker::new`] compiling with `compile`.
    pub(crate) fn with_compiler(threads: usize, compile: CompileFn) -> Worker {
        Worker {
            queue: Arc::new(Queue {
                state: Mutex::new(State::default()),
                work: Condvar::new(),
                done: Condvar::new(),
                threads: threads.max(1),
                compile,
                counters: Counters::default(),
            }),
        }
    }

    /// The queue, for pending codecs to submit themselves to.
    pub(crate) fn queue(&self) -> &Arc<Queue> {
        &self.queue
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.queue.shutdown();
    }
}

/// Native compilations done by a worker.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) native: AtomicU64,
    pub(crate) fallbacks: AtomicU64,
    pub(crate) nanos: AtomicU64,
}

/// The shared state of a worker and its threads.
pub(crate) struct Queue {
    state: Mutex<State>,
    /// Signalled when a job arrives or the queue shuts down.
    work: Condvar,
    /// Signalled when a job finishes (or is cancelled).
    done: Condvar,
    threads: usize,
    compile: CompileFn,
    pub(crate) counters: Counters,
}

/// What a job makes of its codec's program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Job {
    /// The native code (validate tier); a success queues the later tiers already wanted.
    Native,
    /// A later tier of the installed native code.
    Later(Later),
}

#[derive(Default)]
struct State {
    jobs: VecDeque<(Weak<Codec>, Job)>,
    /// Threads waiting for a job.
    idle: usize,
    /// Jobs being compiled.
    busy: usize,
    handles: Vec<JoinHandle<()>>,
    shutdown: bool,
}

impl Queue {
    /// Queues `job` for `codec`, starting a thread when none is idle and the bound allows;
    /// `false` when the queue has shut down (or no thread could be started).
    pub(crate) fn submit(self: &Arc<Self>, codec: Weak<Codec>, job: Job) -> bool {
        let mut state = self.lock();
        if state.shutdown {
            return false;
        }
        state.jobs.push_back((codec, job));
        if state.idle > 0 || state.handles.len() >= self.threads {
            self.work.notify_one();
            return true;
        }
        let queue = Arc::clone(self);
        let spawned = thread::Builder::new()
            .name("jitson-compile".into())
            .spawn(move || queue.run());
        match spawned {
            Ok(handle) => state.handles.push(handle),
            // The running threads will get to the job; with none, nobody would.
            Err(_) if state.handles.is_empty() => {
                state.jobs.pop_back();
                return false;
            }
            Err(_) => {}
        }
        true
    }

    /// Codecs queued and not yet started.
    pub(crate) fn queued(&self) -> usize {
        self.lock().jobs.len()
    }

    /// Wakes the waiters of [`Queue::wait_until`] (after a codec settled).
    pub(crate) fn notify_done(&self) {
        let _state = self.lock();
        self.done.notify_all();
    }

    /// Waits up to `timeout` for `settled` to hold (checked each time a job finishes);
    /// whether it does.
    pub(crate) fn wait_until(&self, timeout: Duration, settled: impl Fn() -> bool) -> bool {
        self.wait(timeout, |_| settled())
    }

    /// Waits up to `timeout` until no job is queued or running; whether that happened.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        self.wait(timeout, |state| state.jobs.is_empty() && state.busy == 0)
    }

    fn wait(&self, timeout: Duration, done: impl Fn(&State) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        loop {
            if done(&state) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .done
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// One thread's loop: take a job, compile it outside the lock, repeat until shutdown.
    fn run(&self) {
        let mut state = self.lock();
        loop {
            if state.shutdown {
                return;
            }
            let Some((job, kind)) = state.jobs.pop_front() else {
                state.idle += 1;
                state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
                state.idle -= 1;
                continue;
            };
            state.busy += 1;
            drop(state);
            // A codec nobody holds any more needs no code.
            if let Some(codec) = job.upgrade() {
                self.work_on(&codec, kind);
            }
            state = self.lock();
            state.busy -= 1;
            self.done.notify_all();
        }
    }

    /// Does job `kind` for `codec` (a validate tier made queues the later tiers wanted).
    fn work_on(&self, codec: &Codec, kind: Job) {
        let took = match kind {
            Job::Native => {
                let (native, took) = codec.native.compile(codec, self.compile);
                let counter = if native {
                    &self.counters.native
                } else {
                    &self.counters.fallbacks
                };
                counter.fetch_add(1, Relaxed);
                if native {
                    codec.native.queue_wanted();
                }
                took
            }
            Job::Later(later) => codec.native.compile_later(later),
        };
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.counters.nanos.fetch_add(nanos, Relaxed);
    }

    /// Stops the threads: queued codecs settle as cancelled, the running compilations
    /// finish, every thread is joined.
    fn shutdown(&self) {
        let (jobs, handles) = {
            let mut state = self.lock();
            state.shutdown = true;
            (
                std::mem::take(&mut state.jobs),
                std::mem::take(&mut state.handles),
            )
        };
        self.work.notify_all();
        for (job, kind) in jobs {
            if let Some(codec) = job.upgrade() {
                match kind {
                    Job::Native => codec.native.cancel(),
                    Job::Later(_) => codec.native.later_on_demand(),
                }
            }
        }
        for handle in handles {
            // A thread that panicked has nothing left to clean up.
            let _ = handle.join();
        }
        self.notify_done();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Schema;
    use crate::engine::{BackendStatus, Options, Tiering};

    const SCHEMA: &str = r#"{"type": "object", "properties": {"id": {"type": "integer"}}}"#;
    const WAIT: Duration = Duration::from_secs(30);

    fn refuse(_: &Program, _: usize) -> Result<NativeCode, CompileError> {
        Err(CompileError::ExecutableMemory("refused by the test".into()))
    }

    fn explode(_: &Program, _: usize) -> Result<NativeCode, CompileError> {
        panic!("the test's code generator exploded")
    }

    /// Two codecs tiered one after the other on a worker compiling with `compile`: the
    /// second's status once settled (the worker went on after the first).
    fn settled_status(compile: CompileFn) -> BackendStatus {
        let worker = Worker::with_compiler(1, compile);
        let schema = Schema::from_json_str(SCHEMA).unwrap();
        let first = Codec::tiered(&schema, Options::new(), Tiering::Eager, &worker);
        first.wait_native(WAIT);
        let other = Schema::from_json_str(r#"{"type": "string"}"#).unwrap();
        let second = Codec::tiered(&other, Options::new(), Tiering::Eager, &worker);
        assert_eq!(second.wait_native(WAIT), first.backend());
        // The codec keeps serving from the interpreter, with the same answers.
        assert!(first.validate(br#"{"id": 1}"#).is_ok());
        let bad = br#"{"id": "1"}"#;
        let expected = Codec::new(&schema).validate(bad).unwrap_err();
        assert_eq!(first.validate(bad).unwrap_err(), expected);
        assert!(worker.queue().wait_idle(WAIT));
        assert_eq!(worker.queue().counters.fallbacks.load(Relaxed), 2);
        second.backend().clone()
    }

    /// The book document, cut short at a few places and with a few bytes changed.
    fn book_inputs() -> Vec<Vec<u8>> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/bench/book.json");
        let book = std::fs::read(path).expect("book.json");
        let mut inputs = vec![book.clone()];
        for k in 1..40 {
            let at = book.len() * k / 40;
            inputs.push(book[..at].to_vec());
            for byte in [b'"', b'1', b'{', b']', b'x'] {
                let mut changed = book.clone();
                changed[at] = byte;
                inputs.push(changed);
            }
        }
        inputs
    }

    /// `codec`'s decode of each input, as compact JSON, or its error.
    fn decoded(codec: &Codec, inputs: &[Vec<u8>]) -> Vec<Result<Vec<u8>, crate::Error>> {
        let mut cache = crate::Cache::new();
        (inputs.iter())
            .map(|input| {
                let doc = codec.decode_with(&mut cache, input)?;
                let mut out = Vec::new();
                codec.encode(&doc, &mut out);
                Ok(out)
            })
            .collect()
    }

    fn book_schema() -> Schema {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/schemas/book.schema.json"
        );
        Schema::from_json_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    /// Which later tiers `codec`'s installed native code has built: (decode, encode).
    fn later_tiers(codec: &Codec) -> (bool, bool) {
        let code = codec.native.code().expect("validate tier installed");
        (
            code.decode_status().is_some(),
            code.encode_status().is_some(),
        )
    }

    #[test]
    fn decode_and_encode_tiers_are_built_when_first_used_with_the_same_answers() {
        let schema = book_schema();
        let inputs = book_inputs();
        let expected = decoded(&Codec::new(&schema), &inputs);
        assert!(expected.iter().filter(|r| r.is_err()).count() > 50);
        assert!(expected.iter().filter(|r| r.is_ok()).count() > 5);
        let worker = Worker::new(1);
        let codec = Codec::tiered(&schema, Options::new(), Tiering::Eager, &worker);
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        // Validating builds neither later tier.
        for input in &inputs {
            let _ = codec.validate(input);
        }
        assert!(worker.queue().wait_idle(WAIT));
        assert_eq!(later_tiers(&codec), (false, false));
        // The first decode asks for the decode tier and runs on the interpreter meanwhile.
        let mut cache = crate::Cache::new();
        let doc = codec.decode_with(&mut cache, &inputs[0]);
        assert_eq!(doc.map(|_| ()), Ok(()));
        assert!(matches!(
            codec.backend(),
            BackendStatus::DecodePending | BackendStatus::Native
        ));
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        assert_eq!(later_tiers(&codec), (true, false));
        // Encoding (in `decoded`) asks for the encode tier; the answers never change.
        assert_eq!(decoded(&codec, &inputs), expected);
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        assert_eq!(later_tiers(&codec), (true, true));
        assert_eq!(decoded(&codec, &inputs), expected);
        assert_eq!(worker.queue().counters.native.load(Relaxed), 1);
    }

    #[test]
    fn tiers_asked_for_before_the_validate_tier_are_built_after_it() {
        let worker = Worker::new(1);
        let lazy = Tiering::LazyAfter(u32::MAX);
        let codec = Codec::tiered(&book_schema(), Options::new(), lazy, &worker);
        codec.prepare_encode();
        assert_eq!(codec.backend(), &BackendStatus::Pending);
        // Never queued by uses: the test queues it.
        codec.native.request();
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        assert_eq!(later_tiers(&codec), (false, true));
        // A tier asked for again is not compiled again.
        codec.prepare_encode();
        codec.prepare_decode();
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        assert_eq!(later_tiers(&codec), (true, true));
    }

    #[test]
    fn the_status_says_a_later_tier_is_pending_until_the_worker_builds_it() {
        // Installed by hand on a codec never queued, so nothing races the checks.
        let worker = Worker::new(1);
        let lazy = Tiering::LazyAfter(u32::MAX);
        let codec = Codec::tiered(&book_schema(), Options::new(), lazy, &worker);
        // Marked as wanted while no code is installed: nothing is queued yet.
        codec.prepare_decode();
        codec.prepare_encode();
        assert!(codec.native.compile(&codec, native::compile_within).0);
        assert_eq!(codec.backend(), &BackendStatus::DecodePending);
        let code = codec.native.code().expect("validate tier installed");
        assert!(code.compile_decode().is_ok());
        assert_eq!(codec.backend(), &BackendStatus::EncodePending);
        assert!(code.compile_encode().is_ok());
        assert_eq!(codec.backend(), &BackendStatus::Native);
        assert_eq!(worker.queue().queued(), 0);
    }

    #[test]
    fn after_shutdown_the_first_use_builds_a_later_tier() {
        let worker = Worker::new(1);
        let codec = Codec::tiered(&book_schema(), Options::new(), Tiering::Eager, &worker);
        assert_eq!(codec.wait_native(WAIT), &BackendStatus::Native);
        drop(worker);
        let input = &book_inputs()[0];
        let doc = codec.decode(input).expect("book decodes");
        let mut out = Vec::new();
        codec.encode(&doc, &mut out);
        // The worker refused the jobs: decode and encode built their tiers themselves.
        assert_eq!(later_tiers(&codec), (true, true));
        assert_eq!(codec.backend(), &BackendStatus::Native);
    }

    #[test]
    fn a_refused_compilation_falls_back_with_its_reason() {
        let status = settled_status(refuse);
        assert_eq!(
            status,
            BackendStatus::Fallback(CompileError::ExecutableMemory("refused by the test".into()))
        );
        assert!(
            status.to_string().contains("refused by the test"),
            "{status}"
        );
    }

    #[test]
    fn a_panicking_code_generator_falls_back_and_the_worker_goes_on() {
        let status = settled_status(explode);
        let BackendStatus::Fallback(CompileError::Codegen { message, .. }) = status else {
            panic!("{status:?}");
        };
        assert!(message.contains("exploded"), "{message}");
    }
}
