//! Host names, IP addresses and e-mail addresses (`hostname`, `ipv4`, `ipv6`, `email`).

use std::net::{Ipv4Addr, Ipv6Addr};

/// Dotted decimal: four numbers 0–255 without leading zeros (std's reading).
pub(super) fn is_ipv4(text: &str) -> bool {
    text.parse::<Ipv4Addr>().is_ok()
}

/// RFC 4291 section 2.2 (std's reading: no zone, no prefix length).
pub(super) fn is_ipv6(text: &str) -> bool {
    text.parse::<Ipv6Addr>().is_ok()
}

/// RFC 1123 section 2.1: labels of letters, digits and hyphens, 1 to 63 bytes, neither
/// first nor last a hyphen, joined by dots; at most 253 bytes in all. A label with `--` in
/// its third and fourth places must be an A-label (see [`is_a_label`]).
pub(super) fn is_hostname(text: &str) -> bool {
    text.len() <= 253 && text.split('.').all(is_label)
}

/// One host name label (see [`is_hostname`]).
fn is_label(label: &str) -> bool {
    let b = label.as_bytes();
    (1..=63).contains(&b.len())
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
        && (b.get(2..4) != Some(b"--") || is_a_label(label))
}

/// RFC 5890 section 2.3.2.1 and RFC 5891 section 4.2.3.1, without IDNA2008's code point
/// tables: `xn--` (either case), then Punycode that decodes to a label neither starting
/// nor ending with a hyphen, without `--` in its third and fourth places. (It holds a
/// non-ASCII character: Punycode without one ends with the `-` a label may not end with.)
fn is_a_label(label: &str) -> bool {
    let (prefix, encoded) = label.split_at(4);
    if !prefix.eq_ignore_ascii_case("xn--") {
        return false;
    }
    let Some(u) = super::punycode::decode(encoded) else {
        return false;
    };
    u.first() != Some(&'-') && u.last() != Some(&'-') && u.get(2..4) != Some(&['-', '-'][..])
}

/// RFC 5321 section 4.1.2 `Mailbox`: a local part (a dot-string of atoms, or a quoted
/// string), `@`, then a host name or an address literal (`[IPv4]`, `[IPv6:...]`).
pub(super) fn is_email(text: &str) -> bool {
    let Some(at) = text.rfind('@') else {
        return false;
    };
    let (local, domain) = (&text[..at], &text[at + 1..]);
    let local_ok = match local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        Some(quoted) => is_quoted_content(quoted),
        None => !local.is_empty() && local.split('.').all(is_atom),
    };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => is_ipv6(v6),
            None => is_ipv4(literal),
        },
        None => is_hostname(domain),
    };
    local_ok && domain_ok
}

/// `Atom`: one or more `atext` bytes (letters, digits, ``!#$%&'*+-/=?^_`{|}~``).
fn is_atom(atom: &str) -> bool {
    !atom.is_empty()
        && atom
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c))
}

/// The inside of a `Quoted-string`: printable ASCII and spaces, where `"` and `\` only
/// come escaped (`\` then any printable ASCII byte or space).
fn is_quoted_content(text: &str) -> bool {
    let mut bytes = text.bytes();
    while let Some(c) = bytes.next() {
        let ok = match c {
            b'\\' => bytes.next().is_some_and(|e| (b' '..=b'~').contains(&e)),
            b'"' => false,
            _ => (b' '..=b'~').contains(&c),
        };
        if !ok {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert!(is_ipv4("87.10.0.1"));
        assert!(!is_ipv4("087.10.0.1"));
        assert!(!is_ipv4("0x7f000001"));
        assert!(is_ipv6("1:2::192.168.0.1"));
        assert!(!is_ipv6("fe80::a%eth1"));
        assert!(!is_ipv6("1:2:3:4:1.2.3"));
    }

    #[test]
    fn host_names() {
        assert!(is_hostname("xn--4gbwdl.xn--wgbh1c"));
        assert!(is_hostname(&format!("{}.com", "a".repeat(63))));
        assert!(!is_hostname(&format!("{}.com", "a".repeat(64))));
        assert!(!is_hostname("host_name"));
        assert!(!is_hostname("-a"));
        assert!(!is_hostname(""));
        assert!(!is_hostname("."));
        assert!(!is_hostname("a..b"));
        // Labels with `--` in their third and fourth places must be A-labels.
        assert!(is_hostname("xn--ihqwcrb4cv8a8dqg056pqjye.test"));
        assert!(is_hostname("XN--bcher-kva"));
        assert!(!is_hostname("ab--c"));
        assert!(!is_hostname("xn--X"));
        assert!(
            !is_hostname("xn--aa---o47jg78q"),
            "decodes with -- in places 3 and 4"
        );
        assert!(
            !is_hostname("xn--4gbwdltxn--wgbh1c"),
            "decodes to a label ending in -"
        );
        let long = ["a".repeat(63).as_str(); 4].join(".");
        assert_eq!(long.len(), 255);
        assert!(!is_hostname(&long));
    }

    #[test]
    fn mailboxes() {
        assert!(is_email("te.s.t@example.com"));
        assert!(is_email("\"joe@bloggs\"@example.com"));
        assert!(is_email("\"joe\\\"b\"@example.com"));
        assert!(is_email("joe.bloggs@[IPv6:::1]"));
        assert!(!is_email("joe.bloggs@[127.0.0.300]"));
        assert!(!is_email("te..st@example.com"));
        assert!(!is_email(".test@example.com"));
        assert!(!is_email("2962"));
        assert!(!is_email("a\"b\"@example.com"));
        assert!(!is_email("\"a\"b\"@example.com"));
        assert!(!is_email("joe@invalid=domain.com"));
    }
}
