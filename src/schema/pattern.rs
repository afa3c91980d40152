//! `pattern`: ECMA-262 regular expressions, compiled with the `regex` crate at load time.
//!
//! The `regex` crate implements the common subset of ECMA-262 syntax. Differences:
//! - `\d`, `\D`, `\w`, `\W` are rewritten to their ASCII classes, as ECMA-262 defines them
//!   (`regex` would use the Unicode classes);
//! - `\b`, `\B` and `\s` keep `regex`'s Unicode meaning (ECMA-262: ASCII word boundary, and a
//!   whitespace set that differs in a few code points, e.g. U+FEFF);
//! - look-around and backreferences are not supported: such a pattern is a load error;
//! - `\p{…}` Unicode properties work as in ECMA-262's `u` mode.
//!
//! Matching is a search anywhere in the string (patterns are not implicitly anchored).
//! Anchored sequences of ASCII classes (`^[0-9]+$`), the common shape, are matched by a
//! byte matcher ([`anchored`]) that agrees with `regex` on them, without its per-call setup.

mod anchored;
mod literal;

use crate::schema::{SchemaError, SchemaErrorKind};
use anchored::Anchored;
use literal::Literal;
use regex::Regex;
use std::fmt;

/// A compiled `pattern`. Equality and hashing use the pattern's source text.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    regex: Regex,
    /// The byte matcher, when the pattern has its shape (boxed: schema nodes hold patterns).
    anchored: Option<Box<Anchored>>,
    /// The text comparison, when the pattern is a plain text (and not the byte matcher's).
    literal: Option<Literal>,
}

impl Pattern {
    /// Compiles an ECMA-262 pattern; an unsupported or malformed pattern is an
    /// [`SchemaErrorKind::InvalidPattern`] error (at the root pointer: loaders re-point it).
    pub fn new(source: &str) -> Result<Pattern, SchemaError> {
        let translated = translate(source).map_err(|message| {
            let pattern = source.to_owned();
            SchemaError::new(
                SchemaErrorKind::InvalidPattern { pattern, message },
                String::new(),
            )
        })?;
        match Regex::new(&translated.regex) {
            Ok(regex) => {
                let anchored = Anchored::new(source).map(Box::new);
                Ok(Pattern {
                    source: source.to_owned(),
                    regex,
                    literal: anchored.is_none().then(|| Literal::new(source)).flatten(),
                    anchored,
                })
            }
            Err(e) => Err(SchemaError::new(
                SchemaErrorKind::InvalidPattern {
                    pattern: source.to_owned(),
                    message: e.to_string(),
                },
                String::new(),
            )),
        }
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// `(set, min, max)` when the pattern matches exactly the texts of `min..=max` bytes,
    /// each in the ASCII `set` (bit `b` for byte `b`): an anchored run of one class, such
    /// as `^[0-9]+$` or `^[0-9a-f]{6}$` (`u32::MAX` for no upper count).
    pub fn ascii_run(&self) -> Option<(u128, u32, u32)> {
        self.anchored.as_ref()?.single_run()
    }

    /// The set of each byte (bit `b` for byte `b`) when the pattern matches exactly the texts
    /// of that many ASCII bytes, each in its position's set: an anchored sequence of classes
    /// with fixed counts, such as `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`.
    pub fn ascii_positions(&self) -> Option<Vec<u128>> {
        self.anchored.as_ref()?.fixed_sets()
    }

    /// Whether the pattern matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        match (&self.anchored, &self.literal) {
            (Some(a), _) => a.is_match(text),
            (None, Some(l)) => l.is_match(text),
            (None, None) => self.regex.is_match(text),
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// ECMA-262's `\s`: its WhiteSpace and LineTerminator characters (U+FEFF among them, which
/// `regex`'s `\s` lacks; not U+0085, which `regex`'s has).
const ECMA_SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// ECMA-262's line terminators, which its `.` does not match (`regex`'s `.` leaves out `\n`
/// only).
const ECMA_LINE_TERMINATORS: &str = r"\n\r\x{2028}\x{2029}";

/// Rewrites an ECMA-262 pattern into `regex` syntax where the two read the same text
/// differently: the classes `\d`, `\w`, `\s` and their negations (ASCII digits and word
/// characters, ECMA-262's white space), `.` (no line terminator), `\b` / `\B` (ASCII word
/// boundaries; `[\b]` is a backspace), `\cX` (a control character), and inside a class a
/// `[` (a literal, where `regex` would nest a class) and `&`, `~` and a second `-` (literals,
/// where `regex` would read the set operators `&&`, `~~`, `--`). `[]` matches nothing and
/// `[^]` any character. The bracketed forms work inside a class too (`regex` nests classes).
/// A letter escape ECMA-262 does not define (`\a`, `\z`, `\A`, `\e`) is an error, as under
/// its `u` flag, where `regex` would read an assertion or a control character; so are `\0`
/// before a digit (an octal escape) and a quantifier with nothing to repeat (`a**`, `^*`),
/// which `regex` takes. `\0` alone is NUL.
fn translate(source: &str) -> Result<Translated, String> {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    let mut in_class = false;
    let mut previous = None;
    let mut last = Last::Nothing;
    let mut lone_brackets = false;
    while let Some(c) = chars.next() {
        // What this character leaves outside a class (inside one, `last` waits for `]`).
        let mut now = Last::Atom;
        match c {
            '\\' => match chars.next() {
                Some('d') => out.push_str("[0-9]"),
                Some('D') => out.push_str("[^0-9]"),
                Some('w') => out.push_str("[0-9A-Za-z_]"),
                Some('W') => out.push_str("[^0-9A-Za-z_]"),
                Some('s') => out.push_str(&format!("[{ECMA_SPACE}]")),
                Some('S') => out.push_str(&format!("[^{ECMA_SPACE}]")),
                Some('b') if in_class => out.push_str(r"\x08"),
                Some('b') => {
                    out.push_str(r"(?-u:\b)");
                    now = Last::Nothing;
                }
                Some('B') if !in_class => {
                    out.push_str(r"(?-u:\B)");
                    now = Last::Nothing;
                }
                Some('c') if chars.peek().is_some_and(char::is_ascii_alphabetic) => {
                    let letter = chars.next().map_or(0, u32::from);
                    out.push_str(&format!(r"\x{:02X}", letter % 32));
                }
                Some('0') if chars.peek().is_some_and(char::is_ascii_digit) => {
                    return Err(r"\0 before a digit is an octal escape".to_owned());
                }
                Some('0') => out.push_str(r"\x00"),
                // `\p{…}`, `\P{…}`, `\u{…}`: the braces are the escape's.
                Some(e @ ('p' | 'P' | 'u')) if chars.peek() == Some(&'{') => {
                    out.push('\\');
                    out.push(e);
                    for b in chars.by_ref() {
                        out.push(b);
                        if b == '}' {
                            break;
                        }
                    }
                }
                Some(e @ ('p' | 'P')) => return Err(format!("\\{e} needs a {{property}}")),
                Some(other) if other.is_ascii_alphabetic() && !"fnrtvxuk".contains(other) => {
                    return Err(format!("\\{other} is not an ECMA-262 escape"));
                }
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '[' if !in_class => {
                let negated = chars.next_if_eq(&'^').is_some();
                if chars.next_if_eq(&']').is_some() {
                    out.push_str(if negated {
                        r"[\x{0}-\x{10FFFF}]"
                    } else {
                        r"[^\x{0}-\x{10FFFF}]"
                    });
                } else {
                    in_class = true;
                    out.push_str(if negated { "[^" } else { "[" });
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            '-' if in_class && previous == Some('-') => out.push_str(r"\-"),
            _ if in_class => out.push(c),
            '.' => out.push_str(&format!("[^{ECMA_LINE_TERMINATORS}]")),
            '(' => {
                out.push(c);
                // `(?:`, `(?<name>`: the `?` is the group's, not a quantifier.
                if chars.next_if_eq(&'?').is_some() {
                    out.push('?');
                }
                now = Last::Nothing;
            }
            '|' | '^' | '$' => {
                out.push(c);
                now = Last::Nothing;
            }
            '*' | '+' | '?' | '{' => {
                let bounds = match c {
                    '{' => counted(&mut chars),
                    _ => Some(String::new()),
                };
                match bounds {
                    Some(bounds) => {
                        now = match (last, c) {
                            (Last::Atom, _) => Last::Quantifier,
                            (Last::Quantifier, '?') => Last::Nothing,
                            _ => return Err(format!("{c} follows nothing it can repeat")),
                        };
                        out.push(c);
                        out.push_str(&bounds);
                    }
                    // A `{` that starts no count: a literal without the `u` flag.
                    None => {
                        lone_brackets = true;
                        out.push_str(r"\{");
                    }
                }
            }
            ']' | '}' => {
                lone_brackets = true;
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        if !in_class {
            last = now;
        }
        previous = Some(c);
    }
    Ok(Translated {
        regex: out,
        lone_brackets,
    })
}

/// A pattern in `regex` syntax ([`translate`]).
struct Translated {
    /// The `regex` pattern.
    regex: String,
    /// Whether a `]`, `{` or `}` stands for itself outside a class, as ECMA-262 allows
    /// without the `u` flag only.
    lone_brackets: bool,
}

/// What the last token outside a class was, for the quantifier after it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// The start, a group's start, `|`, or an assertion (`^`, `$`, `\b`, `\B`): no
    /// quantifier may follow.
    Nothing,
    /// Something a quantifier repeats.
    Atom,
    /// A quantifier: only its lazy `?` may follow.
    Quantifier,
}

/// After a `{`: the rest of a count (`n}`, `n,}`, `n,m}`), consumed, when one follows.
///
/// The look-ahead stops at the first character that cannot continue a count, so each `{`
/// reads only its own digits: a text of many `{` and no `}` is read in linear time (an
/// instance string checked by the `regex` format is hostile input).
fn counted(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<String> {
    let mut ahead = chars.clone();
    let mut rest = String::new();
    let mut low_digits = 0usize;
    let mut high_digits = None;
    loop {
        match ahead.next()? {
            d @ '0'..='9' => {
                rest.push(d);
                match &mut high_digits {
                    Some(n) => *n += 1,
                    None => low_digits += 1,
                }
            }
            ',' if high_digits.is_none() => {
                rest.push(',');
                high_digits = Some(0);
            }
            '}' => break,
            _ => return None,
        }
    }
    if low_digits == 0 {
        return None;
    }
    // A count is ASCII: its length in bytes is its length in characters (and its `}`).
    chars.nth(rest.len());
    Some(rest + "}")
}

/// Whether `source` is an ECMA-262 regular expression under the `u` flag in the syntax
/// `Pattern` takes (the `regex` format): its translation parses as `regex` syntax, and no
/// `]`, `{` or `}` stands for itself outside a class.
///
/// The translation is parsed, not compiled: the format is about syntax, so a regular
/// expression too large for `regex`'s compiled-size limit (`(?:a{1000}){1000}`) is one,
/// and a hostile instance string costs a parse linear in its length rather than a
/// compilation (megabytes of automaton for a few kilobytes of text). The parser is
/// `regex::Regex::new`'s own, with its default settings, so both refuse the same syntax.
pub(crate) fn is_unicode_regex(source: &str) -> bool {
    translate(source)
        .is_ok_and(|t| !t.lone_brackets && regex_syntax::Parser::new().parse(&t.regex).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quantifier_needs_something_to_repeat() {
        for ok in [
            "a*", "a*?", "a{2}?", "(a)+", "[a]?", r"\d{1,3}", "a{2,}", "(?:a)*", "a|b*",
        ] {
            assert!(Pattern::new(ok).is_ok(), "{ok}");
        }
        for (bad, c) in [
            ("a**", '*'),
            ("^*", '*'),
            ("$+", '+'),
            ("a*??", '?'),
            ("(*a)", '*'),
            ("|?", '?'),
            (r"\b+", '+'),
            ("a{2}{3}", '{'),
        ] {
            let e = Pattern::new(bad).expect_err(bad);
            assert_eq!(
                e.to_string(),
                format!(
                    "invalid pattern {bad:?}: {c} follows nothing it can repeat at the schema root"
                ),
            );
        }
    }

    #[test]
    fn nul_and_octal_escapes() {
        let nul = Pattern::new(r"^a\0$").expect("NUL");
        assert!(nul.is_match("a\0"));
        assert!(!nul.is_match("a0"));
        let e = Pattern::new(r"\01").expect_err("octal");
        assert_eq!(
            e.to_string(),
            r#"invalid pattern "\\01": \0 before a digit is an octal escape at the schema root"#
        );
    }

    #[test]
    fn lone_brackets_stand_for_themselves_but_are_no_unicode_regex() {
        for (source, text) in [
            ("a]", "a]"),
            ("a}", "a}"),
            ("a{", "a{"),
            ("{,2}", "{,2}"),
            ("x{1,a}", "x{1,a}"),
        ] {
            let p = Pattern::new(source).expect(source);
            assert!(p.is_match(text), "{source}");
            assert!(!is_unicode_regex(source), "{source}");
        }
        assert!(is_unicode_regex(r"^[\]}{]\p{L}{2}\u{41}$"));
        assert_eq!(
            Pattern::new(r"\pL").expect_err("u flag").to_string(),
            r#"invalid pattern "\\pL": \p needs a {property} at the schema root"#
        );
        assert!(!is_unicode_regex("(a"));
    }

    /// Regression: `counted` read ahead to the next `}` at every `{`, so a text of many
    /// `{` and no `}` took quadratic time: 80 000 of them took 6.5 s in the `regex` format,
    /// this text about 70 s. Now each `{` reads only its own digits.
    #[test]
    fn a_count_reads_ahead_only_over_its_own_digits() {
        for piece in ["{", "a{", "{1", "{1,"] {
            let text = piece.repeat((256 << 10) / piece.len());
            assert!(!is_unicode_regex(&text), "{piece:?}");
        }
        let counts = "a{2}".repeat(64 << 10);
        assert!(is_unicode_regex(&counts));
        for (source, text) in [
            ("^a{2,}$", "aa"),
            ("^a{1,2}$", "aa"),
            ("^x{1,a}$", "x{1,a}"),
        ] {
            assert!(
                Pattern::new(source).expect(source).is_match(text),
                "{source}"
            );
        }
    }

    /// Regression: the `regex` format compiled each string, so a short regular expression
    /// whose automaton passes `regex`'s size limit was "not a regex", and a hostile string
    /// cost a compilation. The format is syntax: the string is parsed, not compiled.
    #[test]
    fn a_regex_too_large_to_compile_is_still_a_regex() {
        let large = "(?:a{1000}){1000}";
        assert!(
            Regex::new(large).is_err(),
            "compiled, it passes the size limit"
        );
        assert!(is_unicode_regex(large));
        assert!(Pattern::new(large).is_err(), "a pattern is compiled");
        // What the parser refuses, `Regex::new` refuses too.
        for bad in [
            "(a",
            "a)",
            "[b-a]",
            r"\p{NoSuchProperty}",
            "(?<n>a)(?<n>b)",
            r"\u{110000}",
        ] {
            assert!(Regex::new(bad).is_err(), "{bad}");
            assert!(!is_unicode_regex(bad), "{bad}");
        }
    }

    #[test]
    fn ecma_classes_are_ascii() {
        let p = Pattern::new(r"^\d+$").unwrap();
        assert!(p.is_match("123"));
        assert!(!p.is_match("١٢٣")); // Arabic-Indic digits: Unicode \d, not ECMA \d
        let p = Pattern::new(r"^[\w.]+$").unwrap();
        assert!(p.is_match("a_b.c"));
        assert!(!p.is_match("é"));
        let p = Pattern::new(r"^[\w.-]+@[\w-]+$").unwrap();
        assert!(p.is_match("a.b-c@x-y"));
        assert!(!p.is_match("ä@x"));
        let p = Pattern::new(r"^\\d$").unwrap();
        assert!(p.is_match(r"\d"));
    }

    /// The ECMA-262 readings `translate` keeps: each pattern with texts it matches and texts
    /// it does not.
    #[test]
    fn ecma_readings() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                r"^\s$",
                &[" ", "\t", "\u{feff}", "\u{3000}", "\u{2028}"],
                &["\u{85}", "a", ""],
            ),
            (r"^\S$", &["a", "\u{85}"], &["\u{feff}", " "]),
            (
                "^a.c$",
                &["abc", "a\u{85}c", "aéc"],
                &["a\nc", "a\rc", "a\u{2028}c", "a\u{2029}c"],
            ),
            ("^[.]$", &["."], &["a"]),
            (r"^a\b", &["a", "a b", "aé"], &["ab", "a_"]),
            (r"^a\B", &["ab"], &["a", "aé"]),
            (r"^[\b]$", &["\u{8}"], &["b", "\\"]),
            (r"^\cJ\cj$", &["\n\n"], &["cJcj"]),
            (r"^[\cA-\cC]$", &["\u{2}"], &["\u{4}", "A"]),
            ("^[]$", &[], &["", "]", "a"]),
            ("^[^]$", &["a", "\n", "]"], &["", "ab"]),
            ("^[[]$", &["["], &["]", ""]),
            ("^[a&&b]+$", &["a&b", "&&"], &["c"]),
            ("^[a~~b]$", &["~"], &["c"]),
            ("^[+--]$", &["+", ",", "-"], &["a"]),
            (r"^[\d\s]+$", &["1 2\u{feff}"], &["a"]),
        ];
        for (source, matches, misses) in cases {
            let pattern = Pattern::new(source).unwrap_or_else(|e| panic!("{source}: {e}"));
            for text in *matches {
                assert!(pattern.is_match(text), "{source} on {text:?}");
            }
            for text in *misses {
                assert!(!pattern.is_match(text), "{source} not on {text:?}");
            }
        }
    }

    #[test]
    fn unicode_properties_and_search() {
        let p = Pattern::new(r"^\p{Letter}+$").unwrap();
        assert!(p.is_match("π"));
        assert!(Pattern::new("a+").unwrap().is_match("xxaayy"));
    }

    /// Patterns the byte matcher takes, and some it must leave to `regex`.
    const SHAPES: &[(&str, bool)] = &[
        ("^[0-9]+$", true),
        (
            "^[A-Z][a-z]{2} [A-Z][a-z]{2} [0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4} [0-9]{4}$",
            true,
        ),
        ("^[0-9A-Fa-f]{6}$", true),
        (r"^\d{2,4}-\w*$", true),
        ("^a?bc*d{1,}$", true),
        ("^a?b*c$", false),
        ("^$", true),
        (r"^[a\-z]\.x/$", true),
        ("^[0-9]+[0-9]$", false),
        ("^a?[a-z]$", false),
        ("^a*b?c$", false),
        ("^a|b$", false),
        ("^[^a]$", false),
        ("^(ab)+$", false),
        ("^a+?$", false),
        ("^[a&&b]$", false),
        ("^a.b$", false),
        ("^é$", false),
        // 32 distinct sets fit the matcher's class words; a 33rd does not.
        ("^0123456789abcdefghijklmnopqrstuv$", true),
        ("^0123456789abcdefghijklmnopqrstuvw$", false),
        ("[0-9]+$", false),
        ("^[0-9]+", false),
        (r"^\s$", false),
    ];

    #[test]
    fn anchored_shapes_are_recognised() {
        for &(source, taken) in SHAPES {
            assert_eq!(Anchored::new(source).is_some(), taken, "{source}");
        }
    }

    /// A xorshift generator from `state`: each call, a number below its argument.
    fn below(mut state: u64) -> impl FnMut(usize) -> usize {
        move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        }
    }

    #[test]
    fn anchored_matcher_agrees_with_regex() {
        let alphabet: Vec<char> = "09aAbcfFxzZ -+:./\\_é".chars().collect();
        let mut next = below(0x2545_f491_4f6c_dd1d_u64);
        let rounds = if cfg!(miri) { 50 } else { 20_000 };
        let samples = [
            "Mon Feb 03 12:34:56 +0000 2014",
            "12",
            "a0F9c1",
            "abcdd",
            "12-x_",
            "a.x/",
            "",
        ];
        for &(source, _) in SHAPES.iter().filter(|(_, taken)| *taken) {
            let fast = Anchored::new(source).expect("taken");
            let regex =
                Regex::new(&translate(source).expect("translates").regex).expect("compiles");
            for i in 0..rounds {
                let text: String = if i % 4 == 0 {
                    // Near misses of matching strings: one character replaced.
                    let mut chars: Vec<char> = samples[next(samples.len())].chars().collect();
                    if !chars.is_empty() {
                        let at = next(chars.len());
                        chars[at] = alphabet[next(alphabet.len())];
                    }
                    chars.into_iter().collect()
                } else {
                    (0..next(12))
                        .map(|_| alphabet[next(alphabet.len())])
                        .collect()
                };
                assert_eq!(
                    fast.is_match(&text),
                    regex.is_match(&text),
                    "{source} {text:?}"
                );
            }
            for text in samples {
                assert_eq!(
                    fast.is_match(text),
                    regex.is_match(text),
                    "{source} {text:?}"
                );
            }
        }
    }

    /// Literal patterns, and some that only look like one, against `regex` on texts made of
    /// their characters and others.
    #[test]
    fn literal_matcher_agrees_with_regex() {
        let sources = [
            ("^x-", true),
            ("_id$", true),
            ("^é$", true),
            ("@", true),
            ("^", true),
            ("", true),
            ("$", true),
            ("^a b/c:d$", true),
            ("日本", true),
            ("^x.", false),
            ("a|b", false),
            ("^a+", false),
            ("\\-", false),
            ("^(x)", false),
            ("a$b", false),
        ];
        let alphabet: Vec<char> = "x-_idéa b/c:d日本.|+$^".chars().collect();
        let mut next = below(0x9e37_79b9_7f4a_7c15_u64);
        let rounds = if cfg!(miri) { 50 } else { 5_000 };
        for (source, taken) in sources {
            let literal = Literal::new(source);
            assert_eq!(literal.is_some(), taken, "{source}");
            let Some(literal) = literal else { continue };
            let regex =
                Regex::new(&translate(source).expect("translates").regex).expect("compiles");
            let core = source.trim_start_matches('^').trim_end_matches('$');
            for i in 0..rounds {
                let mut random = |n: usize| -> String {
                    (0..n).map(|_| alphabet[next(alphabet.len())]).collect()
                };
                let text = match i % 3 {
                    // The pattern's own text, with something around it.
                    0 => {
                        let (before, after) = (random(i / 3 % 3), random(i / 9 % 3));
                        format!("{before}{core}{after}")
                    }
                    _ => random(i % 8),
                };
                assert_eq!(
                    literal.is_match(&text),
                    regex.is_match(&text),
                    "{source} {text:?}"
                );
            }
        }
    }

    #[test]
    fn single_runs_are_their_definition() {
        let runs = [
            ("^[0-9]+$", Some((1, u32::MAX))),
            ("^[0-9A-Fa-f]{6}$", Some((6, 6))),
            (r"^\d{2,4}$", Some((2, 4))),
            ("^x?$", Some((0, 1))),
            ("^[0-9]+[0-9]$", None),
            ("^a?bc*d{1,}$", None),
            ("^$", None),
            ("[0-9]+", None),
        ];
        let texts = [
            "", "0", "12", "123", "1234", "12345", "a0F9c1", "a0F9c", "x", "xx", "1a", "١",
        ];
        for (source, counts) in runs {
            let pattern = Pattern::new(source).unwrap();
            let run = pattern.ascii_run();
            assert_eq!(run.map(|(_, min, max)| (min, max)), counts, "{source}");
            let Some((set, min, max)) = run else { continue };
            for text in texts {
                let n = text.len() as u64;
                let by_definition = (u64::from(min)..=u64::from(max)).contains(&n)
                    && text.bytes().all(|b| b < 128 && set >> b & 1 == 1);
                assert_eq!(pattern.is_match(text), by_definition, "{source} {text:?}");
            }
        }
    }

    #[test]
    fn fixed_positions_are_their_definition() {
        let range = |lo: u8, hi: u8| (lo..=hi).fold(0u128, |set, b| set | 1 << b);
        let (digit, dash, hex) = (range(b'0', b'9'), range(b'-', b'-'), range(b'a', b'f'));
        let p = Pattern::new(r"^\d{2}-[a-f]$").unwrap();
        assert_eq!(p.ascii_positions(), Some(vec![digit, digit, dash, hex]));
        assert_eq!(Pattern::new("^[0-9]+-$").unwrap().ascii_positions(), None);
        assert_eq!(Pattern::new("^a?b$").unwrap().ascii_positions(), None);
        assert_eq!(Pattern::new("^$").unwrap().ascii_positions(), Some(vec![]));
    }

    #[test]
    fn lookaround_is_rejected() {
        let e = Pattern::new("a(?=b)").unwrap_err();
        assert!(matches!(e.kind(), SchemaErrorKind::InvalidPattern { .. }));
    }
}
