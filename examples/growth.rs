//! Looks for inputs whose cost grows faster than their size: each case builds an input (a
//! string checked by a `format`, a schema loaded or compiled to native code, a document
//! validated or read lazily) at size `n` and `4n`, times the operation once after a warm-up,
//! and prints both times and their ratio. A linear cost gives about 4; a ratio above 8 (marked `!`) is quadratic
//! territory, worth a profile. Times are single runs on a shared machine: read the ratios.
//!
//! Every case's input is valid, so the whole of it is read, but for one that fails on its last
//! item (the error's location is found then).
//!
//! Run: `cargo run --release --example growth [N]` (default `N` = 10000; about five seconds).

use std::hint::black_box;
use std::time::{Duration, Instant};

use jitson::engine::{Backend, Options, TranscodeOptions, Unknown};
use jitson::lazy::{self, Pointer};
use jitson::schema::Format;
use jitson::{Codec, Schema};

/// `f(i)` for `i` in `0..n`, joined by commas.
fn list(n: usize, f: impl Fn(usize) -> String) -> String {
    (0..n).map(f).collect::<Vec<_>>().join(",")
}

/// The time of one call of `run` after one warm-up call.
fn timed<R>(mut run: impl FnMut() -> R) -> Duration {
    black_box(run());
    let start = Instant::now();
    black_box(run());
    start.elapsed()
}

/// Prints the case's times at `n` and `4n` and their ratio.
fn case(name: &str, n: usize, mut at: impl FnMut(usize) -> Duration) {
    let (small, large) = (at(n), at(4 * n));
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-9);
    let mark = if ratio > 8.0 { "!" } else { " " };
    println!("{mark} {ratio:5.1}x  {small:>12.3?} {large:>12.3?}  {name}");
}

/// An input of size `n`.
type Input = dyn Fn(usize) -> String;

/// A schema of size `n`.
type SchemaText = fn(usize) -> String;

/// A codec on `backend` for the schema `text`.
fn codec(text: &str, backend: Backend) -> Codec {
    let schema = Schema::from_json_str(text).expect("the case's schema loads");
    Codec::with_options(&schema, Options::new().backend(backend))
}

fn formats(n: usize) {
    for &format in Format::ALL {
        for piece in [
            "a", "{", "a{", "{1,", "(", ".", "\\", "%4", "::", "1.", "a@", "~0", "xn--",
        ] {
            let text = |n: usize| piece.repeat(n / piece.len().max(1));
            case(&format!("format {format} of {piece:?}s"), n, |n| {
                let text = text(n);
                timed(|| format.is_valid(&text))
            });
        }
    }
}

fn loading(n: usize) {
    let shapes: [(&str, SchemaText); 6] = [
        ("load an enum of n strings", |n| {
            format!(r#"{{"enum": [{}]}}"#, list(n, |i| format!(r#""s{i}""#)))
        }),
        ("load n properties, all required", |n| {
            format!(
                r#"{{"properties": {{{}}}, "required": [{}]}}"#,
                list(n, |i| format!(r#""p{i}": {{"type": "integer"}}"#)),
                list(n, |i| format!(r#""p{i}""#))
            )
        }),
        ("load a $defs chain of n", |n| {
            let defs = list(n, |i| {
                format!(r##""d{i}": {{"$ref": "#/$defs/d{}"}}"##, i + 1)
            });
            format!(r##"{{"$ref": "#/$defs/d0", "$defs": {{{defs}, "d{n}": {{}}}}}}"##)
        }),
        (
            "load a chain of n/4 anyOfs, each a value and the next",
            |n| {
                let defs = list(n / 4, |i| {
                    format!(
                        r##""d{i}": {{"anyOf": [{{"const": {i}}}, {{"$ref": "#/$defs/d{}"}}]}}"##,
                        i + 1
                    )
                });
                let last = format!(r#""d{}": {{"type": "null"}}"#, n / 4);
                format!(r##"{{"$ref": "#/$defs/d0", "$defs": {{{defs}, {last}}}}}"##)
            },
        ),
        ("load an allOf of n bounds", |n| {
            format!(
                r#"{{"allOf": [{}]}}"#,
                list(n, |i| format!(r#"{{"minimum": {i}}}"#))
            )
        }),
        ("load an allOf of two objects of n properties", |n| {
            let part = |p: char| {
                let properties = list(n, |i| format!(r#""{p}{i}": {{"type": "integer"}}"#));
                format!(r#"{{"type": "object", "properties": {{{properties}}}}}"#)
            };
            format!(r#"{{"allOf": [{}, {}]}}"#, part('a'), part('b'))
        }),
    ];
    for (name, schema) in shapes {
        case(name, n, |n| {
            let text = schema(n);
            timed(|| Schema::from_json_str(&text).expect("loads"))
        });
    }
}

fn instances(n: usize) {
    let numbers = |n: usize| format!("[{}]", list(n, |i| (i % 2000 * 3).to_string()));
    let distinct = |n: usize| format!("[{}]", list(n, |i| (i * 3).to_string()));
    let members = |n: usize| format!("{{{}}}", list(n, |i| format!(r#""k{i}": {i}"#)));
    let objects = |n: usize| format!("[{}]", list(n, |i| format!(r#"{{"k{}": {i}}}"#, i % 1000)));
    let enumeration = format!(
        r#"{{"items": {{"enum": [{}]}}}}"#,
        list(2000, |i| (i * 3).to_string())
    );
    let names = format!(
        r#"{{"items": {{"propertyNames": {{"enum": [{}]}}}}}}"#,
        list(2000, |i| format!(r#""k{i}""#))
    );
    let cases: [(&str, String, &Input); 6] = [
        ("n numbers against an enum of 2000", enumeration, &numbers),
        (
            "n objects under a propertyNames enum of 2000",
            names,
            &objects,
        ),
        (
            "uniqueItems of n numbers",
            r#"{"uniqueItems": true}"#.into(),
            &distinct,
        ),
        (
            "uniqueItems of n objects",
            r#"{"uniqueItems": true}"#.into(),
            &objects,
        ),
        (
            "n members, additionalProperties a schema",
            r#"{"properties": {"k1": {}}, "additionalProperties": {"type": "integer"}}"#.into(),
            &members,
        ),
        (
            "n members, a pattern each",
            r#"{"patternProperties": {"^k[0-9]+$": {"type": "integer"}}}"#.into(),
            &members,
        ),
    ];
    for (name, schema, document) in cases {
        for backend in [Backend::Interpreter, Backend::Native] {
            let codec = codec(&schema, backend);
            case(&format!("{name} ({backend:?})"), n, |n| {
                let document = document(n);
                timed(|| codec.validate_all(document.as_bytes(), 100))
            });
        }
    }
    case("a number of n digits cancelled by its exponent", n, |n| {
        let token = format!("1{}e-{n}", "0".repeat(n));
        let codec = codec(r#"{"type": "number"}"#, Backend::Interpreter);
        timed(|| assert!(codec.validate(token.as_bytes()).is_ok()))
    });
}

/// Documents that fail on their last item: the error's location is found then, on either
/// backend.
fn failing(n: usize) {
    let numbers = |last: &'static str| {
        move |n: usize| format!("[{}, {last}]", list(n, |i| (i % 2000 * 3).to_string()))
    };
    let enumeration = format!(
        r#"{{"items": {{"enum": [{}]}}}}"#,
        list(2000, |i| (i * 3).to_string())
    );
    let objects = |n: usize| {
        let members = list(n, |i| format!(r#"{{"k{}": {i}}}"#, i % 1000));
        format!(r#"[{members}, {{"z": 0}}]"#)
    };
    let names = format!(
        r#"{{"items": {{"propertyNames": {{"enum": [{}]}}}}}}"#,
        list(2000, |i| format!(r#""k{i}""#))
    );
    let distinct = |n: usize| format!("[{}, 0]", list(n, |i| i.to_string()));
    let branches = r#"{"items": {"oneOf": [{"type": "integer"}, {"type": "string"}]}}"#;
    let cases: [(&str, String, &Input); 6] = [
        (
            "n numbers against an enum of 2000, the last not",
            enumeration,
            &numbers("1"),
        ),
        (
            "n objects under a propertyNames enum of 2000, the last not",
            names,
            &objects,
        ),
        (
            "uniqueItems of n numbers and a repeat",
            r#"{"uniqueItems": true}"#.into(),
            &distinct,
        ),
        (
            "n numbers in a oneOf, the last neither",
            branches.into(),
            &numbers("true"),
        ),
        (
            "n numbers, none contained",
            r#"{"contains": {"const": -1}}"#.into(),
            &numbers("0"),
        ),
        (
            "n integers, the last a string",
            r#"{"items": {"type": "integer"}}"#.into(),
            &numbers(r#""1""#),
        ),
    ];
    for (name, schema, document) in cases {
        for backend in [Backend::Interpreter, Backend::Native] {
            let codec = codec(&schema, backend);
            case(&format!("{name}, failing ({backend:?})"), n, |n| {
                let document = document(n);
                timed(|| codec.validate(document.as_bytes()).expect_err("fails"))
            });
        }
    }
}

/// Unions whose branches reach the same subschema, which every backend checks once per
/// position: untagged pets `n/400` levels deep (validate, and a transcode dropping unknown
/// members, which tries each branch before writing it), and a chain of `n/400` links at one
/// value, each a `oneOf` of the next and `not` the next.
fn unions(n: usize) {
    let pets = r##"{"$ref": "#/$defs/pet", "$defs": {
        "base": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/pet"}, "name": {"type": "string"}}, "required": ["name"]},
        "pet": {"oneOf": [{"$ref": "#/$defs/cat"}, {"$ref": "#/$defs/dog"}]},
        "cat": {"allOf": [{"$ref": "#/$defs/base"}, {"required": ["claws"]}]},
        "dog": {"allOf": [{"$ref": "#/$defs/base"}, {"required": ["bark"]}]}}}"##;
    let owned = |n: usize| {
        (0..n / 400).fold(r#"{"name": "p", "bark": 1}"#.to_owned(), |inner, i| {
            format!(r#"{{"name": "p{i}", "bark": 1, "x": [], "owner": {inner}}}"#)
        })
    };
    let drop = TranscodeOptions::new().unknown(Unknown::Drop);
    for backend in [Backend::Interpreter, Backend::Native] {
        let pet_codec = codec(pets, backend);
        case(&format!("untagged pets n/400 deep ({backend:?})"), n, |n| {
            let document = owned(n);
            timed(|| pet_codec.validate(document.as_bytes()).expect("valid"))
        });
        case(
            &format!("untagged pets n/400 deep, transcoded ({backend:?})"),
            n,
            |n| {
                let document = owned(n);
                let mut out = Vec::new();
                timed(|| {
                    pet_codec
                        .transcode(document.as_bytes(), &drop, &mut out)
                        .expect("valid")
                })
            },
        );
        case(
            &format!("a chain of n/400 oneOf/not links ({backend:?})"),
            n,
            |n| {
                let links = n / 400;
                let defs = list(links, |i| {
                    let next = format!(r##"{{"$ref": "#/$defs/l{}"}}"##, i + 1);
                    format!(r#""l{i}": {{"oneOf": [{next}, {{"not": {next}}}]}}"#)
                });
                let text = format!(
                    r##"{{"$ref": "#/$defs/l0", "$defs": {{{defs}, "l{links}": {{"type": "integer"}}}}}}"##
                );
                let codec = codec(&text, backend);
                timed(|| codec.validate(b"5").expect("valid"))
            },
        );
    }
}

fn lazy_reads(n: usize) {
    let document = |n: usize| {
        format!(
            "{{{}}}",
            list(n, |i| format!(r#""k{i}": [{i}, {{"x": {i}}}]"#))
        )
    };
    let paths = |n: usize| {
        (0..n)
            .rev()
            .map(|i| format!("/k{i}/1/x"))
            .collect::<Vec<_>>()
    };
    case("lazy get_many of n paths into n members", n, |n| {
        let (document, paths) = (document(n), paths(n));
        let pointers: Vec<Pointer<'_>> = paths.iter().map(|p| Pointer::parse(p).unwrap()).collect();
        timed(|| lazy::get_many(document.as_bytes(), &pointers).expect("reads"))
    });
    case("lazy Document, n gets into n members", n, |n| {
        let (document, paths) = (document(n), paths(n));
        let pointers: Vec<Pointer<'_>> = paths.iter().map(|p| Pointer::parse(p).unwrap()).collect();
        timed(|| {
            let mut cached = lazy::Document::new(document.as_bytes());
            let found = pointers
                .iter()
                .filter(|p| cached.get(p).expect("reads").is_some());
            found.count()
        })
    });
}

fn compiles(n: usize) {
    let shapes: [(&str, SchemaText); 2] = [
        ("native compile of n/40 properties, one function", |n| {
            let properties = list(n / 40, |i| format!(r#""p{i}": {{"type": "integer"}}"#));
            format!(r#"{{"properties": {{{properties}}}}}"#)
        }),
        (
            "native compile of a chain of n/10 array types (over the size limit)",
            |n| {
                let defs = list(n / 10, |i| {
                    format!(r##""d{i}": {{"items": {{"$ref": "#/$defs/d{}"}}}}"##, i + 1)
                });
                let last = format!(r#""d{}": {{"type": "integer"}}"#, n / 10);
                format!(r##"{{"$ref": "#/$defs/d0", "$defs": {{{defs}, {last}}}}}"##)
            },
        ),
    ];
    for (name, schema) in shapes {
        case(name, n, |n| {
            let schema = Schema::from_json_str(&schema(n)).expect("loads");
            timed(|| Codec::with_options(&schema, Options::new().backend(Backend::Native)))
        });
    }
}

fn main() {
    let n = std::env::args()
        .nth(1)
        .map_or(10_000, |a| a.parse().expect("N is a number"));
    println!("ratio     time at n  time at 4n  case (n = {n})");
    formats(n);
    loading(n);
    instances(n);
    failing(n);
    unions(n);
    lazy_reads(n);
    compiles(n);
}
