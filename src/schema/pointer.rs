//! JSON Pointers (RFC 6901) into the schema document, and URI-fragment pointers in `$ref`.

use crate::json_pointer;

/// `pointer` extended by one reference token, escaped (`~` → `~0`, `/` → `~1`).
pub(crate) fn push(pointer: &str, token: &str) -> String {
    let escaped = json_pointer::escape(token);
    let mut out = String::with_capacity(pointer.len() + escaped.len() + 1);
    out.push_str(pointer);
    out.push('/');
    out.push_str(&escaped);
    out
}

/// The canonical pointer a URI fragment denotes: percent-decoded, then each token unescaped and
/// re-escaped. `None` when the fragment is not a valid JSON Pointer (`~2`, bad `%`, not UTF-8).
pub(crate) fn from_fragment(fragment: &str) -> Option<String> {
    let decoded = percent_decode(fragment)?;
    let mut out = String::new();
    for token in json_pointer::raw_tokens(&decoded)? {
        out = push(&out, &json_pointer::unescape(token)?);
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
