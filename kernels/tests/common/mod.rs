//! Test support shared by the kernel tests: guard-page placement and the exhaustive
//! "every special byte at every position" input generator.

#![allow(dead_code)] // each test binary uses a different subset

mod rng;

pub use rng::Rng;

pub use jitson_kernels::guard::GuardedRegion;

/// The longest input length the exhaustive position tests cover (inclusive). Under Miri,
/// which checks the scalar twins' memory accesses, one 8-byte SWAR word and part of a second
/// (the scalar twins' unit); natively, past several 32-byte AVX2 chunks.
pub const MAX_EXHAUSTIVE_LEN: usize = if cfg!(miri) { 10 } else { 130 };

/// Every input of length `0..=MAX_EXHAUSTIVE_LEN` made of `filler`, with each byte of
/// `specials` placed at each position in turn (plus the all-filler input of each length).
pub fn special_byte_inputs(filler: u8, specials: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    (0..=MAX_EXHAUSTIVE_LEN).flat_map(move |len| {
        let plain = std::iter::once(vec![filler; len]);
        let placed = (0..len).flat_map(move |pos| {
            specials.iter().map(move |&s| {
                let mut v = vec![filler; len];
                v[pos] = s;
                v
            })
        });
        plain.chain(placed)
    })
}

/// Runs `check` on `bytes` placed against a guard page, and on every suffix of `bytes` too
/// (each suffix also ends at the guard), so every tail length of every kernel is exercised.
/// Under Miri, the whole of `bytes` and a [`MiriSample`] of its proper suffixes.
pub fn for_each_guarded_suffix(bytes: &[u8], mut check: impl FnMut(&[u8])) {
    let mut region = GuardedRegion::new(bytes.len());
    let mut sample = MiriSample::for_input(bytes);
    for start in 0..=bytes.len() {
        if start == 0 || sample.next_runs() {
            check(region.place(&bytes[start..]));
        }
    }
}

/// `token` after each of `prefixes` and before each of `suffixes`, as (buffer, offset of the
/// token) pairs. Under Miri, the first pair (the first prefix and suffix; the callers list
/// `""` first, so the token alone, ending the input) and a [`MiriSample`] of the others.
pub fn token_in_contexts(
    token: &str,
    prefixes: &[&str],
    suffixes: &[&str],
) -> Vec<(Vec<u8>, usize)> {
    let mut sample = MiriSample::for_input(token.as_bytes());
    let mut first = true;
    let mut pairs = Vec::new();
    for suffix in suffixes {
        for prefix in prefixes {
            if std::mem::take(&mut first) || sample.next_runs() {
                pairs.push((
                    format!("{prefix}{token}{suffix}").into_bytes(),
                    prefix.len(),
                ));
            }
        }
    }
    pairs
}

/// Picks the cases an exhaustive test runs: every one natively; under Miri, where one case
/// costs milliseconds of interpretation, a fixed pseudo-random quarter. Random rather than
/// strided, so every kind of input still meets lengths and positions across the whole
/// range, which a stride in step with one of the test's loops would not give. (Natively the
/// same tests check every case's answer; Miri is there for the memory accesses, which the
/// sample still drives through every length class and tail of the scalar twins.)
pub struct MiriSample(Rng);

impl Default for MiriSample {
    fn default() -> MiriSample {
        MiriSample(Rng::new(0x5a3b_1e00))
    }
}

impl MiriSample {
    /// A sample seeded by `bytes`, so that calls on different inputs of one length pick
    /// different cases.
    pub fn for_input(bytes: &[u8]) -> MiriSample {
        MiriSample(Rng::for_bytes(bytes))
    }

    /// Whether the next case runs.
    pub fn next_runs(&mut self) -> bool {
        !cfg!(miri) || self.0.one_in(4)
    }
}

/// True when the AVX2 twins can be called on this machine.
pub fn avx2() -> bool {
    jitson_kernels::avx2_supported()
}

/// Whether to check the dispatch entry points beside the scalar twin: not under Miri, where
/// the dispatcher picks the scalar twin (Miri reports no AVX2), so checking it again would
/// double the slowest Miri tests and check nothing new.
pub fn check_dispatch() -> bool {
    !cfg!(miri)
}
