//! Decode, encode and transcode on a hand-written program and layout, at the interpreter
//! level (small documents: this test also runs under Miri,
//! `cargo +nightly miri test -p jitson-jit --no-default-features --test decode`).

use std::sync::Arc;

use jitson_jit::encode::encode;
use jitson_jit::interp::{Scratch, Tokens, TranscodeSpec, Unknown, decode, transcode};
use jitson_jit::ir::{
    BigInt, BigInts, ExecOptions, FailKind, Func, KeyTable, Limit, NumCheck, NumRef, Number, Op,
    Program, StrCheck, Violation,
};
use jitson_jit::layout::{FuncLayout, Layout, Shape, ShapeInfo};
use jitson_jit::view::Node;
use jitson_kernels::escape::EscapeMode;

fn shape(shape: Shape, size: u32) -> ShapeInfo {
    ShapeInfo {
        shape,
        size,
        boxed: false,
    }
}

/// `{"a": integer (required), "b": [string...], other members: any}`.
fn program() -> Program {
    let func = |name: &str, ops: Vec<Op>| Func {
        name: name.into(),
        ops,
    };
    let mut p = Program {
        num_checks: vec![NumCheck {
            integer: true,
            ..NumCheck::default()
        }],
        str_checks: vec![StrCheck::default()],
        key_tables: vec![KeyTable::new([("a".into(), true), ("b".into(), false)])],
        ..Program::default()
    };
    p.funcs
        .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
    p.funcs.push(func(
        "object",
        vec![
            Op::ObjBegin { empty: 9, table: 0 },
            Op::Key(0),
            Op::SwitchField(vec![3, 5, 7].into()),
            Op::Number(0),
            Op::Jump(8),
            Op::Call(2),
            Op::Jump(8),
            Op::SkipValue,
            Op::ObjNext { next: 1 },
            Op::ObjEnd(0),
            Op::Return,
        ],
    ));
    p.funcs.push(func(
        "array",
        vec![
            Op::ArrBegin { empty: 3 },
            Op::String(0),
            Op::ArrNext { next: 1 },
            Op::ArrEnd { min: 0, max: None },
            Op::Return,
        ],
    ));
    let object = Shape::Object {
        names: vec!["a".into(), "b".into()],
        fields: vec![(1, 8), (2, 24)],
        extras: 40,
        extra: 3,
        entry: 32,
    };
    let array = Shape::Array {
        prefix: Vec::new(),
        items: 4,
        stride: 16,
    };
    p.layout = Arc::new(Layout {
        shapes: vec![
            shape(object, 56),
            shape(Shape::Number, 16),
            shape(array, 16),
            shape(Shape::Raw, 16),
            shape(Shape::Str, 16),
        ],
        funcs: vec![
            FuncLayout {
                shape: 0,
                dst: vec![0, 0, 0],
            },
            FuncLayout {
                shape: 0,
                dst: vec![0, 0, 0, 8, 0, 24, 0, 16, 0, 0, 0],
            },
            FuncLayout {
                shape: 2,
                dst: vec![0; 5],
            },
        ],
    });
    p.verify().expect("valid program");
    p
}

const DOC: &[u8] = br#" {"c": [1, {"d": "\u00e9"}], "a": -5, "b": ["x", "y\n", ""], "b": ["z"]} "#;

#[test]
fn decode_writes_the_layout() {
    let p = program();
    let mut scratch = Scratch::new();
    let doc = decode(&p, DOC, &ExecOptions::default(), &mut scratch).unwrap();
    let root = doc.root();
    assert_eq!(root.get("a").and_then(|v| v.as_i64()), Some(-5));
    let Some(Node::Number(n)) = root.get("a").map(|v| v.node()) else {
        panic!("a number");
    };
    assert_eq!(n, Number::I64(-5));
    let b = root.get("b").unwrap();
    assert_eq!(b.len(), Some(1), "last wins");
    assert_eq!(b.at(0).and_then(|v| v.as_str()), Some("z"));
    assert_eq!(
        root.get("c").and_then(|v| v.raw()),
        Some(&br#"[1, {"d": "\u00e9"}]"#[..])
    );
    assert_eq!(root.len(), Some(3));
    let mut out = Vec::new();
    encode(root, EscapeMode::Minimal, doc.big_ints(), &mut out);
    assert_eq!(
        out,
        "{\"a\":-5,\"b\":[\"z\"],\"c\":[1,{\"d\":\"é\"}]}".as_bytes()
    );

    // Escaped strings are copied to the arena; the scratch is reused.
    let doc2 = decode(
        &p,
        br#"{"a": 1, "b": ["y\n", "plain"]}"#,
        &ExecOptions::default(),
        &mut scratch,
    )
    .unwrap();
    let b = doc2.root().get("b").unwrap();
    assert_eq!(b.at(0).and_then(|v| v.as_str()), Some("y\n"));
    assert_eq!(b.at(1).and_then(|v| v.as_str()), Some("plain"));
    assert_eq!(
        doc.root().get("a").and_then(|v| v.as_i64()),
        Some(-5),
        "first still valid"
    );
}

#[test]
fn decode_errors_are_validate_errors() {
    let p = program();
    let mut scratch = Scratch::new();
    for bad in [
        &br#"{"b": []}"#[..],
        br#"{"a": 1, "b": ["x", 2]}"#,
        br#"{"a": 1"#,
        b"[]",
    ] {
        let v = jitson_jit::validate(&p, bad, &ExecOptions::default(), &mut scratch).unwrap_err();
        let d = decode(&p, bad, &ExecOptions::default(), &mut scratch).unwrap_err();
        assert_eq!(d, v);
    }
    let deep = "[".repeat(if cfg!(miri) { 300 } else { 100_000 });
    let e = decode(
        &p,
        format!(r#"{{"a": 1, "c": {deep}"#).as_bytes(),
        &ExecOptions::default(),
        &mut scratch,
    )
    .unwrap_err();
    assert_eq!(e.kind, FailKind::DepthLimitExceeded);
}

#[test]
fn transcode_writes_compact_json() {
    let p = program();
    let mut scratch = Scratch::new();
    let mut out = b"x".to_vec();
    let spec = TranscodeSpec {
        unknown: Unknown::Drop,
        replacement: b"0".to_vec(),
        redact: vec![vec!["b".into(), "0".into()]],
        ..TranscodeSpec::default()
    };
    transcode(
        &p,
        DOC,
        &ExecOptions::default(),
        &spec,
        &mut scratch,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, br#"x{"a":-5,"b":[0,"y\n",""],"b":[0]}"#);
    let e = transcode(
        &p,
        br#"{"a": 1, "b": [2]}"#,
        &ExecOptions::default(),
        &spec,
        &mut scratch,
        &mut out,
    );
    assert!(e.is_err());
    assert_eq!(
        out, br#"x{"a":-5,"b":[0,"y\n",""],"b":[0]}"#,
        "unchanged on error"
    );
}

/// Verbatim tokens: keys, strings and numbers as written, open values minified; pointers
/// reach into open values, which are then walked token by token.
#[test]
fn transcode_verbatim_keeps_tokens_and_reaches_into_open_values() {
    let p = program();
    let mut scratch = Scratch::new();
    let input = br#" { "a" : 1.0e0 , "b": ["\u0079", "z"], "c": {"k": [1.50, "\n"], "m": {}}, "\u0064": [ ] } "#;
    let run = |spec: &TranscodeSpec, scratch: &mut Scratch| {
        let mut out = Vec::new();
        transcode(&p, input, &ExecOptions::default(), spec, scratch, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    let verbatim = TranscodeSpec {
        tokens: Tokens::Verbatim,
        ..TranscodeSpec::default()
    };
    assert_eq!(
        run(&verbatim, &mut scratch),
        r#"{"a":1.0e0,"b":["\u0079","z"],"c":{"k":[1.50,"\n"],"m":{}},"\u0064":[]}"#
    );
    let pointed = TranscodeSpec {
        redact: vec![vec!["c".into(), "k".into(), "0".into()], vec!["d".into()]],
        replacement: b"0".to_vec(),
        ..verbatim.clone()
    };
    assert_eq!(
        run(&pointed, &mut scratch),
        r#"{"a":1.0e0,"b":["\u0079","z"],"c":{"k":[0,"\n"],"m":{}},"\u0064":0}"#
    );
    let rewritten = TranscodeSpec {
        tokens: Tokens::Rewritten,
        ..pointed
    };
    assert_eq!(
        run(&rewritten, &mut scratch),
        r#"{"a":1.0,"b":["y","z"],"c":{"k":[0,"\n"],"m":{}},"d":0}"#
    );
}

fn with_big_ints(big_ints: BigInts) -> ExecOptions {
    ExecOptions {
        big_ints,
        ..ExecOptions::default()
    }
}

/// `BigInts::Raw`: integers beyond 64 bits are kept as their text at number ops and copied
/// verbatim out of raw values; every other number is read as before.
#[test]
fn raw_big_integers_decode_encode_and_transcode_verbatim() {
    let p = program();
    let raw = with_big_ints(BigInts::Raw);
    let mut scratch = Scratch::new();
    let input = br#"{"a": -9223372036854775809, "c": [18446744073709551616, -0, 1.50, 18446744073709551615], "b": ["x"]}"#;
    let doc = decode(&p, input, &raw, &mut scratch).unwrap();
    let a = doc.root().get("a").unwrap();
    let Node::BigInt(big) = a.node() else {
        panic!("a big integer: {:?}", a.node());
    };
    assert_eq!(big.as_str(), "-9223372036854775809");
    assert_eq!(Some(big), BigInt::new("-9223372036854775809"));
    assert!(big.is_negative());
    assert_eq!(big.magnitude(), "9223372036854775809");
    assert_eq!(a.as_big_int(), Some(big));
    assert_eq!((a.as_i64(), a.as_u64()), (None, None));
    assert_eq!(a.as_f64(), Some(-9223372036854775809.0));
    let mut out = Vec::new();
    encode(doc.root(), EscapeMode::Minimal, doc.big_ints(), &mut out);
    let expected = br#"{"a":-9223372036854775809,"b":["x"],"c":[18446744073709551616,-0.0,1.5,18446744073709551615]}"#;
    assert_eq!(out, expected);
    out.clear();
    let spec = TranscodeSpec::default();
    transcode(&p, input, &raw, &spec, &mut scratch, &mut out).unwrap();
    let transcoded = br#"{"a":-9223372036854775809,"c":[18446744073709551616,-0.0,1.5,18446744073709551615],"b":["x"]}"#;
    assert_eq!(out, transcoded);

    // A 100-digit integer, and numbers that fit stay numbers.
    let hundred = format!("1{}", "0".repeat(99));
    let text = format!(r#"{{"a": {hundred}}}"#);
    let doc = decode(&p, text.as_bytes(), &raw, &mut scratch).unwrap();
    let a = doc.root().get("a").unwrap();
    assert_eq!(a.as_big_int().map(BigInt::as_str), Some(hundred.as_str()));
    assert_eq!(a.as_f64(), Some(1e99));
    for (text, n) in [
        (r#"{"a": 18446744073709551615}"#, Number::U64(u64::MAX)),
        (r#"{"a": -9223372036854775808}"#, Number::I64(i64::MIN)),
        (r#"{"a": -0}"#, Number::F64(-0.0)),
    ] {
        let doc = decode(&p, text.as_bytes(), &raw, &mut scratch).unwrap();
        let Some(Node::Number(got)) = doc.root().get("a").map(|v| v.node()) else {
            panic!("a number in {text}");
        };
        assert_eq!(
            (got, got.as_f64().is_sign_negative()),
            (n, n.as_f64().is_sign_negative())
        );
    }
    let e = decode(&p, br#"{"a": 018446744073709551616}"#, &raw, &mut scratch).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (
            FailKind::Syntax(jitson_jit::ir::ErrorKind::InvalidNumber),
            7
        )
    );
}

/// The same big integers under the other policies: the nearest `f64`, or an error, also
/// inside raw (`{}`) values.
#[test]
fn other_policies_on_big_integers() {
    let p = program();
    let mut scratch = Scratch::new();
    let input = br#"{"a": 1, "c": [18446744073709551616]}"#;
    let f64s = with_big_ints(BigInts::F64);
    let doc = decode(&p, input, &f64s, &mut scratch).unwrap();
    let mut out = Vec::new();
    encode(doc.root(), EscapeMode::Minimal, doc.big_ints(), &mut out);
    assert_eq!(out, br#"{"a":1,"c":[1.8446744073709552e+19]}"#);
    let error = with_big_ints(BigInts::Error);
    for run in [
        jitson_jit::validate(&p, input, &error, &mut scratch),
        decode(&p, input, &error, &mut scratch).map(drop),
    ] {
        let e = run.unwrap_err();
        assert_eq!((e.kind, e.offset), (FailKind::NumberOutOfRange, 34));
    }
    let e = decode(&p, br#"{"a": -9223372036854775809}"#, &error, &mut scratch).unwrap_err();
    assert_eq!((e.kind, e.offset), (FailKind::NumberOutOfRange, 25));
}

/// Bounds and predicates see a big integer exactly.
#[test]
fn raw_big_integers_meet_checks_exactly() {
    let mut p = program();
    let at = |value| Limit {
        value,
        exclusive: false,
    };
    p.num_checks[0].minimum = Some(at(Number::I64(i64::MIN)));
    p.num_checks[0].maximum = Some(at(Number::F64(18446744073709551616.0)));
    p.num_checks[0].multiple_of = Some(Arc::new(|n: NumRef<'_>| match n {
        NumRef::BigInt(b) => b.magnitude().ends_with('6'),
        NumRef::Number(_) => true,
    }));
    let raw = with_big_ints(BigInts::Raw);
    let mut scratch = Scratch::new();
    let run = |text: &str, scratch: &mut Scratch| {
        jitson_jit::validate(&p, text.as_bytes(), &raw, scratch).map_err(|e| e.kind)
    };
    assert_eq!(run(r#"{"a": 18446744073709551616}"#, &mut scratch), Ok(()));
    let v = |v| Err(FailKind::Violation(v));
    assert_eq!(
        run(r#"{"a": 18446744073709551617}"#, &mut scratch),
        v(Violation::Maximum)
    );
    assert_eq!(
        run(r#"{"a": -9223372036854775809}"#, &mut scratch),
        v(Violation::Minimum)
    );
    assert_eq!(run(r#"{"a": -9223372036854775808}"#, &mut scratch), Ok(()));
    p.num_checks[0].minimum = None;
    p.num_checks[0].maximum = None;
    let run = |text: &str, scratch: &mut Scratch| {
        jitson_jit::validate(&p, text.as_bytes(), &raw, scratch).map_err(|e| e.kind)
    };
    assert_eq!(run(r#"{"a": -9223372036854775816}"#, &mut scratch), Ok(()));
    assert_eq!(
        run(r#"{"a": -9223372036854775815}"#, &mut scratch),
        v(Violation::MultipleOf)
    );
}

#[test]
fn verify_checks_the_layout() {
    let good = program();
    let mut p = good.clone();
    Arc::make_mut(&mut p.layout).funcs[1].dst.pop();
    assert_eq!(
        p.verify().unwrap_err(),
        "layout f1: one destination per op expected"
    );
    let mut p = good.clone();
    Arc::make_mut(&mut p.layout).funcs[2].shape = 0;
    assert_eq!(
        p.verify().unwrap_err(),
        "f2 @0: container op in a function of another shape"
    );
    let mut p = good.clone();
    Arc::make_mut(&mut p.layout).shapes[0].size = 40;
    assert_eq!(p.verify().unwrap_err(), "layout shape 0: bad shape");
    let mut p = good;
    Arc::make_mut(&mut p.layout).funcs[0].shape = 9;
    assert_eq!(p.verify().unwrap_err(), "layout f0: shape out of range");
}
