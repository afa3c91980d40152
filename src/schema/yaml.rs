//! YAML documents as the JSON text they mean, for the documents a
//! [`Loader`](crate::schema::Loader) is given in YAML (OpenAPI documents often are). The JSON
//! text is then read as any JSON document is, so numbers, duplicate keys and member order are
//! read alike.
//!
//! The reading is YAML 1.2's JSON-compatible one (its core schema): a plain scalar is `null`
//! (`null`, `~`, nothing), a boolean (`true`, `false`, capitalized or not), an integer
//! (decimal, `0o` octal, `0x` hexadecimal) or a number (`1.5`, `.5`, `1e3`) when it reads as
//! one, a string otherwise (`yes`, `on`, `1.2.3`); quoted and block scalars, and scalars
//! tagged `!!str`, are strings. Mapping keys are strings (`200:` is `"200"`). An alias is a
//! copy of the node its anchor names; the copies may make the JSON text at most
//! [`EXPANSION`] times the YAML text (and at least 1 MiB), which stops alias bombs. What JSON
//! cannot say is an error: `.inf` and `.nan`, a mapping or sequence as a key, merge keys
//! (`<<`), tags other than the core schema's, more than one document.

use std::collections::HashMap;

use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::SchemaErrorKind;

/// How many times larger than the YAML text the JSON text its aliases expand to may be.
pub(crate) const EXPANSION: usize = 16;

/// The least the JSON text may grow to, whatever the YAML text's length.
const MIN_LIMIT: usize = 1 << 20;

/// The core schema's tags, after `tag:yaml.org,2002:`.
const CORE_TAG: &str = "tag:yaml.org,2002:";

/// The JSON text of the YAML document `text`; the error is a
/// [`SchemaErrorKind::Yaml`] with the line and column.
pub(crate) fn to_json(text: &str) -> Result<String, SchemaErrorKind> {
    let limit = text.len().saturating_mul(EXPANSION).max(MIN_LIMIT);
    let mut writer = Writer {
        out: String::with_capacity(text.len()),
        open: Vec::new(),
        anchors: HashMap::new(),
        stored: 0,
        documents: 0,
        limit,
    };
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, mark) = parser
            .next_token()
            .map_err(|e| SchemaErrorKind::Yaml(e.to_string()))?;
        match event {
            Event::StreamEnd => break,
            event => writer.event(event).map_err(|why| at(why, mark))?,
        }
    }
    match writer.documents {
        0 => Err(SchemaErrorKind::Yaml("no YAML document".to_owned())),
        _ => Ok(writer.out),
    }
}

/// The error `why` at `mark`.
fn at(why: String, mark: Marker) -> SchemaErrorKind {
    SchemaErrorKind::Yaml(format!(
        "{why} at line {} column {}",
        mark.line(),
        mark.col() + 1
    ))
}

/// A collection being written.
struct Open {
    /// A mapping (else a sequence).
    mapping: bool,
    /// No entry written yet.
    first: bool,
    /// In a mapping, the next node is a key.
    key_next: bool,
    /// Its anchor (0: none) and where its text starts in the output.
    anchor: usize,
    start: usize,
}

/// The JSON text written so far, and what an alias may copy.
struct Writer {
    out: String,
    open: Vec<Open>,
    /// The JSON text of each anchored node written.
    anchors: HashMap<usize, String>,
    /// The bytes those texts hold together.
    stored: usize,
    /// Documents begun.
    documents: usize,
    /// The longest the JSON text may be.
    limit: usize,
}

impl Writer {
    fn event(&mut self, event: Event) -> Result<(), String> {
        match event {
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            Event::DocumentStart => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err("more than one YAML document".to_owned());
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                let key = self.begin()?;
                let start = self.out.len();
                match key {
                    true => self.key(&value, style)?,
                    false => self.scalar(&value, style, tag.as_ref())?,
                }
                self.anchored(anchor, start)?;
                if key {
                    self.out.push(':');
                }
                self.end();
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                let mapping = matches!(event, Event::MappingStart(..));
                if self.begin()? {
                    return Err("a mapping key must be a scalar".to_owned());
                }
                check_tag(tag.as_ref(), if mapping { "map" } else { "seq" })?;
                self.open.push(Open {
                    mapping,
                    first: true,
                    key_next: true,
                    anchor,
                    start: self.out.len(),
                });
                self.out.push(if mapping { '{' } else { '[' });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let open = self.open.pop().expect("the parser pairs starts and ends");
                self.out.push(if open.mapping { '}' } else { ']' });
                self.anchored(open.anchor, open.start)?;
                self.end();
            }
            Event::Alias(anchor) => {
                if self.begin()? {
                    return Err("a mapping key must be a scalar, not an alias".to_owned());
                }
                let copy = self.anchors.get(&anchor).ok_or("an alias to no anchor")?;
                self.room(copy.len())?;
                self.out.push_str(copy);
                self.end();
            }
            Event::StreamEnd => {}
        }
        Ok(())
    }

    /// Writes what comes before a node: the comma after the previous entry of its
    /// collection. `Ok(true)` when the node is a mapping key.
    fn begin(&mut self) -> Result<bool, String> {
        let Some(open) = self.open.last_mut() else {
            return Ok(false);
        };
        let key = open.mapping && open.key_next;
        if (key || !open.mapping) && !std::mem::replace(&mut open.first, false) {
            self.out.push(',');
        }
        Ok(key)
    }

    /// Notes that a node was written: in a mapping, a key is followed by a value and a value
    /// by a key.
    fn end(&mut self) {
        if let Some(open) = self.open.last_mut().filter(|open| open.mapping) {
            open.key_next = !open.key_next;
        }
    }

    /// Keeps the text written since `start` as the node `anchor` names (0: none).
    fn anchored(&mut self, anchor: usize, start: usize) -> Result<(), String> {
        if anchor != 0 {
            let text = self.out[start..].to_owned();
            self.room(text.len())?;
            self.stored += text.len();
            self.anchors.insert(anchor, text);
        }
        Ok(())
    }

    /// Whether `more` bytes fit beside the text written and the anchors' copies: aliases,
    /// and anchors nested in anchors, must not make them larger than the limit.
    fn room(&self, more: usize) -> Result<(), String> {
        match self.out.len() + self.stored + more <= self.limit {
            true => Ok(()),
            false => Err(format!(
                "aliases expand the document past {} bytes",
                self.limit
            )),
        }
    }

    /// Writes a mapping key: its text as a string.
    fn key(&mut self, value: &str, style: TScalarStyle) -> Result<(), String> {
        if value == "<<" && matches!(style, TScalarStyle::Plain) {
            return Err("merge keys (<<) are not supported".to_owned());
        }
        self.string(value);
        Ok(())
    }

    /// Writes a scalar value: a plain one as the core schema reads it, others as strings.
    fn scalar(
        &mut self,
        value: &str,
        style: TScalarStyle,
        tag: Option<&Tag>,
    ) -> Result<(), String> {
        let plain = matches!(style, TScalarStyle::Plain);
        let as_string = match tag {
            None => !plain,
            Some(tag) => {
                check_tag(Some(tag), "str|null|bool|int|float")?;
                tag.suffix == "str"
            }
        };
        match as_string {
            true => self.string(value),
            false => match core_scalar(value)? {
                Some(json) => self.out.push_str(&json),
                None => self.string(value),
            },
        }
        Ok(())
    }

    /// Writes `value` as a JSON string.
    fn string(&mut self, value: &str) {
        let quoted = serde_json::to_string(value).expect("a string always serializes");
        self.out.push_str(&quoted);
    }
}

/// Refuses a tag that is not one of the core schema's `kinds` (`|`-separated suffixes).
fn check_tag(tag: Option<&Tag>, kinds: &str) -> Result<(), String> {
    match tag {
        None => Ok(()),
        Some(tag) if tag.handle == CORE_TAG && kinds.split('|').any(|k| k == tag.suffix) => Ok(()),
        Some(tag) => Err(format!("unsupported tag {}{}", tag.handle, tag.suffix)),
    }
}

/// The JSON text of the plain scalar `value` when the core schema reads it as `null`, a
/// boolean or a number; `None` when it is a string. `.inf` and `.nan` are errors.
fn core_scalar(value: &str) -> Result<Option<String>, String> {
    Ok(Some(match value {
        "" | "~" | "null" | "Null" | "NULL" => "null".to_owned(),
        "true" | "True" | "TRUE" => "true".to_owned(),
        "false" | "False" | "FALSE" => "false".to_owned(),
        _ => {
            let infinity = |s: &str| matches!(s, ".inf" | ".Inf" | ".INF");
            let unsigned = value.strip_prefix(['-', '+']).unwrap_or(value);
            if infinity(unsigned) || matches!(value, ".nan" | ".NaN" | ".NAN") {
                return Err(format!("{value} has no JSON form"));
            }
            match number(value) {
                Some(number) => number,
                None => return Ok(None),
            }
        }
    }))
}

/// The JSON text of a core schema integer or float, `None` when `value` is neither.
fn number(value: &str) -> Option<String> {
    // Octal and hexadecimal integers have no sign.
    for (prefix, radix) in [("0o", 8), ("0x", 16)] {
        if let Some(body) = value.strip_prefix(prefix) {
            return u128::from_str_radix(body, radix)
                .ok()
                .filter(|_| !body.starts_with('+'))
                .map(|n| n.to_string());
        }
    }
    let (sign, digits) = match value.as_bytes().first()? {
        b'-' => ("-", &value[1..]),
        b'+' => ("", &value[1..]),
        _ => ("", value),
    };
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(e) => (&digits[..e], Some(&digits[e + 1..])),
        None => (digits, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    let shape_ok = all_digits(whole)
        && fraction.is_none_or(all_digits)
        && !(whole.is_empty() && fraction.is_none_or(str::is_empty));
    if !shape_ok || !exponent_ok {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let mut json = format!("{sign}{}", if whole.is_empty() { "0" } else { whole });
    match fraction {
        // `1.` is a float, as `1.0` is in JSON.
        Some("") => json.push_str(".0"),
        Some(fraction) => {
            json.push('.');
            json.push_str(fraction);
        }
        None => {}
    }
    if let Some(exponent) = exponent {
        json.push('e');
        json.push_str(exponent);
    }
    Some(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(yaml: &str) -> String {
        to_json(yaml).unwrap_or_else(|e| panic!("{yaml}: {e}"))
    }

    fn error(yaml: &str) -> String {
        match to_json(yaml) {
            Err(SchemaErrorKind::Yaml(message)) => message,
            other => panic!("{yaml}: {other:?}"),
        }
    }

    #[test]
    fn plain_scalars_read_as_the_core_schema_reads_them() {
        let yaml = "a: [~, null, true, False, 12, 0o17, 0x1F, +1.5, .5, -.5, 1., 1e3, -2.5E-2, 007]\n\
                    b: [yes, on, 1.2.3, 0x, 1e, '1', \"true\", !!str 5, 0o8, -0o1, -.nan]\n\
                    c:\n";
        assert_eq!(
            json(yaml),
            r#"{"a":[null,null,true,false,12,15,31,1.5,0.5,-0.5,1.0,1e3,-2.5e-2,7],"b":["yes","on","1.2.3","0x","1e","1","true","5","0o8","-0o1","-.nan"],"c":null}"#
        );
    }

    #[test]
    fn keys_are_strings_and_order_is_kept() {
        assert_eq!(
            json("z: 1\n200: {description: ok}\ntrue: x\n"),
            r#"{"z":1,"200":{"description":"ok"},"true":"x"}"#
        );
        assert_eq!(json("- a\n- - 1\n  - 2\n- {}\n"), r#"["a",[1,2],{}]"#);
        assert_eq!(json("s: |\n  two\n  lines\n"), r#"{"s":"two\nlines\n"}"#);
    }

    #[test]
    fn aliases_copy_what_their_anchor_names() {
        assert_eq!(
            json("base: &b {type: string, enum: [&x a, b]}\nother: *b\nthird: *x\n"),
            r#"{"base":{"type":"string","enum":["a","b"]},"other":{"type":"string","enum":["a","b"]},"third":"a"}"#
        );
        // An anchor on a later entry, or on a key, names that node alone.
        assert_eq!(json("[a, &x b, *x]"), r#"["a","b","b"]"#);
        assert_eq!(json("{&k a: 1, b: *k}"), r#"{"a":1,"b":"a"}"#);
        let block =
            "a: 1\nb: &m\n  c: [1, &s {d: x}]\n  e: *s\nf:\n  - *m\n  - &t\n    - *s\ng: *t\n";
        assert_eq!(
            json(block),
            r#"{"a":1,"b":{"c":[1,{"d":"x"}],"e":{"d":"x"}},"f":[{"c":[1,{"d":"x"}],"e":{"d":"x"}},[{"d":"x"}]],"g":[{"d":"x"}]}"#
        );
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = i - 1;
            bomb.push_str(&format!("a{i}: &a{i} [*a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}, *a{prev}]\n"));
        }
        assert!(error(&bomb).starts_with("aliases expand the document past 1048576 bytes at line"));
        // Anchors nested in anchors hold copies of one another, counted alike.
        let depth = 240;
        let (open, close) = ("[&n ".repeat(depth - 1), "]".repeat(depth - 1));
        let nested = format!("- &n {open}{}{close}", "x".repeat(8 << 10));
        assert!(
            error(&nested).starts_with("aliases expand the document past 1048576 bytes at line")
        );
    }

    #[test]
    fn what_json_cannot_say_is_an_error() {
        assert_eq!(
            error("a: .inf\n"),
            ".inf has no JSON form at line 1 column 4"
        );
        assert_eq!(
            error("a: [-.Inf, .NaN]\n"),
            "-.Inf has no JSON form at line 1 column 5"
        );
        assert_eq!(
            error("? [a]\n: 1\n"),
            "a mapping key must be a scalar at line 1 column 3"
        );
        assert_eq!(
            error("a: &x 1\n*x : 2\n"),
            "a mapping key must be a scalar, not an alias at line 2 column 1"
        );
        assert_eq!(
            error("<<: {a: 1}\n"),
            "merge keys (<<) are not supported at line 1 column 1"
        );
        assert_eq!(
            error("a: !custom 1\n"),
            "unsupported tag !custom at line 1 column 12"
        );
        assert_eq!(
            error("a: 1\n---\nb: 2\n"),
            "more than one YAML document at line 2 column 1"
        );
        assert_eq!(error(""), "no YAML document");
        assert!(
            error("a: [1\n").starts_with("while parsing a flow sequence"),
            "{}",
            error("a: [1\n")
        );
    }
}
