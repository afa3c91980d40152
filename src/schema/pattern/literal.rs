//! Patterns that are a plain text with or without anchors (`^x-`, `_id$`, `^é$`, `@`):
//! matched by comparing text, without the regex engine's per-call setup. Common as
//! `patternProperties` names (extension prefixes, suffixes).
//!
//! Only texts of characters that are literals wherever they stand are taken: letters and
//! digits of any script, and a few ASCII symbols that are no metacharacter of ECMA-262 or
//! `regex` outside a class. Matching is by code points, as both engines match (UTF-8 is
//! self-synchronising, so a byte search finds whole characters).

/// A literal pattern: its text and where the text must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Literal {
    /// `^text`: at the start.
    Prefix(Box<str>),
    /// `text$`: at the end.
    Suffix(Box<str>),
    /// `^text$`: the whole text.
    Exact(Box<str>),
    /// `text`: anywhere.
    Anywhere(Box<str>),
}

impl Literal {
    /// The literal of `source`, when it is one.
    pub(super) fn new(source: &str) -> Option<Literal> {
        let (start, rest) = match source.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, source),
        };
        let (end, text) = match rest.strip_suffix('$') {
            Some(text) => (true, text),
            None => (false, rest),
        };
        if !text.chars().all(plain) {
            return None;
        }
        let text = text.into();
        Some(match (start, end) {
            (true, true) => Literal::Exact(text),
            (true, false) => Literal::Prefix(text),
            (false, true) => Literal::Suffix(text),
            (false, false) => Literal::Anywhere(text),
        })
    }

    /// Whether the pattern matches `text`.
    pub(super) fn is_match(&self, text: &str) -> bool {
        match self {
            Literal::Prefix(p) => text.starts_with(&**p),
            Literal::Suffix(s) => text.ends_with(&**s),
            Literal::Exact(e) => text == &**e,
            Literal::Anywhere(a) => text.contains(&**a),
        }
    }
}

/// A character that stands for itself in a pattern, outside a class, in ECMA-262 and in
/// `regex` (whose `#` is a comment only in verbose mode, never set here; `&`, `~` and `-`
/// are operators only inside classes).
fn plain(c: char) -> bool {
    c.is_alphanumeric() || "-_ /:@#%&=,;<>'\"!~`".contains(c)
}
