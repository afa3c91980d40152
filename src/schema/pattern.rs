//! `pattern`: ECMA-262 regular expressions, compiled with the `regex` crate at load time.
//!
//! The `regex` crate implements the common subset of ECMA-262 syntax. Differences:
//! - `\d`, `\D`, `\w`, `\W` are rewritten to their ASCII classes, as ECMA-262 defines them
//!   (`regex` would use the Unicode classes);
//! - `\b`, `\B` and `\s` keep `regex`'s Unicode meaning (ECMA-262: ASCII word boundary, and a
//!   whitespace set that differs in a few code points, e.g. U+FEFF);
//! - look-around and backreferences are not supported: such a pattern is a load error;
//! - `\p{…}` Unicode properties work as in ECMA-262's `u` mode.
//!
//! Matching is a search anywhere in the string (patterns are not implicitly anchored).

use crate::schema::{SchemaError, SchemaErrorKind};
use regex::Regex;
use std::fmt;

/// A compiled `pattern`. Equality and hashing use the pattern's source text.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    regex: Regex,
}

impl Pattern {
    /// Compiles an ECMA-262 pattern; an unsupported or malformed pattern is an
    /// [`SchemaErrorKind::InvalidPattern`] error (at the root pointer: loaders re-point it).
    pub fn new(source: &str) -> Result<Pattern, SchemaError> {
        match Regex::new(&translate(source)) {
            Ok(regex) => Ok(Pattern {
                source: source.to_owned(),
                regex,
            }),
            Err(e) => Err(SchemaError::new(
                SchemaErrorKind::InvalidPattern {
                    pattern: source.to_owned(),
                    message: e.to_string(),
                },
                String::new(),
            )),
        }
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// Rewrites the ECMA-262 escapes whose meaning differs in `regex`. The bracketed forms work
/// both outside and inside a character class (`regex` nests classes).
fn translate(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ecma_classes_are_ascii() {
        let p = Pattern::new(r"^\d+$").unwrap();
        assert!(p.is_match("123"));
        assert!(!p.is_match("١٢٣")); // Arabic-Indic digits: Unicode \d, not ECMA \d
        let p = Pattern::new(r"^[\w.]+$").unwrap();
        assert!(p.is_match("a_b.c"));
        assert!(!p.is_match("é"));
        let p = Pattern::new(r"^[\w.-]+@[\w-]+$").unwrap();
        assert!(p.is_match("a.b-c@x-y"));
        assert!(!p.is_match("ä@x"));
        let p = Pattern::new(r"^\\d$").unwrap();
        assert!(p.is_match(r"\d"));
    }

    #[test]
    fn unicode_properties_and_search() {
        let p = Pattern::new(r"^\p{Letter}+$").unwrap();
        assert!(p.is_match("π"));
        assert!(Pattern::new("a+").unwrap().is_match("xxaayy"));
    }

    #[test]
    fn lookaround_is_rejected() {
        let e = Pattern::new("a(?=b)").unwrap_err();
        assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));
    }
}
