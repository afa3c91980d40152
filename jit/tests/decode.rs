//! Decode, encode and transcode on a hand-written program and layout, at the interpreter
//! level (small documents: this test also runs under Miri,
//! `cargo +nightly miri test -p jitson-jit --test decode`).

use std::sync::Arc;

use jitson_jit::encode::encode;
use jitson_jit::interp::{Scratch, TranscodeSpec, Unknown, decode, transcode};
use jitson_jit::ir::{
    ExecOptions, FailKind, Func, KeyTable, NumCheck, Number, Op, Program, StrCheck,
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
    encode(root, EscapeMode::Minimal, &mut out);
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
