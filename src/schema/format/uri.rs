//! URIs (RFC 3986), IRIs (RFC 3987) and URI templates (RFC 6570): `uri`, `uri-reference`,
//! `iri`, `iri-reference`, `uri-template`.

use std::net::Ipv6Addr;

use crate::schema::uri::Parts;

/// Which characters stand for themselves: a URI's ASCII ones, or an IRI's, which adds
/// `ucschar` everywhere but the scheme and `iprivate` in the query.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Chars {
    /// RFC 3986.
    Ascii,
    /// RFC 3987.
    Unicode,
}

/// `unreserved`: letters, digits, `-._~`.
fn unreserved(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')
}

/// `sub-delims`: ``!$&'()*+,;=``.
fn sub_delim(c: char) -> bool {
    matches!(
        c,
        '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';' | '='
    )
}

/// RFC 3987 `ucschar`: the non-ASCII characters an IRI may hold in place of their
/// percent-encoded UTF-8.
fn ucschar(c: char) -> bool {
    let c = u32::from(c);
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x10000..=0xEFFFD).contains(&c) && (c & 0xFFFF) <= 0xFFFD
}

/// RFC 3987 `iprivate`: private-use characters, allowed in an IRI's query only.
fn iprivate(c: char) -> bool {
    matches!(u32::from(c), 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// Whether every character of `text` is `pct-encoded`, or one that `plain` (or, for an
/// IRI, `ucschar`) admits.
fn all(text: &str, chars: Chars, plain: impl Fn(char) -> bool) -> bool {
    let mut it = text.chars();
    while let Some(c) = it.next() {
        let ok = match c {
            '%' => {
                it.next().is_some_and(|h| h.is_ascii_hexdigit())
                    && it.next().is_some_and(|h| h.is_ascii_hexdigit())
            }
            _ => plain(c) || chars == Chars::Unicode && ucschar(c),
        };
        if !ok {
            return false;
        }
    }
    true
}

/// `pchar` without the percent encoding: unreserved, sub-delims, `:`, `@`.
fn pchar(c: char) -> bool {
    unreserved(c) || sub_delim(c) || matches!(c, ':' | '@')
}

/// RFC 3986 `URI` (RFC 3987 `IRI`): a scheme, `:`, the hierarchical part, then an
/// optional query and fragment.
pub(super) fn is_uri(text: &str, chars: Chars) -> bool {
    let parts = Parts::parse(text);
    parts.scheme.is_some() && is_reference(&parts, chars)
}

/// RFC 3986 `URI-reference` (RFC 3987 `IRI-reference`): a URI or a relative reference.
pub(super) fn is_uri_reference(text: &str, chars: Chars) -> bool {
    is_reference(&Parts::parse(text), chars)
}

/// Whether `parts` make a URI, or a relative reference (whose first path segment then
/// holds no `:`).
fn is_reference(parts: &Parts<'_>, chars: Chars) -> bool {
    let tail = |c: char| pchar(c) || matches!(c, '/' | '?');
    let fragment_ok = parts.fragment.is_none_or(|f| all(f, chars, tail));
    let query_ok = (parts.query).is_none_or(|q| {
        all(q, chars, |c| {
            tail(c) || chars == Chars::Unicode && iprivate(c)
        })
    });
    // Without a scheme, a `:` in the first segment (`bar,baz:foo`) makes no reference.
    let relative_ok = parts.scheme.is_some()
        || parts.authority.is_some()
        || !parts
            .path
            .split('/')
            .next()
            .is_some_and(|s| s.contains(':'));
    let authority_ok = parts.authority.is_none_or(|a| is_authority(a, chars));
    fragment_ok && query_ok && relative_ok && authority_ok && is_path(parts.path, chars)
}

/// A path: segments of `pchar`, joined by `/`.
fn is_path(path: &str, chars: Chars) -> bool {
    all(path, chars, |c| pchar(c) || c == '/')
}

/// `authority`: `[userinfo@]host[:port]`.
fn is_authority(authority: &str, chars: Chars) -> bool {
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    let userinfo_ok =
        userinfo.is_none_or(|u| all(u, chars, |c| unreserved(c) || sub_delim(c) || c == ':'));
    let (host, port) = match host_port.strip_prefix('[') {
        Some(literal) => match literal.split_once(']') {
            Some((inside, after)) if is_ip_literal(inside) => ("", after),
            _ => return false,
        },
        None => match host_port.split_once(':') {
            Some((host, _)) => (host, &host_port[host.len()..]),
            None => (host_port, ""),
        },
    };
    // The host: an IPv4 address is also a `reg-name`, so it needs no case of its own.
    let host_ok = all(host, chars, |c| unreserved(c) || sub_delim(c));
    let port_ok = match port.strip_prefix(':') {
        Some(digits) => digits.bytes().all(|c| c.is_ascii_digit()),
        None => port.is_empty(),
    };
    userinfo_ok && host_ok && port_ok
}

/// The inside of an `IP-literal`: an IPv6 address, or `IPvFuture` (`v`, hexadecimal
/// digits, `.`, then unreserved, sub-delims and `:`).
fn is_ip_literal(inside: &str) -> bool {
    if let Some(future) = inside.strip_prefix(['v', 'V']) {
        return match future.split_once('.') {
            Some((version, rest)) => {
                !version.is_empty()
                    && version.bytes().all(|c| c.is_ascii_hexdigit())
                    && !rest.is_empty()
                    && rest
                        .chars()
                        .all(|c| unreserved(c) || sub_delim(c) || c == ':')
            }
            None => false,
        };
    }
    inside.parse::<Ipv6Addr>().is_ok()
}

/// RFC 6570 `URI-Template`: literals (any character but controls, space, ``"'%<>\^`{|}``,
/// or a percent encoding) and expressions `{[operator]varspec,...}`, each `varspec` a
/// variable name (letters, digits, `_` and percent encodings, single dots between them)
/// with an optional `:length` (1–9999) or `*`.
pub(super) fn is_uri_template(text: &str) -> bool {
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(open) => {
                let Some(close) = rest[open..].find('}') else {
                    return false;
                };
                if !is_literals(&rest[..open]) || !is_expression(&rest[open + 1..open + close]) {
                    return false;
                }
                rest = &rest[open + close + 1..];
            }
            None => return is_literals(rest),
        }
    }
    true
}

/// Template literals (see [`is_uri_template`]).
fn is_literals(text: &str) -> bool {
    all(text, Chars::Unicode, |c| {
        !(c.is_control()
            || matches!(
                c,
                ' ' | '"' | '\'' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}'
            ))
            && (c.is_ascii() || iprivate(c))
    })
}

/// The inside of a template expression (see [`is_uri_template`]).
fn is_expression(inside: &str) -> bool {
    let list = inside
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
        .unwrap_or(inside);
    !list.is_empty() && list.split(',').all(is_varspec)
}

/// `varspec`: a variable name and an optional modifier.
fn is_varspec(spec: &str) -> bool {
    let (name, modifier) = match spec.find([':', '*']) {
        Some(at) => spec.split_at(at),
        None => (spec, ""),
    };
    let name_ok = !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty()
                && all(part, Chars::Ascii, |c| {
                    c.is_ascii_alphanumeric() || c == '_'
                })
        });
    let modifier_ok = match modifier.strip_prefix(':') {
        Some(length) => {
            (1..=4).contains(&length.len())
                && !length.starts_with('0')
                && length.bytes().all(|c| c.is_ascii_digit())
        }
        None => modifier.is_empty() || modifier == "*",
    };
    name_ok && modifier_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(t: &str) -> bool {
        is_uri(t, Chars::Ascii)
    }

    #[test]
    fn uris() {
        assert!(uri("http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com"));
        assert!(uri("ldap://[2001:db8::7]/c=GB?objectClass?one"));
        assert!(uri("urn:oasis:names:specification:docbook:dtd:xml:4.1.2"));
        assert!(uri("http://foo.bar/?baz=qux#quux"));
        assert!(uri("http://example.com:8080"));
        assert!(uri("http://[v1.fe80::a+en1]/"));
        assert!(!uri("//foo.bar/?baz=qux#quux"));
        assert!(!uri("abc"));
        assert!(!uri("http:// shouldfail.com"));
        assert!(!uri("bar,baz:foo"));
        assert!(!uri("http://2001:0db8:85a3:0000:0000:8a2e:0370:7334"));
        assert!(!uri("http://example.com/%zz"));
        assert!(!uri("http://[::1/"));
        assert!(!uri("http://a@b@c/"));
    }

    #[test]
    fn references_and_iris() {
        assert!(is_uri_reference("#fragment", Chars::Ascii));
        assert!(is_uri_reference("abc", Chars::Ascii));
        assert!(is_uri_reference("", Chars::Ascii));
        assert!(!is_uri_reference("#frag\\ment", Chars::Ascii));
        assert!(is_uri_reference("a:b/c:d", Chars::Ascii));
        assert!(is_uri_reference("./a:b", Chars::Ascii));
        assert!(!is_uri_reference("1a:b", Chars::Ascii));
        assert!(!is_uri_reference("âππ", Chars::Ascii));
        assert!(is_uri_reference("âππ", Chars::Unicode));
        assert!(!is_uri("âππ", Chars::Unicode));
        assert!(is_uri("http://ƒøø.ßår/?∂éœ=πîx#πîüx", Chars::Unicode));
        assert!(is_uri("http://x/?\u{E000}", Chars::Unicode));
        assert!(!is_uri("http://x/\u{E000}", Chars::Unicode));
    }

    #[test]
    fn templates() {
        assert!(is_uri_template(
            "http://example.com/dictionary/{term:1}/{term}"
        ));
        assert!(is_uri_template("{+path}/here{?x,y*}{&a.b}"));
        assert!(!is_uri_template(
            "http://example.com/dictionary/{term:1}/{term"
        ));
        assert!(!is_uri_template("{}"));
        assert!(!is_uri_template("{a:0}"));
        assert!(!is_uri_template("{a:10000}"));
        assert!(!is_uri_template("a}b"));
        assert!(!is_uri_template("a b"));
    }
}
