//! Shared pieces of the native backend tests: the differential assertions (validate,
//! decode, and encode of what decode wrote) and a seeded mutator.
//!
//! The assertions run native code on a copy of the input in an allocation of its own size,
//! so that under valgrind a read past the input's end is an error even when the caller's
//! input is a prefix of a longer buffer (where the read would go unseen).

use jitson_jit::encode::{EncodePlan, encode};
use jitson_jit::interp::{self, Decoded, Scratch as InterpScratch};
use jitson_jit::ir::{ExecOptions, Failure, Program};
use jitson_jit::native::{NativeCode, Scratch};
use jitson_kernels::escape::EscapeMode;

/// Asserts the native code and the interpreter give the same result on `input`.
pub fn assert_same(program: &Program, native: &NativeCode, input: &[u8], options: &ExecOptions) {
    let expected = interp::validate(program, input, options, &mut InterpScratch::new());
    let own = input.to_vec();
    let got = native.validate(&own, options, &mut Scratch::new());
    assert_eq!(
        got,
        expected,
        "input {:?} options {options:?}\n{program}",
        String::from_utf8_lossy(input)
    );
}

/// Asserts native decode and the interpreter's decode give the same result on `input`:
/// the same error, or documents whose encodings (every value of every record) are the
/// same bytes; and that native encode writes each document as the plan's walk does, in
/// every escape mode ([`assert_native_encode`]).
pub fn assert_same_decode(
    program: &Program,
    native: &NativeCode,
    input: &[u8],
    options: &ExecOptions,
) {
    assert_same_decode_with(program, native, input, options, &mut Scratch::new());
}

/// [`assert_same_decode`] with native decode reusing `scratch`, whose buffers earlier runs
/// (failed ones included) left behind.
pub fn assert_same_decode_with(
    program: &Program,
    native: &NativeCode,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
) {
    let expected = interp::decode(program, input, options, &mut InterpScratch::new());
    let own = input.to_vec();
    let got = native.decode(&own, options, scratch);
    assert_eq!(
        encoded(&got),
        encoded(&expected),
        "decode of input {:?} options {options:?}\n{program}",
        String::from_utf8_lossy(input)
    );
    for doc in [got, expected].iter().flatten() {
        assert_native_encode(native, doc);
    }
}

/// Asserts native encode writes `doc` (decoded with `native`'s program) exactly as the
/// plan's walk does, in every escape mode, and that native code wrote it.
pub fn assert_native_encode(native: &NativeCode, doc: &Decoded<'_>) {
    for mode in [EscapeMode::Minimal, EscapeMode::Ascii, EscapeMode::Html] {
        let plan = EncodePlan::new(doc.layout().clone(), mode);
        let mut expected = b"prefix".to_vec();
        plan.encode(doc.root(), doc.big_ints(), &mut expected);
        let mut got = b"prefix".to_vec();
        let wrote = native.encode(&plan, doc.root(), doc.big_ints(), &mut got);
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&expected),
            "{mode:?}"
        );
        assert!(wrote, "native code wrote the document");
    }
}

/// A decode result with the document as its encoding.
fn encoded(result: &Result<Decoded<'_>, Failure>) -> Result<Vec<u8>, Failure> {
    result.as_ref().map_err(Clone::clone).map(|doc| {
        let mut out = Vec::new();
        encode(doc.root(), EscapeMode::Minimal, doc.big_ints(), &mut out);
        out
    })
}

#[path = "../../../kernels/tests/common/rng.rs"]
mod rng;

pub use rng::Rng;

/// Bytes mutations like to insert: JSON punctuation, escapes, digits, UTF-8 pieces.
const PIECES: &[&[u8]] = &[
    b"\"",
    b"\\",
    b",",
    b":",
    b"[",
    b"]",
    b"{",
    b"}",
    b" ",
    b"\n",
    b"0",
    b"-",
    b"1e400",
    b"e",
    b".",
    b"null",
    b"true",
    b"\\u",
    b"\xff",
    b"\xc3\xa9",
    b"\x01",
    b"\"a\":",
    b"[[",
    b"}}",
];

/// `count` seeded mutations of `input`: byte flips, deletions, insertions, splices.
pub fn mutations(input: &[u8], count: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed ^ input.len() as u64);
    (0..count)
        .map(|_| {
            let mut v = input.to_vec();
            for _ in 0..1 + rng.below(3) {
                let at = if v.is_empty() {
                    0
                } else {
                    rng.below(v.len() + 1)
                };
                match rng.below(4) {
                    0 if at < v.len() => v[at] = rng.next_u64() as u8,
                    1 if at < v.len() => {
                        let n = 1 + rng.below(4).min(v.len() - at - 1);
                        v.drain(at..at + n.min(v.len() - at));
                    }
                    2 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        v.splice(at..at, piece.iter().copied());
                    }
                    _ if !v.is_empty() => {
                        let from = rng.below(v.len());
                        let n = rng.below(v.len() - from + 1).min(16);
                        let chunk = v[from..from + n].to_vec();
                        v.splice(at..at, chunk);
                    }
                    _ => v.push(b' '),
                }
            }
            v
        })
        .collect()
}
