//! Picks and redactions against an independent model: random documents, rendered with
//! random whitespace and (in half of them) non-canonical tokens, transcoded with random
//! pick and redact pointers under three kinds of schema (`{}`, which leaves every value
//! open; a schema describing the whole document; the same with random subtrees left
//! open, members left unnamed, and containers behind an `allOf` part, an `anyOf` / `oneOf`
//! branch or a `null`-or-container type), with unknown members kept, dropped and denied, on
//! both backends. The expected bytes come from a model written here over the
//! generated tree: a value is written when it is on a pick's way (an ancestor of a picked
//! value, a picked value, or anything inside one; everything when nothing is picked), as
//! the replacement when a redaction points at it, and containers keep their members in
//! input order, unknown members left out when dropped (and an error, the same on both
//! backends, when denied). Tokens rewritten must give the model's bytes (serde_json's text of each
//! scalar); tokens verbatim must too when the input's tokens are canonical.

#[path = "../kernels/tests/common/rng.rs"]
mod rng;

use jitson::engine::{Backend, Options, Tokens, TranscodeOptions, Unknown};
use jitson::{Codec, Schema};
use rng::Rng;
use serde_json::{Value, json};

/// A generated JSON value: members in order, numbers of two kinds.
#[derive(Clone, Debug)]
enum Node {
    Null,
    Bool(bool),
    Int(i64),
    /// A multiple of 1/4 below 10^6: exact in binary, at most two fraction digits.
    Float(f64),
    Str(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Keys: escapes, pointer escapes (`/`, `~`), digits (which also name array items), the
/// empty key, non-ASCII, and names longer than an 8-byte compare.
const KEYS: [&str; 12] = [
    "a",
    "b",
    "c",
    "1",
    "0",
    "",
    "a/b",
    "m~n",
    "~1",
    "é",
    "q\"",
    "long_key_name_past_eight",
];

/// Characters strings are made of: plain, escaped, and multi-byte.
const CHARS: [char; 11] = [
    'a', 'b', ' ', '"', '\\', '/', '\n', '\u{1}', 'é', '😀', '\u{7f}',
];

fn gen_node(rng: &mut Rng, depth: usize) -> Node {
    let container = depth < 4 && rng.chance(45);
    if container {
        let n = rng.below(4);
        if rng.chance(50) {
            return Node::Array((0..n).map(|_| gen_node(rng, depth + 1)).collect());
        }
        let mut keys: Vec<&str> = Vec::new();
        while keys.len() < n {
            let k = KEYS[rng.below(KEYS.len())];
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        return Node::Object(
            keys.into_iter()
                .map(|k| (k.to_owned(), gen_node(rng, depth + 1)))
                .collect(),
        );
    }
    match rng.below(6) {
        0 => Node::Null,
        1 => Node::Bool(rng.chance(50)),
        2 => Node::Int(rng.below(2001) as i64 - 1000),
        3 => Node::Float((rng.below(8_000_000) as f64 - 4_000_000.0) / 4.0),
        4 => Node::Int(i64::MIN + rng.below(3) as i64),
        _ => Node::Str(
            (0..rng.below(6))
                .map(|_| CHARS[rng.below(CHARS.len())])
                .collect(),
        ),
    }
}

/// serde_json's text of a string.
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// serde_json's text of a scalar.
fn scalar_text(node: &Node) -> String {
    match node {
        Node::Null => "null".into(),
        Node::Bool(b) => b.to_string(),
        Node::Int(i) => serde_json::to_string(i).unwrap(),
        Node::Float(f) => serde_json::to_string(f).unwrap(),
        Node::Str(s) => quoted(s),
        Node::Array(_) | Node::Object(_) => unreachable!("not a scalar"),
    }
}

/// Writes `node` as JSON text: random whitespace between tokens; with `noisy`, strings and
/// keys with needless escapes and floats spelled another way (the same values).
fn render(rng: &mut Rng, node: &Node, noisy: bool, out: &mut String) {
    let ws = |rng: &mut Rng, out: &mut String| {
        for _ in 0..rng.below(3) {
            out.push([' ', '\n', '\t', '\r'][rng.below(4)]);
        }
    };
    ws(rng, out);
    match node {
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(rng, item, noisy, out);
            }
            ws(rng, out);
            out.push(']');
        }
        Node::Object(members) => {
            out.push('{');
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                ws(rng, out);
                render_str(rng, key, noisy, out);
                ws(rng, out);
                out.push(':');
                render(rng, value, noisy, out);
            }
            ws(rng, out);
            out.push('}');
        }
        Node::Str(s) => render_str(rng, s, noisy, out),
        Node::Float(f) if noisy && rng.chance(50) => {
            // The value in hundredths, with a decimal exponent: exact, as 4·f is an integer.
            let hundredths = (*f * 100.0) as i64;
            out.push_str(&format!("{hundredths}{}-2", ["e", "E"][rng.below(2)]));
        }
        Node::Float(f) if noisy => out.push_str(&format!("{}00", scalar_text(&Node::Float(*f)))),
        scalar => out.push_str(&scalar_text(scalar)),
    }
    ws(rng, out);
}

fn render_str(rng: &mut Rng, s: &str, noisy: bool, out: &mut String) {
    if !noisy {
        out.push_str(&quoted(s));
        return;
    }
    out.push('"');
    for c in s.chars() {
        match c {
            'a' | 'b' | 'c' | 'q' | 'é' if rng.chance(50) => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            '/' if rng.chance(50) => out.push_str("\\/"),
            '😀' if rng.chance(50) => out.push_str("\\ud83d\\ude00"),
            c => {
                let q = quoted(&c.to_string());
                out.push_str(&q[1..q.len() - 1]);
            }
        }
    }
    out.push('"');
}

/// A JSON Pointer of `tokens`.
fn pointer(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Every value's path, the root's (empty) first.
fn paths(node: &Node, at: &mut Vec<String>, all: &mut Vec<Vec<String>>) {
    all.push(at.clone());
    let children: Vec<(String, &Node)> = match node {
        Node::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, n)| (i.to_string(), n))
            .collect(),
        Node::Object(members) => members.iter().map(|(k, n)| (k.clone(), n)).collect(),
        _ => Vec::new(),
    };
    for (token, child) in children {
        at.push(token);
        paths(child, at, all);
        at.pop();
    }
}

/// A random pointer: mostly a value's path, else one past a value (into a scalar, or a
/// member or item that is not there), or a path with its last token replaced.
fn random_pointer(rng: &mut Rng, all: &[Vec<String>]) -> Vec<String> {
    let mut p = all[rng.below(all.len())].clone();
    match rng.below(10) {
        0 => p.push(KEYS[rng.below(KEYS.len())].to_owned()),
        1 => p.push(rng.below(5).to_string()),
        2 if !p.is_empty() => *p.last_mut().unwrap() = KEYS[rng.below(KEYS.len())].to_owned(),
        3 if !p.is_empty() => *p.last_mut().unwrap() = format!("0{}", rng.below(3)),
        _ => {}
    }
    p
}

/// The model: writes what the transcode should write for `node` at path `at`, given the
/// picks still on their way (`None` inside a picked value, or when nothing is picked) and
/// the redactions still on their way. Returns false when the value is left out.
struct Model<'p> {
    picks: &'p [Vec<String>],
    redacts: &'p [Vec<String>],
    replacement: &'p str,
    /// The members [`Unknown::Drop`] leaves out (by path).
    dropped: &'p [Vec<String>],
}

impl Model<'_> {
    fn write(
        &self,
        node: &Node,
        at: &mut Vec<String>,
        picks: Option<Vec<usize>>,
        redacts: Vec<usize>,
        out: &mut String,
    ) -> bool {
        let depth = at.len();
        if let Some(p) = &picks
            && p.is_empty()
        {
            return false;
        }
        if redacts.iter().any(|&r| self.redacts[r].len() == depth) {
            out.push_str(self.replacement);
            return true;
        }
        let picks = picks.filter(|p| !p.iter().any(|&i| self.picks[i].len() == depth));
        let children: Vec<(String, Option<&str>, &Node)> = match node {
            Node::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, n)| (i.to_string(), None, n))
                .collect(),
            Node::Object(members) => members
                .iter()
                .map(|(k, n)| (k.clone(), Some(k.as_str()), n))
                .collect(),
            scalar => {
                out.push_str(&scalar_text(scalar));
                return true;
            }
        };
        let object = matches!(node, Node::Object(_));
        out.push(if object { '{' } else { '[' });
        let mut first = true;
        for (token, key, child) in children {
            let on = |list: &[Vec<String>], i: &usize| list[*i].get(depth) == Some(&token);
            let child_picks = picks
                .as_ref()
                .map(|p| p.iter().copied().filter(|i| on(self.picks, i)).collect());
            let child_redacts = redacts
                .iter()
                .copied()
                .filter(|i| on(self.redacts, i))
                .collect();
            at.push(token);
            let mut text = String::new();
            let written = !self.dropped.contains(at)
                && self.write(child, at, child_picks, child_redacts, &mut text);
            at.pop();
            if !written {
                continue;
            }
            if !first {
                out.push(',');
            }
            first = false;
            if let Some(key) = key {
                out.push_str(&quoted(key));
                out.push(':');
            }
            out.push_str(&text);
        }
        out.push(if object { '}' } else { ']' });
        true
    }
}

/// A schema describing `node` (members as named properties, items as a tuple prefix),
/// with each subtree left open (`{}`) with probability `open` percent and each member left
/// unnamed (allowed as an unknown member) with probability `unnamed` percent; the paths of
/// the unnamed members go to `unknown`.
struct Describe<'r> {
    rng: &'r mut Rng,
    open: usize,
    unnamed: usize,
    unknown: Vec<Vec<String>>,
}

impl Describe<'_> {
    fn schema(&mut self, node: &Node, at: &mut Vec<String>) -> Value {
        if self.rng.chance(self.open) {
            return json!({});
        }
        match node {
            Node::Null => json!({"type": "null"}),
            Node::Bool(_) => json!({"type": "boolean"}),
            Node::Int(_) => json!({"type": "integer"}),
            Node::Float(_) => json!({"type": "number"}),
            Node::Str(_) => json!({"type": "string"}),
            Node::Array(items) if items.is_empty() => json!({"type": "array", "maxItems": 0}),
            Node::Array(items) => {
                let mut prefix = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    at.push(i.to_string());
                    prefix.push(self.schema(item, at));
                    at.pop();
                }
                self.wrapped(json!({"type": "array", "prefixItems": prefix}))
            }
            Node::Object(members) => {
                let mut properties = serde_json::Map::new();
                for (key, value) in members {
                    at.push(key.clone());
                    if self.rng.chance(self.unnamed) {
                        self.unknown.push(at.clone());
                    } else {
                        properties.insert(key.clone(), self.schema(value, at));
                    }
                    at.pop();
                }
                self.wrapped(json!({"type": "object", "properties": properties}))
            }
        }
    }

    /// `schema` (a container's) as it is, or as the part or branch that writes the value:
    /// the first part of an `allOf`, the matching branch of an `anyOf` / `oneOf` beside one
    /// of the same kind, or with `null` allowed too (a per-kind union).
    fn wrapped(&mut self, schema: Value) -> Value {
        let only_null = json!({"type": "null"});
        // A branch of the same kind that no generated value matches, so that the union
        // stays one that only trying its branches decides.
        let decoy = match schema["type"].as_str() {
            Some("object") => json!({"type": "object", "required": ["not generated"]}),
            _ => json!({"type": "array", "minItems": 100}),
        };
        match self.rng.below(8) {
            0 => json!({"allOf": [schema, {"not": only_null}]}),
            1 => json!({"anyOf": [decoy, schema]}),
            2 => json!({"oneOf": [schema, decoy]}),
            3 => {
                let mut schema = schema;
                let kind = schema["type"].take();
                schema["type"] = json!([kind, "null"]);
                schema
            }
            _ => schema,
        }
    }
}

/// Codecs of `schema` on both backends, with the members its describer left unnamed.
struct Codecs {
    name: &'static str,
    backends: [(&'static str, Codec); 2],
    unknown: Vec<Vec<String>>,
}

impl Codecs {
    fn new(name: &'static str, schema: &Value, unknown: Vec<Vec<String>>) -> Codecs {
        let schema = Schema::from_json_str(&schema.to_string()).expect("a generated schema");
        let codec = |backend| Codec::with_options(&schema, Options::new().backend(backend));
        Codecs {
            name,
            backends: [
                ("interpreter", codec(Backend::Interpreter)),
                ("native", codec(Backend::Native)),
            ],
            unknown,
        }
    }

    fn described(name: &'static str, rng: &mut Rng, doc: &Node, open: usize) -> Codecs {
        let mut describe = Describe {
            rng,
            open,
            unnamed: open,
            unknown: Vec::new(),
        };
        let schema = describe.schema(doc, &mut Vec::new());
        Codecs::new(name, &schema, describe.unknown)
    }
}

#[test]
fn picks_and_redactions_match_the_model_on_every_schema_and_backend() {
    let mut rng = Rng::new(0x7a11_5eed);
    let open_everywhere = Codecs::new("{}", &json!({}), Vec::new());
    let mut checked = 0;
    for case in 0..300 {
        let doc = gen_node(&mut rng, 0);
        let noisy = case % 2 == 1;
        let mut input = String::new();
        render(&mut rng, &doc, noisy, &mut input);
        let mut all = Vec::new();
        paths(&doc, &mut Vec::new(), &mut all);
        let described = Codecs::described("described", &mut rng, &doc, 0);
        let mixed = Codecs::described("mixed", &mut rng, &doc, 25);
        for round in 0..4 {
            let picks: Vec<Vec<String>> = (0..rng.below(3))
                .map(|_| random_pointer(&mut rng, &all))
                .collect();
            let redacts: Vec<Vec<String>> = (0..rng.below(3))
                .map(|_| random_pointer(&mut rng, &all))
                .collect();
            let replacement = [json!(null), json!("***"), json!({"r": [1]})][rng.below(3)].clone();
            let unknown = [Unknown::Keep, Unknown::Drop, Unknown::Deny, Unknown::Drop][round];
            let mut options = TranscodeOptions::new()
                .replacement(&replacement)
                .unknown(unknown);
            for p in &picks {
                options = options.pick(&pointer(p)).unwrap();
            }
            for r in &redacts {
                options = options.redact(&pointer(r)).unwrap();
            }
            let mut modes = vec![(options.clone(), "rewritten")];
            if !noisy {
                modes.push((options.clone().tokens(Tokens::Verbatim), "verbatim"));
            }
            for codecs in [&open_everywhere, &described, &mixed] {
                let model = Model {
                    picks: &picks,
                    redacts: &redacts,
                    replacement: &replacement.to_string(),
                    dropped: match unknown {
                        Unknown::Drop => &codecs.unknown,
                        _ => &[],
                    },
                };
                if unknown == Unknown::Deny && !codecs.unknown.is_empty() {
                    // An unknown member fails the transcode: the same error on every backend.
                    let errors: Vec<String> = (codecs.backends.iter())
                        .map(|(_, codec)| {
                            let mut out = Vec::new();
                            let result = codec.transcode(input.as_bytes(), &options, &mut out);
                            assert!(out.is_empty(), "{input:?}");
                            result.expect_err("an unknown member is denied").to_string()
                        })
                        .collect();
                    assert_eq!(errors[0], errors[1], "case {case}: input {input:?}");
                    checked += 1;
                    continue;
                }
                let mut expected = String::new();
                let every_pick = (!picks.is_empty()).then(|| (0..picks.len()).collect());
                let all_redactions = (0..redacts.len()).collect();
                assert!(model.write(
                    &doc,
                    &mut Vec::new(),
                    every_pick,
                    all_redactions,
                    &mut expected
                ));
                for (options, mode) in &modes {
                    for (backend, codec) in &codecs.backends {
                        let mut out = Vec::new();
                        codec
                            .transcode(input.as_bytes(), options, &mut out)
                            .unwrap_or_else(|e| panic!("{input:?}: {e}"));
                        assert_eq!(
                            String::from_utf8_lossy(&out),
                            expected,
                            "case {case}, {mode}, {unknown:?}, schema {}, {backend}: input \
                             {input:?}, picks {:?}, redactions {:?}, unknown members {:?}",
                            codecs.name,
                            picks.iter().map(|p| pointer(p)).collect::<Vec<_>>(),
                            redacts.iter().map(|p| pointer(p)).collect::<Vec<_>>(),
                            codecs.unknown,
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 5_000, "{checked} transcodes checked");
}
