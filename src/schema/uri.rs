//! URI-reference resolution (RFC 3986 §5.2), enough for `$id` and `$ref` within one document.

/// The five components of a URI reference (RFC 3986 appendix B).
pub(crate) struct Parts<'a> {
    pub(crate) scheme: Option<&'a str>,
    pub(crate) authority: Option<&'a str>,
    pub(crate) path: &'a str,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

impl<'a> Parts<'a> {
    /// The components of `text`, split by appendix B's rules (nothing is checked).
    pub(crate) fn parse(text: &'a str) -> Parts<'a> {
        let (rest, fragment) = match text.split_once('#') {
            Some((r, f)) => (r, Some(f)),
            None => (text, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((r, q)) => (r, Some(q)),
            None => (rest, None),
        };
        let (scheme, rest) = match rest.find(':') {
            Some(i) if is_scheme(&rest[..i]) => (Some(&rest[..i]), &rest[i + 1..]),
            _ => (None, rest),
        };
        let (authority, path) = match rest.strip_prefix("//") {
            Some(after) => {
                let end = after.find('/').unwrap_or(after.len());
                (Some(&after[..end]), &after[end..])
            }
            None => (None, rest),
        };
        Parts {
            scheme,
            authority,
            path,
            query,
            fragment,
        }
    }

    fn recompose(&self, path: &str) -> String {
        let mut out = String::new();
        if let Some(s) = self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(a) = self.authority {
            out.push_str("//");
            out.push_str(a);
        }
        out.push_str(path);
        if let Some(q) = self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = self.fragment {
            out.push('#');
            out.push_str(f);
        }
        out
    }
}

/// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `reference` resolved against `base` (RFC 3986 §5.2.2). An empty base (a document without
/// `$id`) works too: relative references then stay relative, consistently for `$id` and `$ref`.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = Parts::parse(reference);
    let b = Parts::parse(base);
    let merged;
    let (scheme, authority, path, query) = if r.scheme.is_some() {
        (r.scheme, r.authority, remove_dot_segments(r.path), r.query)
    } else if r.authority.is_some() {
        (b.scheme, r.authority, remove_dot_segments(r.path), r.query)
    } else if r.path.is_empty() {
        (
            b.scheme,
            b.authority,
            b.path.to_owned(),
            r.query.or(b.query),
        )
    } else if r.path.starts_with('/') {
        (b.scheme, b.authority, remove_dot_segments(r.path), r.query)
    } else {
        merged = if b.authority.is_some() && b.path.is_empty() {
            format!("/{}", r.path)
        } else {
            match b.path.rfind('/') {
                Some(i) => format!("{}{}", &b.path[..=i], r.path),
                None => r.path.to_owned(),
            }
        };
        (b.scheme, b.authority, remove_dot_segments(&merged), r.query)
    };
    Parts {
        scheme,
        authority,
        path: "",
        query,
        fragment: r.fragment,
    }
    .recompose(&path)
}

/// The URI without its fragment, and the fragment (`None` when there is no `#`).
pub(crate) fn split_fragment(uri: &str) -> (&str, Option<&str>) {
    match uri.split_once('#') {
        Some((u, f)) => (u, Some(f)),
        None => (uri, None),
    }
}

/// RFC 3986 §5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    while !input.is_empty() {
        if let Some(rest) = input
            .strip_prefix("../")
            .or_else(|| input.strip_prefix("./"))
        {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." { "/" } else { &input[3..] };
            output.pop();
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            output.push(&input[start..end]);
            input = &input[end..];
        }
    }
    let mut out = output.join("/");
    if absolute {
        out.insert(0, '/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("urn:x:y", "urn:x:y"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
    }

    #[test]
    fn document_bases() {
        assert_eq!(resolve("", "#/a"), "#/a");
        assert_eq!(resolve("", "node"), "node");
        assert_eq!(
            resolve("urn:uuid:1234", "#/$defs/x"),
            "urn:uuid:1234#/$defs/x"
        );
        assert_eq!(
            resolve("urn:example:weather?=op=map", "#/$defs/bar"),
            "urn:example:weather?=op=map#/$defs/bar"
        );
        assert_eq!(
            resolve("file:///c:/folder/file.json", "#/x"),
            "file:///c:/folder/file.json#/x"
        );
        assert_eq!(
            resolve("http://example.com/ref/absref.json", "/absref/foobar.json"),
            "http://example.com/absref/foobar.json"
        );
        assert_eq!(split_fragment("a#b"), ("a", Some("b")));
        assert_eq!(split_fragment("a"), ("a", None));
    }
}
