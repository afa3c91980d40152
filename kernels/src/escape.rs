//! PLACEHOLDER (owned by the strings helper): quoting and escaping strings for output.

/// Which characters are escaped on output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EscapeMode {
    /// Only what JSON requires: `"`, `\` and control bytes (as serde_json writes them).
    #[default]
    Minimal,
    /// Minimal, plus every non-ASCII character as `\uXXXX` (surrogate pairs above U+FFFF).
    Ascii,
    /// Minimal, plus `<`, `>`, `&`, U+2028 and U+2029 as `\uXXXX`.
    Html,
}

/// Largest output `escape_str` can produce for an input of `len` bytes, quotes included.
pub const fn max_escaped_len(len: usize) -> usize {
    len * 6 + 2
}

/// Appends `s` to `out` as a quoted JSON string escaped per `mode`.
pub fn escape_str(s: &str, mode: EscapeMode, out: &mut Vec<u8>) {
    let _ = (s, mode, out);
    unimplemented!()
}

/// Writes `s` quoted and escaped per `mode` into `out` (at least `max_escaped_len(s.len())`
/// long); returns bytes written.
pub fn escape_into(s: &str, mode: EscapeMode, out: &mut [u8]) -> usize {
    let _ = (s, mode, out);
    unimplemented!()
}
