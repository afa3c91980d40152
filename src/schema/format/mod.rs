//! `format` as an assertion: the string formats of JSON Schema draft 2020-12 that the engine
//! checks when a [`Loader`](crate::schema::Loader) is told to
//! ([`Loader::assert_formats`](crate::schema::Loader::assert_formats)). By default `format`
//! is an annotation, as the draft has it.
//!
//! Each check follows the grammar of the RFC the draft names for its format (limits in
//! `docs/json-schema.md`):
//! dates and times ([`time`]), host names, addresses and e-mail ([`net`]), URIs, IRIs and
//! URI templates ([`uri`]); JSON Pointers, relative JSON Pointers, UUIDs and ECMA-262
//! regular expressions here.

mod net;
mod punycode;
mod time;
mod uri;

use std::fmt;

use crate::json_pointer;
use crate::schema::pattern::is_unicode_regex;

/// A string format the engine can assert.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// `date-time`: RFC 3339 `date-time` (leap seconds only at 23:59:60 UTC).
    DateTime,
    /// `date`: RFC 3339 `full-date`.
    Date,
    /// `time`: RFC 3339 `full-time` (with its offset).
    Time,
    /// `duration`: RFC 3339 appendix A `duration`.
    Duration,
    /// `email`: RFC 5321 `Mailbox` (dot-atom or quoted local part; a host name or an IPv4 or
    /// IPv6 address literal).
    Email,
    /// `hostname`: RFC 1123 host name (letters, digits and hyphens; labels of 1 to 63 bytes,
    /// neither starting nor ending with a hyphen; at most 253 bytes).
    Hostname,
    /// `ipv4`: dotted decimal, no leading zeros (RFC 2673 `dotted-quad`).
    Ipv4,
    /// `ipv6`: RFC 4291 text form (no zone, no prefix length).
    Ipv6,
    /// `uri`: RFC 3986 `URI` (with a scheme).
    Uri,
    /// `uri-reference`: RFC 3986 `URI-reference`.
    UriReference,
    /// `iri`: RFC 3987 `IRI`.
    Iri,
    /// `iri-reference`: RFC 3987 `IRI-reference`.
    IriReference,
    /// `uri-template`: RFC 6570 `URI-Template`.
    UriTemplate,
    /// `uuid`: RFC 4122 string form (hexadecimal digits of either case, four hyphens).
    Uuid,
    /// `json-pointer`: RFC 6901 JSON Pointer.
    JsonPointer,
    /// `relative-json-pointer`: a non-negative integer, then `#` or a JSON Pointer.
    RelativeJsonPointer,
    /// `regex`: an ECMA-262 regular expression under the `u` flag, as `pattern` takes it
    /// (without a `]`, `{` or `}` that stands for itself).
    Regex,
}

/// What the draft's format name means to the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// A format the engine checks.
    Checked(Format),
    /// A format the draft defines that the engine cannot check (IDNA2008 host names and the
    /// e-mail addresses built on them): refused when formats are asserted.
    Unchecked,
    /// A name the draft does not define (`int32`, a typo): an annotation either way.
    Unknown,
}

impl Format {
    /// Every checked format.
    pub const ALL: &'static [Format] = &[
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::Hostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uri,
        Format::UriReference,
        Format::Iri,
        Format::IriReference,
        Format::UriTemplate,
        Format::Uuid,
        Format::JsonPointer,
        Format::RelativeJsonPointer,
        Format::Regex,
    ];

    /// The format's name in a schema.
    pub fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Duration => "duration",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Iri => "iri",
            Format::IriReference => "iri-reference",
            Format::UriTemplate => "uri-template",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
        }
    }

    /// The checked format named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// What `name` means to the engine.
    pub(crate) fn known(name: &str) -> Known {
        match Format::from_name(name) {
            Some(f) => Known::Checked(f),
            None if matches!(name, "idn-email" | "idn-hostname") => Known::Unchecked,
            None => Known::Unknown,
        }
    }

    /// Whether `text` is of this format.
    pub fn is_valid(self, text: &str) -> bool {
        match self {
            Format::DateTime => time::is_date_time(text),
            Format::Date => time::is_date(text),
            Format::Time => time::is_time(text),
            Format::Duration => time::is_duration(text),
            Format::Email => net::is_email(text),
            Format::Hostname => net::is_hostname(text),
            Format::Ipv4 => net::is_ipv4(text),
            Format::Ipv6 => net::is_ipv6(text),
            Format::Uri => uri::is_uri(text, uri::Chars::Ascii),
            Format::UriReference => uri::is_uri_reference(text, uri::Chars::Ascii),
            Format::Iri => uri::is_uri(text, uri::Chars::Unicode),
            Format::IriReference => uri::is_uri_reference(text, uri::Chars::Unicode),
            Format::UriTemplate => uri::is_uri_template(text),
            Format::Uuid => is_uuid(text),
            Format::JsonPointer => is_json_pointer(text),
            Format::RelativeJsonPointer => is_relative_json_pointer(text),
            Format::Regex => is_unicode_regex(text),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, &c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// Empty, or `/` tokens in which every `~` is `~0` or `~1`: what the loader reads as a
/// JSON Pointer.
fn is_json_pointer(text: &str) -> bool {
    json_pointer::raw_tokens(text)
        .is_some_and(|mut tokens| tokens.all(|token| json_pointer::unescape(token).is_some()))
}

/// `0` or a digit run without a leading zero, then `#` or a JSON Pointer.
fn is_relative_json_pointer(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, rest) = text.split_at(digits);
    let number_ok = number == "0" || (!number.is_empty() && !number.starts_with('0'));
    number_ok && (rest == "#" || is_json_pointer(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(Format::known(f.name()), Known::Checked(f));
        }
        assert_eq!(Format::known("idn-hostname"), Known::Unchecked);
        assert_eq!(Format::known("int32"), Known::Unknown);
    }

    #[test]
    fn uuids() {
        assert!(is_uuid("2eb8aa08-AA98-11ea-B4Aa-73B441D16380"));
        assert!(!is_uuid("2eb8aa08-aa98-11ea-b4ga-73b441d16380"));
        assert!(!is_uuid("2eb8aa08aa9811eab4aa73b441d16380----"));
    }

    #[test]
    fn pointers() {
        assert!(is_json_pointer(""));
        assert!(is_json_pointer("/~1~0~0~1~1"));
        assert!(!is_json_pointer("/~0~"));
        assert!(!is_json_pointer("#/"));
        assert!(is_relative_json_pointer("0#"));
        assert!(is_relative_json_pointer("120/foo/bar"));
        assert!(!is_relative_json_pointer("01/a"));
        assert!(!is_relative_json_pointer("0##"));
        assert!(!is_relative_json_pointer(""));
    }
}
