//! RFC 6901 JSON Pointer text: its reference tokens, `~0` / `~1` read and written, and the
//! tokens that are array indices. Every pointer the crate reads or writes (schema
//! references, `Value::pointer`, lazy and decoded-document paths, projections, the
//! `json-pointer` format) goes through these functions.

use std::borrow::Cow;
use std::str::Split;

/// The reference tokens of `pointer` as written (still escaped): none for `""`, the whole
/// document. `None` when a non-empty pointer does not start with `/`.
pub(crate) fn raw_tokens(pointer: &str) -> Option<Split<'_, char>> {
    let mut split = pointer.split('/');
    (split.next() == Some("")).then_some(split)
}

/// The unescaped reference tokens of `pointer`; `None` when it is not a JSON Pointer (no
/// leading `/`, or a `~` other than `~0` / `~1`).
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    raw_tokens(pointer)?
        .map(|token| unescape(token).map(Cow::into_owned))
        .collect()
}

/// A reference token with `~1` read as `/` and `~0` as `~`; `None` for any other `~`
/// sequence.
pub(crate) fn unescape(token: &str) -> Option<Cow<'_, str>> {
    if !token.contains('~') {
        return Some(token.into());
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        match c {
            '~' => match chars.next()? {
                '0' => out.push('~'),
                '1' => out.push('/'),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    Some(out.into())
}

/// `key` as a reference token: `~` written `~0`, `/` written `~1`.
pub(crate) fn escape(key: &str) -> Cow<'_, str> {
    if !key.contains(['~', '/']) {
        return key.into();
    }
    let mut out = String::with_capacity(key.len() + 2);
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out.into()
}

/// The array index a reference token names: `0`, or digits without a leading zero (`01`,
/// `-` and `+1` name none).
pub(crate) fn index(token: &str) -> Option<usize> {
    let digits_only = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits_only || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_pointers_and_non_pointers() {
        assert_eq!(tokens(""), Some(vec![]));
        assert_eq!(tokens("/"), Some(vec![String::new()]));
        assert_eq!(
            tokens("/a~1b/~0/0//c"),
            Some(vec![
                "a/b".into(),
                "~".into(),
                "0".into(),
                String::new(),
                "c".into()
            ])
        );
        assert_eq!(tokens("a/b"), None);
        assert_eq!(tokens("/a~2"), None);
        assert_eq!(tokens("/a~"), None);
    }

    #[test]
    fn escape_is_unescape_reversed() {
        for key in ["", "plain", "a/b", "~", "~1", "/~/", "é/ü"] {
            let escaped = escape(key);
            assert!(!escaped.contains('/'), "{escaped}");
            assert_eq!(unescape(&escaped).as_deref(), Some(key));
        }
        assert_eq!(escape("a/b~c"), "a~1b~0c");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn indices() {
        assert_eq!(index("0"), Some(0));
        assert_eq!(index("10"), Some(10));
        for token in ["", "01", "-", "+1", "1a", " 1", "99999999999999999999999"] {
            assert_eq!(index(token), None, "{token:?}");
        }
    }
}
