//! Tiering: which native code a codec has, and how it gets it.
//!
//! A [`Tier`] is the one slot of a [`Codec`] that says what runs its native-capable
//! operations. A lone codec settles it when made (interpreter, or native code compiled on
//! the spot). A codec an [`Engine`](super::Engine) (or a tiered registry) makes starts
//! *pending*: it serves from the interpreter, and a background worker compiles its program
//! and installs the code once — right away ([`Tiering::Eager`]) or after a number of uses
//! ([`Tiering::LazyAfter`]). The slot is a `OnceLock`, so the hot path reads it with one
//! acquire load, and the answers never change across the switch: the native backend gives
//! exactly the interpreter's results and errors.
//!
//! Native code comes in three tiers (see [`NativeCode`]): validate, then decode and encode
//! ([`Later`]), each built only for a codec that uses it. A lone codec compiles its decode
//! tier on its first decode and its encode tier on its first encode, on the caller's
//! thread. An engine's codec queues each on its worker at its first use (or at
//! [`Codec::prepare_decode`] / [`Codec::prepare_encode`]), and decodes on the interpreter
//! and encodes with its plan until it is ready ([`BackendStatus::DecodePending`],
//! [`BackendStatus::EncodePending`]). A codec that only validates or transcodes, as a
//! proxy's do, never pays for the other two.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering, fence};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use jitson_jit::native::{CompileError, NativeCode};

use super::worker::{CompileFn, Job, Queue};
use super::{BackendStatus, Codec};

/// A tier of native code built after the validate tier, when a codec first needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Later {
    /// Native decode ([`NativeCode::compile_decode`]).
    Decode,
    /// Native encode ([`NativeCode::compile_encode`]).
    Encode,
}

impl Later {
    /// Both, in the order a worker builds them when both are wanted.
    const ALL: [Later; 2] = [Later::Decode, Later::Encode];

    /// This tier's bit in [`Tier`]'s `wanted` and `queued` sets.
    fn bit(self) -> u8 {
        match self {
            Later::Decode => 1,
            Later::Encode => 2,
        }
    }

    /// Builds this tier of `code` unless it is built (a failure is kept in the code and
    /// reported by [`Tier::status`]).
    fn compile(self, code: &NativeCode) {
        let _ = match self {
            Later::Decode => code.compile_decode(),
            Later::Encode => code.compile_encode(),
        };
    }

    /// Whether `code` has this tier built (or knows it cannot be).
    fn built(self, code: &NativeCode) -> bool {
        match self {
            Later::Decode => code.decode_status().is_some(),
            Later::Encode => code.encode_status().is_some(),
        }
    }
}

/// When the codecs of an [`Engine`](super::Engine) get native code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tiering {
    /// Queued for native compilation as soon as the codec is made; it serves from the
    /// interpreter until the code is ready (the default).
    #[default]
    Eager,
    /// Queued once the codec has been used this many times (calls of `validate`,
    /// `validate_all`, `decode`, and `transcode` with options that keep everything; not
    /// `encode`); cold codecs never pay for compilation. `LazyAfter(0)` is
    /// [`Tiering::Eager`].
    LazyAfter(u32),
    /// Never compiled: every codec runs on the interpreter.
    InterpreterOnly,
}

/// The settled state of a [`Tier`].
#[derive(Debug)]
struct Outcome {
    code: Option<Arc<NativeCode>>,
    status: BackendStatus,
}

/// Why a codec waits for native code (only while its [`Tier`] is unsettled).
const WAITING: u8 = 0;
const QUEUED: u8 = 1;
const COMPILING: u8 = 2;

static PENDING_STATUS: BackendStatus = BackendStatus::Pending;
static COMPILING_STATUS: BackendStatus = BackendStatus::Compiling;
static DECODE_PENDING_STATUS: BackendStatus = BackendStatus::DecodePending;
static ENCODE_PENDING_STATUS: BackendStatus = BackendStatus::EncodePending;

/// How a pending codec gets its native code.
struct Plan {
    /// Uses before it is queued (0: queued when made).
    after: u32,
    /// The codec this tier belongs to (what the worker compiles).
    me: Weak<Codec>,
    queue: Arc<Queue>,
}

/// A codec's native code: settled once (`OnceLock`), pending until then.
pub(crate) struct Tier {
    outcome: OnceLock<Outcome>,
    /// `WAITING`, `QUEUED` or `COMPILING`; read only while `outcome` is unset.
    state: AtomicU8,
    uses: AtomicU32,
    /// `None` for a tier settled when made.
    plan: Option<Plan>,
    /// Set when the decode and encode tiers are built by the first decode and encode, on
    /// the caller's thread, rather than by the worker (a lone codec's always; an engine
    /// codec's once its worker shut down first).
    later_on_demand: AtomicBool,
    /// The [`Later`] tiers asked for (bits): by a use, or by `prepare_*`.
    wanted: AtomicU8,
    /// The [`Later`] tiers submitted to the worker (bits), each once.
    queued: AtomicU8,
    /// The status once the decode tier could not be made.
    decode_fallback: OnceLock<BackendStatus>,
    /// The status once the encode tier could not be made.
    encode_fallback: OnceLock<BackendStatus>,
}

impl fmt::Debug for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tier")
            .field("status", self.status())
            .finish_non_exhaustive()
    }
}

impl Tier {
    /// A tier settled now: `code` (if any) with its `status`.
    pub(crate) fn settled(code: Option<Arc<NativeCode>>, status: BackendStatus) -> Tier {
        Tier {
            outcome: OnceLock::from(Outcome { code, status }),
            state: AtomicU8::new(WAITING),
            uses: AtomicU32::new(0),
            plan: None,
            later_on_demand: AtomicBool::new(true),
            wanted: AtomicU8::new(0),
            queued: AtomicU8::new(0),
            decode_fallback: OnceLock::new(),
            encode_fallback: OnceLock::new(),
        }
    }

    /// A pending tier of the codec `me`, compiled by `queue` after `after` uses (call
    /// [`Tier::request`] at once when `after` is 0).
    pub(crate) fn pending(after: u32, me: Weak<Codec>, queue: Arc<Queue>) -> Tier {
        Tier {
            outcome: OnceLock::new(),
            state: AtomicU8::new(WAITING),
            uses: AtomicU32::new(0),
            plan: Some(Plan { after, me, queue }),
            later_on_demand: AtomicBool::new(false),
            wanted: AtomicU8::new(0),
            queued: AtomicU8::new(0),
            decode_fallback: OnceLock::new(),
            encode_fallback: OnceLock::new(),
        }
    }

    /// The native code when it is ready; otherwise `None`, and the call counts as a use
    /// toward [`Tiering::LazyAfter`] (one relaxed `fetch_add`).
    #[inline]
    pub(crate) fn code(&self) -> Option<&NativeCode> {
        match self.outcome.get() {
            Some(outcome) => outcome.code.as_deref(),
            None => {
                self.count_use();
                None
            }
        }
    }

    /// The native code to decode with when its decode tier is ready, or will be built by
    /// this call (on demand); otherwise `None`, counted as [`Tier::code`] does, and the
    /// decode tier is asked for.
    #[inline]
    pub(crate) fn decode_code(&self) -> Option<&NativeCode> {
        self.later_code(Later::Decode)
    }

    /// The native code to encode with when its encode tier is ready, or will be built by
    /// this call (on demand); otherwise `None` (not counted as a use), and the encode tier
    /// is asked for.
    #[inline]
    pub(crate) fn encode_code(&self) -> Option<&NativeCode> {
        self.later_code(Later::Encode)
    }

    #[inline]
    fn later_code(&self, later: Later) -> Option<&NativeCode> {
        match self.outcome.get() {
            Some(outcome) => {
                let code = outcome.code.as_deref()?;
                if later.built(code) || self.on_demand() {
                    return Some(code);
                }
                self.want(later);
                // A worker that shut down leaves the tier to this call.
                self.on_demand().then_some(code)
            }
            None => {
                if later == Later::Decode {
                    self.count_use();
                }
                self.want(later);
                None
            }
        }
    }

    fn on_demand(&self) -> bool {
        self.later_on_demand.load(Ordering::Acquire)
    }

    /// Asks for the `later` tier: a lone codec builds it now; an engine's codec has its
    /// worker build it once the validate tier is installed (at once if it is).
    pub(crate) fn prepare(&self, later: Later) {
        match self.outcome.get().and_then(|o| o.code.as_deref()) {
            Some(code) if self.on_demand() => later.compile(code),
            _ => self.want(later),
        }
    }

    /// Marks `later` as wanted and queues it when the validate tier's code is installed.
    /// The worker queues the wanted tiers right after installing that code, so between
    /// this call and the worker one of the two queues it (and `queued` keeps it to one).
    fn want(&self, later: Later) {
        if self.wanted.load(Ordering::Relaxed) & later.bit() != 0 {
            return;
        }
        self.wanted.fetch_or(later.bit(), Ordering::SeqCst);
        // Orders the mark before reading the outcome; the worker fences between setting
        // the outcome and reading the marks (`queue_wanted`).
        fence(Ordering::SeqCst);
        self.queue(later);
    }

    /// Queues the wanted tiers of the code just installed (the worker, after the validate
    /// tier).
    pub(crate) fn queue_wanted(&self) {
        fence(Ordering::SeqCst);
        let wanted = self.wanted.load(Ordering::SeqCst);
        for later in Later::ALL {
            if wanted & later.bit() != 0 {
                self.queue(later);
            }
        }
    }

    /// Submits `later` to the worker once, if the validate tier's code is installed and
    /// the tier not built; when the worker has shut down, the first use builds it instead.
    fn queue(&self, later: Later) {
        let Some(plan) = &self.plan else { return };
        let Some(code) = self.outcome.get().and_then(|o| o.code.as_deref()) else {
            return;
        };
        if later.built(code)
            || self.queued.fetch_or(later.bit(), Ordering::AcqRel) & later.bit() != 0
        {
            return;
        }
        if !plan.queue.submit(plan.me.clone(), Job::Later(later)) {
            self.later_on_demand();
            plan.queue.notify_done();
        }
    }

    fn count_use(&self) {
        if let Some(plan) = &self.plan
            && plan.after != 0
            && self.uses.fetch_add(1, Ordering::Relaxed).wrapping_add(1) == plan.after
        {
            self.request();
        }
    }

    /// Queues the codec for compilation (once); when its queue has shut down, the codec
    /// settles on the interpreter as [`BackendStatus::Cancelled`].
    pub(crate) fn request(&self) {
        let Some(plan) = &self.plan else { return };
        let queued =
            self.state
                .compare_exchange(WAITING, QUEUED, Ordering::AcqRel, Ordering::Relaxed);
        if queued.is_ok() && !plan.queue.submit(plan.me.clone(), Job::Native) {
            self.cancel();
            plan.queue.notify_done();
        }
    }

    /// Compiles the `later` tier of the installed native code (if any); the time it took.
    pub(crate) fn compile_later(&self, later: Later) -> Duration {
        let start = std::time::Instant::now();
        if let Some(code) = self.outcome.get().and_then(|o| o.code.as_deref()) {
            later.compile(code);
        }
        start.elapsed()
    }

    /// The worker will not compile the decode and encode tiers (it shut down first): the
    /// first decode and encode build them, as a lone codec's do.
    pub(crate) fn later_on_demand(&self) {
        self.later_on_demand.store(true, Ordering::Release);
    }

    /// Settles a codec that will not be compiled: its queue shut down first.
    pub(crate) fn cancel(&self) {
        let _ = self.outcome.set(Outcome {
            code: None,
            status: BackendStatus::Cancelled,
        });
    }

    /// Compiles `codec`'s program with `compile` (within its options' size limit) and
    /// settles the tier with the result; a panic in the code generator settles it on the
    /// interpreter too. Returns whether native code was made, and the time compiling took.
    pub(crate) fn compile(&self, codec: &Codec, compile: CompileFn) -> (bool, Duration) {
        let (program, limit) = (&codec.program, codec.options.native_size_limit);
        self.state.store(COMPILING, Ordering::Release);
        let start = std::time::Instant::now();
        let outcome = match catch_unwind(AssertUnwindSafe(|| compile(program, limit))) {
            Ok(Ok(code)) => Outcome {
                code: Some(Arc::new(code)),
                status: BackendStatus::Native,
            },
            Ok(Err(e)) => Outcome {
                code: None,
                status: BackendStatus::Fallback(e),
            },
            Err(panic) => Outcome {
                code: None,
                status: BackendStatus::Fallback(CompileError::Codegen {
                    function: program.funcs[program.entry as usize].name.clone(),
                    message: format!("the code generator panicked: {}", panic_message(&*panic)),
                }),
            },
        };
        let took = start.elapsed();
        let native = outcome.code.is_some();
        let _ = self.outcome.set(outcome);
        (native, took)
    }

    /// What the codec runs on now.
    pub(crate) fn status(&self) -> &BackendStatus {
        match self.outcome.get() {
            Some(outcome) => match outcome.code.as_deref() {
                Some(code) => match (code.decode_status(), code.encode_status()) {
                    (Some(Err(e)), _) => (self.decode_fallback)
                        .get_or_init(|| BackendStatus::DecodeFallback(e.clone())),
                    (None, _) if self.left_to_worker(Later::Decode) => &DECODE_PENDING_STATUS,
                    (_, None) if self.left_to_worker(Later::Encode) => &ENCODE_PENDING_STATUS,
                    (_, Some(Err(e))) => (self.encode_fallback)
                        .get_or_init(|| BackendStatus::EncodeFallback(e.clone())),
                    _ => &outcome.status,
                },
                None => &outcome.status,
            },
            None if self.state.load(Ordering::Acquire) == COMPILING => &COMPILING_STATUS,
            None => &PENDING_STATUS,
        }
    }

    /// Whether `later` is wanted and left to the worker (the caller checked it is not
    /// built).
    fn left_to_worker(&self, later: Later) -> bool {
        !self.on_demand() && self.wanted.load(Ordering::Acquire) & later.bit() != 0
    }

    /// Waits up to `timeout` for the tier to settle, the decode and encode tiers asked for
    /// included; the status then.
    pub(crate) fn wait(&self, timeout: Duration) -> &BackendStatus {
        if let Some(plan) = &self.plan {
            plan.queue.wait_until(timeout, || self.is_settled());
        }
        self.status()
    }

    /// Whether nothing is left for the worker: no code, or code whose wanted decode and
    /// encode tiers are built or left to the first decode and encode.
    fn is_settled(&self) -> bool {
        self.outcome.get().is_some_and(|outcome| {
            (outcome.code.as_deref()).is_none_or(|code| {
                (Later::ALL.iter()).all(|&later| later.built(code) || !self.left_to_worker(later))
            })
        })
    }
}

/// The text of a panic payload.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}
