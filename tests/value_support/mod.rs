//! Test support for the value tests: a deterministic RNG, a random JSON text generator,
//! document mutations, the corpus, and comparison with serde_json that tolerates serde_json's
//! last-ulp float errors.

#![allow(dead_code)] // each test binary uses a different subset

// Shared with the fuzz oracle (fuzz/src/bodies/oracle.rs), which includes it by path.
pub mod json_compare;
pub mod numbers;

use std::path::PathBuf;

#[path = "../../kernels/tests/common/rng.rs"]
mod rng;

pub use rng::Rng;

/// The corpus documents (name, bytes) from testdata/bench.
pub fn corpus() -> Vec<(&'static str, Vec<u8>)> {
    [
        "book",
        "twitter",
        "twitterescaped",
        "citm_catalog",
        "canada",
    ]
    .into_iter()
    .map(|name| (name, read(&format!("testdata/bench/{name}.json"))))
    .collect()
}

/// The bytes of a file under the repository root.
pub fn read(relative: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Random JSON texts: nested containers, strings with escapes (surrogate pairs included) and
/// multi-byte UTF-8, integers at and beyond the 64-bit bounds, floats with long mantissas and
/// extreme exponents, random whitespace, repeated keys, and occasional deep nesting.
pub struct JsonGen {
    rng: Rng,
}

const STRING_PIECES: &[&str] = &[
    "a",
    "Z",
    "key",
    " ",
    "0",
    "é",
    "中文",
    "😀",
    "\u{2028}",
    "\u{7f}",
    "<",
    ">",
    "&",
    "'",
    "\\n",
    "\\t",
    "\\r",
    "\\b",
    "\\f",
    "\\/",
    "\\\\",
    "\\\"",
    "\\u0000",
    "\\u001f",
    "\\u00e9",
    "\\u4E2D",
    "\\uD83D\\uDE00",
    "\\uDBFF\\uDFFF",
    "\\u2028",
    "\\uFFFF",
];

const INTEGERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "42",
    "9007199254740993",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "-18446744073709551616",
    "123456789012345678901234567890",
];

const KEYS: &[&str] = &["id", "a", "b", "name", "x y", "", "é", "\\u0041", "k"];

impl JsonGen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> JsonGen {
        JsonGen {
            rng: Rng::new(seed),
        }
    }

    /// One random JSON text.
    pub fn document(&mut self) -> String {
        let mut out = String::new();
        self.space(&mut out);
        if self.rng.one_in(20) {
            self.deep(&mut out);
        } else {
            self.value(&mut out, 6);
        }
        self.space(&mut out);
        out
    }

    fn deep(&mut self, out: &mut String) {
        // Below serde_json's limit (127 levels), so both must accept.
        let depth = 60 + self.rng.below(60);
        let mut closers = Vec::with_capacity(depth);
        for _ in 0..depth {
            if self.rng.one_in(2) {
                out.push('[');
                closers.push(']');
            } else {
                out.push_str("{\"d\":");
                closers.push('}');
            }
        }
        self.value(out, 1);
        while let Some(closer) = closers.pop() {
            out.push(closer);
        }
    }

    fn space(&mut self, out: &mut String) {
        if self.rng.one_in(3) {
            for _ in 0..self.rng.below(3) {
                out.push(self.rng.pick(&[' ', '\n', '\t', '\r']));
            }
        }
    }

    fn value(&mut self, out: &mut String, budget: usize) {
        let choice = if budget == 0 {
            self.rng.below(6)
        } else {
            self.rng.below(8)
        };
        match choice {
            0 => out.push_str(self.rng.pick(&["null", "true", "false"])),
            1 | 2 => self.string(out),
            3 => out.push_str(self.rng.pick(INTEGERS)),
            4 => self.float(out),
            5 => out.push_str(&(self.rng.next_u64() as i64 >> self.rng.below(64)).to_string()),
            6 => self.array(out, budget - 1),
            _ => self.object(out, budget - 1),
        }
    }

    fn string(&mut self, out: &mut String) {
        out.push('"');
        for _ in 0..self.rng.below(6) {
            out.push_str(self.rng.pick(STRING_PIECES));
        }
        out.push('"');
    }

    fn float(&mut self, out: &mut String) {
        if self.rng.one_in(2) {
            out.push('-');
        }
        let digits = 1 + self.rng.below(20);
        let mantissa: String = (0..digits)
            .map(|_| char::from(b'0' + self.rng.below(10) as u8))
            .collect();
        let mantissa = mantissa.trim_start_matches('0');
        out.push_str(if mantissa.is_empty() { "0" } else { mantissa });
        if self.rng.one_in(2) || digits == 1 {
            out.push('.');
            out.push(char::from(b'0' + self.rng.below(10) as u8));
        }
        if self.rng.one_in(2) {
            out.push(self.rng.pick(&['e', 'E']));
            out.push_str(self.rng.pick(&["", "+", "-"]));
            let exponent = match self.rng.below(16) {
                0 => self.rng.below(400),
                _ => self.rng.below(30),
            };
            out.push_str(&exponent.to_string());
        }
    }

    fn array(&mut self, out: &mut String, budget: usize) {
        out.push('[');
        let n = self.rng.below(6);
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            self.space(out);
            self.value(out, budget);
            self.space(out);
        }
        out.push(']');
    }

    fn object(&mut self, out: &mut String, budget: usize) {
        out.push('{');
        let n = if self.rng.one_in(10) {
            20 + self.rng.below(20)
        } else {
            self.rng.below(6)
        };
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            self.space(out);
            if self.rng.one_in(2) {
                out.push('"');
                out.push_str(self.rng.pick(KEYS));
                out.push('"');
            } else {
                self.string(out);
            }
            self.space(out);
            out.push(':');
            self.space(out);
            self.value(out, budget);
        }
        out.push('}');
    }
}

/// Bytes a mutation writes or inserts: structure, escapes, digits, control and non-UTF-8.
const MUTATION_BYTES: &[u8] =
    b"{}[],:\"\\0123456789-+.eEtfnu \n\t\x00\x1f\x7f\x80\xc3\xed\xf0\xffx/";

/// `doc` with one to three random edits: a byte replaced, a byte inserted, a byte removed,
/// or the tail cut off.
pub fn mutate(rng: &mut Rng, doc: &[u8]) -> Vec<u8> {
    let mut out = doc.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(out.len() + 1);
        match rng.below(4) {
            0 if at < out.len() => out[at] = rng.pick(MUTATION_BYTES),
            1 => out.insert(at, rng.pick(MUTATION_BYTES)),
            2 if at < out.len() => {
                out.remove(at);
            }
            _ => out.truncate(at),
        }
    }
    out
}

/// Compares a value converted from jitson with serde_json's, exactly except that floats may
/// differ in the last place (serde_json's default float parsing is not always correctly
/// rounded; jitson's is, which the tests check against `str::parse` separately). Returns the
/// number of such last-place differences, or where the values differ.
pub fn compare(ours: &serde_json::Value, theirs: &serde_json::Value) -> Result<usize, String> {
    json_compare::compare_within(ours, theirs, 1)
}
