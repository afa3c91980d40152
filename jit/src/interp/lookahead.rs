//! The look-ahead of [`Op::Discriminate`](crate::ir::Op::Discriminate): the discriminating
//! property's value in the object at the cursor, found without consuming anything. The
//! interpreter runs it, and native code's value-op helper calls it directly (no machine).

use jitson_kernels::string_scan::{self, stands_for_itself};
use jitson_kernels::{unescape, whitespace};

use super::machine::skip_checked;
use crate::ir::{BigInts, Discriminator};

/// Where a look-ahead leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    /// The property holds tag `i`.
    Branch(usize),
    /// The property holds another value.
    Unmatched,
    /// Not an object, or a syntax error while looking (without a property: an empty object).
    Absent,
    /// A well-formed object, read to its end, without the property.
    Missing,
}

#[cfg(feature = "native")]
impl Tag {
    /// The index of the label taken among a `Discriminate`'s `targets` (`targets` long):
    /// `targets` for `unmatched`, one more for `absent`, two more for `missing`.
    pub(crate) fn label_index(self, targets: usize) -> usize {
        match self {
            Tag::Branch(i) => i,
            Tag::Unmatched => targets,
            Tag::Absent => targets + 1,
            Tag::Missing => targets + 2,
        }
    }
}

/// What a look-ahead needs beyond the input: how deep it may skip values (the containers
/// the run may still open), the big-integer policy skipped numbers are checked by, and a
/// buffer for escaped names and tags.
pub(crate) struct Limits<'s> {
    /// Containers a skipped value may still open.
    pub depth_left: usize,
    /// The run's policy for integers beyond 64 bits.
    pub big_ints: BigInts,
    /// Unescaped text of a name or tag with escapes.
    pub text: &'s mut Vec<u8>,
}

/// The tag of the object at `pos` (whitespace first): the first member named `d.property`,
/// whose string value (unescaped) is tag `i` of `d`, or without a property the first
/// member's name. Members before it are skipped as the interpreter skips values (checked,
/// and their numbers by `limits.big_ints`); any syntax error on the way is
/// [`Tag::Absent`], left to the branches to report; a well-formed object without the
/// property is [`Tag::Missing`].
pub(crate) fn find_tag(d: &Discriminator, input: &[u8], pos: usize, limits: Limits<'_>) -> Tag {
    look(d, input, pos, limits).unwrap_or(Tag::Absent)
}

fn look(d: &Discriminator, input: &[u8], pos: usize, limits: Limits<'_>) -> Option<Tag> {
    let mut pos = after_ws(input, pos);
    if *input.get(pos)? != b'{' {
        return None;
    }
    pos += 1;
    let Some(property) = d.property.as_deref() else {
        pos = after_ws(input, pos);
        if *input.get(pos)? != b'"' {
            return None;
        }
        let (name, _) = string(input, pos, limits.text)?;
        return Some(tag_of(d, name));
    };
    // A property that needs no escape is first compared as it stands.
    let plain = property.bytes().all(stands_for_itself);
    pos = after_ws(input, pos);
    if *input.get(pos)? == b'}' {
        return Some(Tag::Missing);
    }
    loop {
        if *input.get(pos)? != b'"' {
            return None;
        }
        let (is_property, end) = match plain
            .then(|| plain_at(input, pos, property.as_bytes()))
            .flatten()
        {
            Some(end) => (true, end),
            None => {
                let (name, end) = string(input, pos, limits.text)?;
                (name == property.as_bytes(), end)
            }
        };
        pos = after_ws(input, end);
        if *input.get(pos)? != b':' {
            return None;
        }
        pos += 1;
        if is_property {
            pos = after_ws(input, pos);
            if *input.get(pos)? != b'"' {
                return Some(Tag::Unmatched);
            }
            let (text, _) = string(input, pos, limits.text)?;
            return Some(tag_of(d, text));
        }
        let end = skip_checked(input, pos, limits.depth_left, limits.big_ints).ok()?;
        pos = after_ws(input, end);
        match *input.get(pos)? {
            b',' => pos = after_ws(input, pos + 1),
            b'}' => return Some(Tag::Missing),
            _ => return None,
        }
    }
}

/// The branch tag `text` selects.
fn tag_of(d: &Discriminator, text: &[u8]) -> Tag {
    d.tags
        .find(text)
        .map_or(Tag::Unmatched, |k| Tag::Branch(k as usize))
}

/// The cursor past whitespace at `pos`.
fn after_ws(input: &[u8], pos: usize) -> usize {
    match input.get(pos) {
        Some(&b) if b <= b' ' => whitespace::skip_whitespace(input, pos),
        _ => pos,
    }
}

/// The index past the string token at `pos` when it is `text` between quotes; `text`'s
/// bytes all [stand for themselves](stands_for_itself), so that token is a well-formed
/// string whose value is `text`.
fn plain_at(input: &[u8], pos: usize, text: &[u8]) -> Option<usize> {
    let end = pos + 1 + text.len();
    let token = input.get(pos..=end)?;
    (token[1..=text.len()] == *text && token[text.len() + 1] == b'"').then_some(end + 1)
}

/// The text of the string token at `pos` (unescaped into `text` when it has escapes) and
/// the index past it; `None` when it is not a well-formed string.
fn string<'t>(input: &'t [u8], pos: usize, text: &'t mut Vec<u8>) -> Option<(&'t [u8], usize)> {
    let scan = string_scan::scan_checked(input, pos + 1).ok()?;
    let body = &input[pos + 1..scan.end];
    if !scan.has_escapes {
        return Some((body, scan.end + 1));
    }
    text.clear();
    unescape::unescape(body, text, unescape::Surrogates::Strict).ok()?;
    Some((text.as_slice(), scan.end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::StrEnum;

    fn tag_of(input: &str, depth_left: usize, big_ints: BigInts) -> Tag {
        let d = Discriminator {
            property: Some("kind".into()),
            tags: StrEnum::new(vec!["circle".into(), "sq".into(), "é".into()]),
        };
        let mut text = Vec::new();
        let limits = Limits {
            depth_left,
            big_ints,
            text: &mut text,
        };
        find_tag(&d, input.as_bytes(), 0, limits)
    }

    fn tag(input: &str) -> Tag {
        tag_of(input, 128, BigInts::F64)
    }

    #[test]
    fn the_first_member_named_by_the_property_holds_the_tag() {
        assert_eq!(tag(r#"{"kind":"circle"}"#), Tag::Branch(0));
        assert_eq!(tag(" \n{ \"kind\" : \"sq\" , \"r\": 1}"), Tag::Branch(1));
        assert_eq!(
            tag(r#"{"r": [1, {"kind": "sq"}], "kind": "é"}"#),
            Tag::Branch(2)
        );
        assert_eq!(tag(r#"{"ki\u006ed": "\u0063ircle"}"#), Tag::Branch(0));
        assert_eq!(tag(r#"{"kind": "sq", "kind": "circle"}"#), Tag::Branch(1));
        // The property's own name compared in place must not take a longer one.
        assert_eq!(tag(r#"{"kinds": "sq", "kind": "circle"}"#), Tag::Branch(0));
    }

    #[test]
    fn other_values_are_unmatched() {
        for input in [
            r#"{"kind": "square"}"#,
            r#"{"kind": "circl"}"#,
            r#"{"kind": ""}"#,
            r#"{"kind": 5}"#,
            r#"{"kind": null, "x": "sq"}"#,
            r#"{"kind": {"kind": "sq"}}"#,
        ] {
            assert_eq!(tag(input), Tag::Unmatched, "{input}");
        }
    }

    #[test]
    fn no_object_or_bad_syntax_on_the_way_is_absent() {
        for input in [
            "",
            "[]",
            r#""kind""#,
            r#"{"r": 1 "kind": "sq"}"#,
            r#"{"r": tru, "kind": "sq"}"#,
            r#"{"r" 1, "kind": "sq"}"#,
            r#"{"kind" "sq"}"#,
            r#"{"kind": "sq"#,
            r#"{"kind": "\x"}"#,
            r#"{"k\ud800": 1, "kind": "sq"}"#,
            "{\"kind",
            "{\"r\": \"\u{1}\", \"kind\": \"sq\"}",
        ] {
            assert_eq!(tag(input), Tag::Absent, "{input:?}");
        }
    }

    #[test]
    fn a_whole_object_without_the_property_is_missing() {
        for input in [
            "{}",
            " { } ",
            r#"{"r": 1}"#,
            r#"{"r": [{"kind": "sq"}], "s": {}}"#,
        ] {
            assert_eq!(tag(input), Tag::Missing, "{input:?}");
        }
        // Only an object read to its end, well-formed on the way, is known to lack it.
        for input in [
            "{",
            r#"{"r": 1,}"#,
            r#"{"r": 1"#,
            r#"{"r": tru}"#,
            r#"{"r": 1 "s": 2}"#,
        ] {
            assert_eq!(tag(input), Tag::Absent, "{input:?}");
        }
        let nested = r#"{"r": [[1]]}"#;
        assert_eq!(tag_of(nested, 2, BigInts::F64), Tag::Missing);
        assert_eq!(tag_of(nested, 1, BigInts::F64), Tag::Absent);
        let big = r#"{"n": 123456789012345678901234567890}"#;
        assert_eq!(tag_of(big, 128, BigInts::F64), Tag::Missing);
        assert_eq!(tag_of(big, 128, BigInts::Error), Tag::Absent);
    }

    #[test]
    fn without_a_property_the_first_name_is_the_tag() {
        let d = Discriminator {
            property: None,
            tags: StrEnum::new(vec!["circle".into(), "sq".into()]),
        };
        let by_name = |input: &str| {
            let mut text = Vec::new();
            let limits = Limits {
                depth_left: 128,
                big_ints: BigInts::F64,
                text: &mut text,
            };
            find_tag(&d, input.as_bytes(), 0, limits)
        };
        assert_eq!(by_name(r#" {"sq": 1}"#), Tag::Branch(1));
        assert_eq!(by_name(r#"{ "\u0063ircle" : {}}"#), Tag::Branch(0));
        assert_eq!(by_name(r#"{"kind": "sq"}"#), Tag::Unmatched);
        assert_eq!(by_name(r#"{"circle"#), Tag::Absent);
        assert_eq!(by_name("{}"), Tag::Absent);
        assert_eq!(by_name(r#"["sq"]"#), Tag::Absent);
    }

    #[test]
    fn skipped_members_obey_the_depth_limit_and_the_big_integer_policy() {
        let nested = r#"{"r": [[1]], "kind": "sq"}"#;
        assert_eq!(tag_of(nested, 2, BigInts::F64), Tag::Branch(1));
        assert_eq!(tag_of(nested, 1, BigInts::F64), Tag::Absent);
        let big = r#"{"n": 123456789012345678901234567890, "kind": "sq"}"#;
        assert_eq!(tag_of(big, 128, BigInts::F64), Tag::Branch(1));
        assert_eq!(tag_of(big, 128, BigInts::Error), Tag::Absent);
    }
}
