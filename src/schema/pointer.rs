//! JSON Pointers (RFC 6901) into the schema document, and URI-fragment pointers in `$ref`.

/// `pointer` extended by one reference token, escaped (`~` → `~0`, `/` → `~1`).
pub(crate) fn push(pointer: &str, token: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + token.len() + 1);
    out.push_str(pointer);
    out.push('/');
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The canonical pointer a URI fragment denotes: percent-decoded, then each token unescaped and
/// re-escaped. `None` when the fragment is not a valid JSON Pointer (`~2`, bad `%`, not UTF-8).
pub(crate) fn from_fragment(fragment: &str) -> Option<String> {
    let decoded = percent_decode(fragment)?;
    let mut tokens = decoded.split('/');
    if tokens.next() != Some("") {
        return None;
    }
    let mut out = String::new();
    for token in tokens {
        out = push(&out, &unescape(token)?);
    }
    Some(out)
}

/// The unescaped reference tokens of a JSON Pointer (`""` is the whole document); `None`
/// when it does not start with `/` or has a `~` other than `~0` / `~1`.
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape).collect()
}

/// A reference token with `~1` → `/` and `~0` → `~`; `None` for any other `~` sequence.
fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// `%XX` sequences decoded; `None` when one is malformed or the result is not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trip() {
        assert_eq!(push("", "a/b~c"), "/a~1b~0c");
        assert_eq!(
            from_fragment("/$defs/tilde~0field").as_deref(),
            Some("/$defs/tilde~0field")
        );
        assert_eq!(
            from_fragment("/$defs/percent%25field").as_deref(),
            Some("/$defs/percent%field")
        );
        assert_eq!(
            from_fragment("/$defs/foo%22bar").as_deref(),
            Some("/$defs/foo\"bar")
        );
        assert_eq!(
            from_fragment("/$defs//$defs/").as_deref(),
            Some("/$defs//$defs/")
        );
        assert_eq!(from_fragment("").as_deref(), Some(""));
        assert_eq!(from_fragment("/a~2"), None);
        assert_eq!(from_fragment("/a%zz"), None);
        assert_eq!(from_fragment("a"), None);
    }
}
