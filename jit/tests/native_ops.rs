//! The native backend against the interpreter on hand-written programs that use every op:
//! identical `Result<(), Failure>` (kind, offset, path) on fixed inputs, on every prefix of
//! them (each in its own allocation, for valgrind), and on seeded random mutations, under
//! several option sets.

// Miri cannot run JIT code (`mprotect` is unsupported); the interpreter is its target.
#![cfg(all(feature = "native", not(miri)))]

mod native_support;

use jitson_jit::ir::{
    BigInts, Discriminator, DuplicateKeys, ExecOptions, Func, KeyTable, Kinds, Limit, NumCheck,
    Number, Op, Program, StrCheck, StrEnum, Violation,
};
use native_support::{assert_same, assert_same_decode, assert_same_decode_with, mutations};
use std::sync::Arc;

fn func(name: &str, ops: Vec<Op>) -> Func {
    Func {
        name: name.into(),
        ops,
    }
}

/// Appends function 0, `doc` (calls function 1, then the input's end), and function 1,
/// `object`, of `ops`.
fn push_doc_and_object(p: &mut Program, ops: Vec<Op>) {
    p.funcs
        .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
    p.funcs.push(func("object", ops));
}

/// `{"a": integer >= 0 (required), "b": [string...], "name..long": bool}`.
fn object_program() -> Program {
    let mut p = Program {
        num_checks: vec![NumCheck {
            integer: true,
            minimum: Some(Limit {
                value: Number::U64(0),
                exclusive: false,
            }),
            maximum: Some(Limit {
                value: Number::F64(1e6),
                exclusive: true,
            }),
            multiple_of: Some(Arc::new(|n| n.as_f64() % 7.0 != 3.0)),
        }],
        str_checks: vec![StrCheck::default()],
        key_tables: vec![KeyTable::new([
            ("a".into(), true),
            ("b".into(), false),
            ("a_much_longer_name".into(), true),
            ("abcd".into(), false),
            ("abc".into(), false),
        ])],
        ..Program::default()
    };
    push_doc_and_object(
        &mut p,
        vec![
            Op::ObjBegin {
                empty: 13,
                table: 0,
            },
            Op::Key(0),
            Op::SwitchField(vec![3, 5, 7, 8, 10, 11].into()),
            Op::Number(0),
            Op::Jump(12),
            Op::Call(2),
            Op::Jump(12),
            Op::Bool,
            Op::Null,
            Op::Jump(12),
            Op::SkipValue,
            Op::Fail(Violation::UnknownField),
            Op::ObjNext { next: 1 },
            Op::ObjEnd(0),
            Op::Return,
        ],
    );
    p.funcs.push(func(
        "array",
        vec![
            Op::ArrBegin { empty: 3 },
            Op::String(0),
            Op::ArrNext { next: 1 },
            Op::ArrEnd {
                min: 1,
                max: Some(3),
            },
            Op::Return,
        ],
    ));
    p.verify().expect("valid program");
    p
}

/// A recursive tree `[tree...]` or a string with checks, or a tuple `[number, bool, any...]`,
/// chosen by `Dispatch`.
fn dispatch_program() -> Program {
    let mut p = Program {
        num_checks: vec![NumCheck::default()],
        str_checks: vec![StrCheck {
            min_length: 2,
            max_length: Some(5),
            pattern: Some(Arc::new(|s: &str| !s.contains('x'))),
            format: Some(Arc::new(|s: &str| !s.contains('y'))),
            ascii: None,
        }],
        str_enums: vec![StrEnum::new(vec![
            "red".into(),
            "gr\u{e9}en".into(),
            "".into(),
        ])],
        ..Program::default()
    };
    p.funcs
        .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
    p.funcs.push(func(
        "any",
        vec![
            Op::Dispatch(Box::new([1, 3, 5, 7, 9, 11])),
            Op::Null,
            Op::Return,
            Op::Bool,
            Op::Return,
            Op::Number(0),
            Op::Return,
            Op::String(0),
            Op::Return,
            Op::Call(2),
            Op::Return,
            Op::Fail(Violation::Type {
                expected: Kinds::ARRAY.or(Kinds::STRING),
            }),
            Op::Return,
        ],
    ));
    p.funcs.push(func(
        "tuple",
        vec![
            Op::ArrBegin { empty: 9 },
            Op::StrEnum(0),
            Op::ArrNext { next: 4 },
            Op::Jump(9),
            Op::Bool,
            Op::ArrNext { next: 7 },
            Op::Jump(9),
            Op::Call(1),
            Op::ArrNext { next: 7 },
            Op::ArrEnd { min: 0, max: None },
            Op::Return,
        ],
    ));
    p.verify().expect("valid program");
    p
}

/// `oneOf [integer, string]`, `anyOf` through `Try`, a tagged union through `Discriminate`,
/// and a raw predicate.
fn union_program() -> Program {
    let mut p = Program {
        num_checks: vec![
            NumCheck {
                integer: true,
                ..NumCheck::default()
            },
            NumCheck::default(),
        ],
        str_checks: vec![StrCheck::default()],
        raw_preds: vec![Arc::new(|raw: &[u8], _| match raw {
            b"[]" | b"{}" => Err(Violation::Enum),
            _ => Ok(()),
        })],
        key_tables: vec![
            KeyTable::new([("kind".into(), true), ("v".into(), false)]),
            KeyTable::new([]),
        ],
        discriminators: vec![Discriminator {
            property: Some("kind".into()),
            tags: StrEnum::new(vec!["int".into(), "str".into()]),
        }],
        ..Program::default()
    };
    // f0: doc = one-of at the root, then EOF.
    p.funcs
        .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
    // f1: oneOf [f2 integer-or-tagged, f3 string-or-raw]
    p.funcs.push(func(
        "one-of",
        vec![
            Op::SavePos(0),
            Op::SetReg(1, 0),
            Op::Try {
                func: 2,
                on_fail: 5,
            },
            Op::IncReg(1),
            Op::SavePos(2),
            Op::RestorePos(0),
            Op::Try {
                func: 3,
                on_fail: 10,
            },
            Op::IncReg(1),
            Op::SavePos(2),
            Op::Jump(10),
            Op::OneOfEnd {
                count: 1,
                start: 0,
                end: 2,
            },
            Op::Return,
        ],
    ));
    // f2: anyOf [integer, tagged object]
    p.funcs.push(func(
        "any-of",
        vec![
            Op::SavePos(0),
            Op::Try {
                func: 4,
                on_fail: 3,
            },
            Op::Return,
            Op::RestorePos(0),
            Op::Try {
                func: 5,
                on_fail: 6,
            },
            Op::Return,
            Op::RestorePos(0),
            Op::Fail(Violation::AnyOf),
            Op::Return,
        ],
    ));
    // f3: string, or any value the raw predicate accepts
    p.funcs.push(func(
        "string-or-raw",
        vec![
            Op::Dispatch(Box::new([4, 4, 4, 2, 4, 4])),
            Op::Return,
            Op::String(0),
            Op::Return,
            Op::RawCheck {
                pred: 0,
                walked: false,
            },
            Op::Return,
        ],
    ));
    p.funcs
        .push(func("integer", vec![Op::Number(0), Op::Return]));
    // f5: tagged object {"kind": "int"|"str", "v": ...}
    p.funcs.push(func(
        "tagged",
        vec![
            Op::Discriminate {
                disc: 0,
                targets: vec![1, 3].into(),
                unmatched: 5,
                absent: 7,
                missing: 7,
            },
            Op::Call(6),
            Op::Return,
            Op::Call(7),
            Op::Return,
            Op::Fail(Violation::Enum),
            Op::Return,
            Op::Fail(Violation::Never),
            Op::Return,
        ],
    ));
    for (name, value_op) in [("tagged-int", Op::Number(1)), ("tagged-str", Op::String(0))] {
        p.funcs.push(func(
            name,
            vec![
                Op::ObjBegin { empty: 8, table: 0 },
                Op::Key(0),
                Op::SwitchField(vec![3, 5, 6].into()),
                Op::SkipValue,
                Op::Jump(7),
                value_op,
                Op::Jump(7),
                Op::SkipValue,
                Op::ObjNext { next: 1 },
                Op::ObjEnd(0),
                Op::Return,
            ],
        ));
    }
    // Fix the ObjNext / ObjEnd labels: empty goes to ObjEnd at 9, members loop at 8.
    for f in &mut p.funcs[6..8] {
        f.ops[0] = Op::ObjBegin { empty: 9, table: 0 };
        f.ops[4] = Op::Jump(8);
        f.ops[6] = Op::Jump(8);
        f.ops[7] = Op::SkipValue;
    }
    p.verify().expect("valid program");
    p
}

fn option_sets() -> Vec<ExecOptions> {
    vec![
        ExecOptions::default(),
        ExecOptions {
            max_depth: 3,
            duplicate_keys: DuplicateKeys::Deny,
            big_ints: BigInts::Error,
        },
        ExecOptions {
            max_depth: 1,
            ..ExecOptions::default()
        },
    ]
}

fn check_all(program: &Program, inputs: &[&str]) {
    check_with(program, inputs, &option_sets());
}

fn check_with(program: &Program, inputs: &[&str], option_sets: &[ExecOptions]) {
    let native = jitson_jit::native::compile(program).expect("compiles");
    for options in option_sets {
        for input in inputs {
            let bytes = input.as_bytes();
            for end in 0..=bytes.len() {
                assert_same(program, &native, &bytes[..end], options);
            }
            for m in mutations(bytes, 200, input.len() as u64) {
                assert_same(program, &native, &m, options);
            }
        }
    }
}

/// Integers beyond 64 bits under each policy, at a bounded integer op (bounds at 0 and
/// 1e6, a predicate) and inside skipped values.
#[test]
fn big_integers_under_every_policy() {
    let policies: Vec<ExecOptions> = [BigInts::F64, BigInts::Error, BigInts::Raw]
        .into_iter()
        .map(|big_ints| ExecOptions {
            big_ints,
            ..ExecOptions::default()
        })
        .collect();
    let hundred = format!("1{}", "0".repeat(99));
    let with_big = format!(r#"{{"a": {hundred}, "a_much_longer_name": true, "c": [-{hundred}]}}"#);
    check_with(
        &object_program(),
        &[
            r#"{"a": 18446744073709551616, "a_much_longer_name": true}"#,
            r#"{"a": -9223372036854775809, "a_much_longer_name": true}"#,
            r#"{"a": 18446744073709551615, "a_much_longer_name": false}"#,
            r#"{"a": 1, "a_much_longer_name": true, "x": {"y": [18446744073709551616]}}"#,
            r#"{"a": 1, "a_much_longer_name": true, "x": -9223372036854775809}"#,
            r#"{"a": -0, "a_much_longer_name": true, "x": 018446744073709551616}"#,
            &with_big,
        ],
        &policies,
    );
}

#[test]
fn objects_arrays_scalars() {
    check_all(
        &object_program(),
        &[
            r#" {"a": 1, "b": ["x", "y"], "c": [1], "a_much_longer_name": true} "#,
            r#"{"a_much_longer_name": null, "b": [], "a": 0, "abc": true, "abcd": null}"#,
            r#"{"a": -1, "a_much_longer_name": false}"#,
            r#"{"a": 3, "a_much_longer_name": false}"#,
            r#"{"a": 1.0e3, "a": 2, "a_much_longer_name": false, "b": ["x", 2]}"#,
            r#"{"b": ["a\u0041\n", "\ud83d\ude00", "x", "y"], "a": 99999999999999999999}"#,
            r#"{"\u0061": 5, "a_much_longer_name": true, "b\"": 1}"#,
            "{\"a\":\t1 ,\n\"a_much_longer_name\" : true }x",
            r#"{"a": 1,}"#,
            r#"{"a" 1}"#,
            r#"["a"]"#,
            r#"{"a": 1e400}"#,
            "{\"b\": [\"\u{1}\"]}",
            r#"{}"#,
        ],
    );
}

/// An object whose `Key` is not followed by a field switch (every member's value is a
/// bounded integer): the key op records the field itself, for members in order, with one
/// or two left out (the next name is tried before the scan), and out of order; the
/// presence bits (which the required names check) and the error paths (which name the
/// field) are the interpreter's.
#[test]
fn keys_without_a_field_switch() {
    let mut p = Program {
        num_checks: vec![NumCheck {
            integer: true,
            maximum: Some(Limit {
                value: Number::U64(5),
                exclusive: false,
            }),
            ..NumCheck::default()
        }],
        key_tables: vec![KeyTable::new([
            ("a".into(), true),
            ("bb".into(), true),
            ("ccc".into(), true),
            ("dddd".into(), false),
        ])],
        ..Program::default()
    };
    push_doc_and_object(
        &mut p,
        vec![
            Op::ObjBegin { empty: 4, table: 0 },
            Op::Key(0),
            Op::Number(0),
            Op::ObjNext { next: 1 },
            Op::ObjEnd(0),
            Op::Return,
        ],
    );
    p.verify().expect("valid program");
    check_all(
        &p,
        &[
            r#"{"a":1,"bb":2,"ccc":3,"dddd":4}"#,
            r#"{"a":1,"ccc":3,"dddd":4}"#,
            r#"{"a":1,"bb":2,"dddd":4}"#,
            r#"{"a":1,"dddd":4,"bb":2,"ccc":3}"#,
            r#"{"a":1,"ccc":9}"#,
            r#"{"bb":2,"dddd":9}"#,
            r#"{"a":1,"bb":2,"ccc":3,"e":4}"#,
        ],
    );
}

#[test]
fn dispatch_tuples_enums_recursion() {
    check_all(
        &dispatch_program(),
        &[
            r#"["red", true, ["gr\u00e9en", false, "abc", 12.5, null]]"#,
            r#"[[[[[[["red"]]]]]]]"#,
            r#"["blue"]"#,
            r#"["", false, "abxy", "a"]"#,
            r#"["", false, "aby", "a"]"#,
            r#"["", false, "a\u0079b"]"#,
            r#"[1, true]"#,
            r#"{"x": 1}"#,
            "\"toolongstring\"",
            "-0.5e-3",
            "nul",
            "tru",
            "falsy",
            "",
            "  ]",
        ],
    );
}

#[test]
fn unions_try_discriminate_raw() {
    check_all(
        &union_program(),
        &[
            "12",
            "12.5",
            r#""s""#,
            "[]",
            "[1]",
            "{}",
            r#"{"kind": "int", "v": 3}"#,
            r#"{"v": 3.5, "kind": "int"}"#,
            r#"{"kind": "str", "v": 3}"#,
            r#"{"kind": "str", "v": "x", "v": "y"}"#,
            r#"{"kind": "other"}"#,
            r#"{"kind": 7}"#,
            r#"{"nokind": [1, {"a": [2]}]}"#,
            r#"{"kind": "int", "v": [[[[1]]]]}"#,
            r#"{"kind" "int"}"#,
        ],
    );
}

#[test]
fn deep_nesting_matches_with_every_limit() {
    let p = dispatch_program();
    let native = jitson_jit::native::compile(&p).expect("compiles");
    let n = 5_000;
    let deep = "[".repeat(n) + &"]".repeat(n);
    for max_depth in [0, 1, 128, 1_000, 100_000] {
        let options = ExecOptions {
            max_depth,
            ..ExecOptions::default()
        };
        assert_same(&p, &native, deep.as_bytes(), &options);
    }
}

/// Errors deep inside arrays and objects report the whole path, past the path stack's
/// first growth (32 open containers) and its second (64): the interpreter's path, of the
/// nesting's length, with the right index or key at every level. One scratch serves every
/// run, so a run after a deep one starts with the grown stack (and its stale segments).
#[test]
fn deep_error_paths_survive_path_stack_growth() {
    use jitson_jit::ir::{Failure, PathSeg};
    let p = any_value_program();
    let native = jitson_jit::native::compile(&p).expect("compiles");
    let mut scratch = jitson_jit::native::Scratch::new();
    // Level i opens an array whose item i % 3 holds the next level, or an object whose
    // key "k{i}" (after another member) does; the innermost value is `tru`.
    let nested = |levels: usize| {
        let mut open = String::new();
        let mut close = String::new();
        for i in 0..levels {
            if i % 2 == 0 {
                open.push('[');
                open.push_str(&"0, ".repeat(i % 3));
                close.insert(0, ']');
            } else {
                open.push_str(&format!("{{\"x\": 1, \"k{i}\": "));
                close.insert(0, '}');
            }
        }
        format!("{open}tru{close}")
    };
    let run = |input: &[u8], options: &ExecOptions, scratch: &mut jitson_jit::native::Scratch| {
        let expected = jitson_jit::interp::validate(
            &p,
            input,
            options,
            &mut jitson_jit::interp::Scratch::new(),
        );
        let got = native.validate(input, options, scratch);
        assert_eq!(got, expected, "{}", String::from_utf8_lossy(input));
        got.expect_err("every input here fails")
    };
    let key_of = |input: &[u8], seg: &PathSeg| match *seg {
        PathSeg::Key { start, end } => String::from_utf8_lossy(&input[start..end]).into_owned(),
        ref other => format!("{other:?}"),
    };
    let options = ExecOptions::default();
    for levels in [31, 32, 33, 63, 64, 65, 100, 3, 1] {
        let input = nested(levels);
        let Failure { path, .. } = run(input.as_bytes(), &options, &mut scratch);
        assert_eq!(path.len(), levels, "{input}");
        for (i, seg) in path.iter().enumerate() {
            if i % 2 == 0 {
                assert_eq!(*seg, PathSeg::Index((i % 3) as u64), "level {i} of {input}");
            } else {
                assert_eq!(key_of(input.as_bytes(), seg), format!("k{i}"), "level {i}");
            }
        }
    }
    // The depth limit at and around the growth points: the limit's error, the interpreter's
    // path, whether the stack grew or not.
    for max_depth in [31, 32, 33, 64, 65] {
        let limited = ExecOptions {
            max_depth,
            ..ExecOptions::default()
        };
        let input = nested(max_depth as usize + 2);
        let failure = run(
            input.as_bytes(),
            &limited,
            &mut jitson_jit::native::Scratch::new(),
        );
        assert_eq!(failure.path.len(), max_depth as usize, "{input}");
        run(input.as_bytes(), &limited, &mut scratch);
    }
}

#[test]
fn clif_lists_every_function() {
    let p = union_program();
    let text = jitson_jit::native::clif(&p).expect("clif");
    for i in 0..p.funcs.len() {
        assert!(text.contains(&format!("; f{i}: ")), "{text}");
    }
    assert!(text.contains("function"), "{text}");
    // With a layout, the decode and encode tiers' functions too: the root shape's encode
    // function, and the array and map shapes' (the union's leaves are written in place).
    let p = any_value_program();
    let text = jitson_jit::native::clif(&p).expect("clif");
    assert!(text.contains("; d0: "), "{text}");
    for shape in [0, 5, 6] {
        assert!(
            text.contains(&format!("; e{shape}: encode of shape {shape}\n")),
            "{text}"
        );
    }
    assert!(
        !text.contains("; e3: "),
        "numbers are written in place: {text}"
    );
}

#[test]
fn predicate_panics_cross_native_frames_as_panics() {
    let mut p = union_program();
    p.raw_preds[0] = Arc::new(|_: &[u8], _| panic!("predicate bug"));
    let native = jitson_jit::native::compile(&p).expect("compiles");
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut scratch = jitson_jit::native::Scratch::new();
        native.validate(b"[1]", &ExecOptions::default(), &mut scratch)
    }));
    assert!(result.is_err(), "the predicate's panic is resumed");
}

/// Any JSON value as a union on its kind (`Dispatch`), arrays of it, and maps of it, with
/// a layout: decode writes tags, scalars, strings, items and extra members.
fn any_value_program() -> Program {
    use jitson_jit::ir::NO_DST as NO;
    use jitson_jit::layout::{FuncLayout, Layout, Shape, ShapeInfo};
    let shape = |shape: Shape, size: u32| ShapeInfo {
        shape,
        size,
        boxed: false,
    };
    let mut p = Program {
        num_checks: vec![NumCheck::default()],
        str_checks: vec![StrCheck::default()],
        key_tables: vec![KeyTable::new([])],
        ..Program::default()
    };
    p.funcs
        .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
    p.funcs.push(func(
        "any",
        vec![
            Op::Dispatch(Box::new([1, 3, 5, 7, 9, 11])),
            Op::Null,
            Op::Return,
            Op::Bool,
            Op::Return,
            Op::Number(0),
            Op::Return,
            Op::String(0),
            Op::Return,
            Op::Call(2),
            Op::Return,
            Op::Call(3),
            Op::Return,
        ],
    ));
    p.funcs.push(func(
        "array",
        vec![
            Op::ArrBegin { empty: 3 },
            Op::Call(1),
            Op::ArrNext { next: 1 },
            Op::ArrEnd { min: 0, max: None },
            Op::Return,
        ],
    ));
    p.funcs.push(func(
        "map",
        vec![
            Op::ObjBegin { empty: 5, table: 0 },
            Op::Key(0),
            Op::SwitchField(vec![3].into()),
            Op::Call(1),
            Op::ObjNext { next: 1 },
            Op::ObjEnd(0),
            Op::Return,
        ],
    ));
    p.layout = Arc::new(Layout {
        shapes: vec![
            shape(Shape::Union((1..=6).map(|s| (s, 8)).collect()), 24),
            shape(Shape::Null, 0),
            shape(Shape::Bool, 8),
            shape(Shape::Number, 16),
            shape(Shape::Str, 16),
            shape(
                Shape::Array {
                    prefix: Vec::new(),
                    items: 0,
                    stride: 24,
                },
                16,
            ),
            shape(
                Shape::Object {
                    names: Vec::new(),
                    fields: Vec::new(),
                    extras: 0,
                    extra: 0,
                    entry: 40,
                },
                16,
            ),
        ],
        funcs: vec![
            FuncLayout {
                shape: 0,
                dst: vec![0, NO, NO],
            },
            FuncLayout {
                shape: 0,
                dst: vec![0, 8, NO, 8, NO, 8, NO, 8, NO, 8, NO, 8, NO],
            },
            FuncLayout {
                shape: 5,
                dst: vec![0; 5],
            },
            FuncLayout {
                shape: 6,
                dst: vec![0, 0, 0, 16, 0, 0, 0],
            },
        ],
    });
    p.verify().expect("valid program");
    p
}

/// Inputs for the decode tests of [`any_value_program`]: nested arrays, maps with extra
/// members, escapes, big integers, and truncated documents.
const ANY_VALUE_INPUTS: [&str; 6] = [
    r#"{"a": [1, -2, 3.5, true, false, null], "b\n": {"c": "d\u00e9", "": []}, "a": {}}"#,
    r#"[[[[["x", "y\"z", 18446744073709551616, -0, 1e-7]]]], {}, [], {"k": [{}]}]"#,
    r#"["\ud83d\ude00", "\ud800", "tab\tin", 12345678901234567890123]"#,
    "  \"plain\"  ",
    "[1, 2,",
    "{\"a\" 1}",
];

#[test]
fn decode_matches_the_interpreter() {
    let p = any_value_program();
    let native = jitson_jit::native::compile(&p).expect("compiles");
    for options in option_sets() {
        for input in ANY_VALUE_INPUTS {
            let bytes = input.as_bytes();
            for end in 0..=bytes.len() {
                assert_same_decode(&p, &native, &bytes[..end], &options);
            }
            for m in mutations(bytes, 300, input.len() as u64) {
                assert_same_decode(&p, &native, &m, &options);
            }
        }
    }
    // Big arrays grow their item buffer, and a reused scratch keeps no state.
    let big = format!("[{}0]", "[1, {\"k\": \"v\"}, \"s\"], ".repeat(2_000));
    let mut scratch = jitson_jit::native::Scratch::new();
    for _ in 0..2 {
        let doc = native
            .decode(big.as_bytes(), &ExecOptions::default(), &mut scratch)
            .expect("decodes");
        assert_eq!(doc.root().len(), Some(2_001));
    }
    assert_same_decode(&p, &native, big.as_bytes(), &ExecOptions::default());
}

/// One scratch for every run: arrays reuse item buffers that earlier documents (failed and
/// unwound ones included) filled, extra members and arrays take turns on a buffer, and big
/// arrays grow a reused buffer; each result is still the interpreter's.
#[test]
fn decode_with_a_reused_scratch_matches_the_interpreter() {
    let p = any_value_program();
    let native = jitson_jit::native::compile(&p).expect("compiles");
    let mut scratch = jitson_jit::native::Scratch::new();
    let options = ExecOptions::default();
    let big = format!("[{}0]", "[1, {\"k\": \"v\"}, \"s\"], ".repeat(300));
    // The first inner array grows its buffer; the ones after it reuse the grown buffer.
    let regrow = format!(
        "[[{}], [1, 2], {{\"a\": [3], \"b\": 4}}, [5]]",
        "6, ".repeat(12) + "7"
    );
    let mut inputs: Vec<Vec<u8>> = vec![big.into_bytes(), regrow.into_bytes()];
    for input in ANY_VALUE_INPUTS {
        let bytes = input.as_bytes();
        inputs.extend((0..=bytes.len()).map(|end| bytes[..end].to_vec()));
        inputs.extend(mutations(bytes, 200, 7 + input.len() as u64));
    }
    for _ in 0..2 {
        for input in &inputs {
            assert_same_decode_with(&p, &native, input, &options, &mut scratch);
        }
        inputs.reverse();
    }
}

/// The inline whitespace window (16 bytes at a time) takes exactly JSON's four whitespace
/// bytes: every byte value, at every place of a run that fills and overflows the window,
/// between every kind of token (before a value, a key, a comma, a colon and a close), on
/// validate and decode; each result must be the interpreter's.
#[test]
fn whitespace_windows_take_exactly_the_four_json_spaces() {
    const RUN: &str = " \n\t\r  \r\n\t\t      \n  \t ";
    let objects = object_program();
    let values = any_value_program();
    let native_objects = jitson_jit::native::compile(&objects).expect("compiles");
    let native_values = jitson_jit::native::compile(&values).expect("compiles");
    let options = ExecOptions::default();
    let join = |parts: &[&[u8]]| parts.concat();
    for byte in 0..=u8::MAX {
        let space = b" \t\n\r".contains(&byte);
        for at in 0..RUN.len() {
            let mut run = RUN.as_bytes().to_vec();
            run[at] = byte;
            // Runs that end at the byte and runs past one window, before each token.
            for ws in [&run[..=at], &run[..]] {
                let object = join(&[b"{", ws, b"\"a\"", ws, b":", ws, b"1", ws, b",", ws]);
                let object = join(&[&object, b"\"b\":[", ws, b"\"x\"", ws, b"]", ws, b","]);
                let object = join(&[&object, b"\"abcd\":null}", ws]);
                assert_same(&objects, &native_objects, &object, &options);
                let array = join(&[b"[", ws, b"1", ws, b",", ws, b"{}", ws, b"]", ws]);
                assert_same(&values, &native_values, &array, &options);
                assert_same_decode(&values, &native_values, &array, &options);
                let mut scratch = jitson_jit::native::Scratch::new();
                let valid = native_values
                    .validate(&array, &options, &mut scratch)
                    .is_ok();
                assert_eq!(valid, space, "byte {byte:#04x} at {at}");
            }
        }
    }
}

/// Whitespace runs of every length from 0 to 80 (one to five windows, and runs that end in
/// the input's last 15 bytes, which are skipped a byte at a time) between every kind of
/// token and at the end of the input, each followed by a byte that is not whitespace where
/// the grammar allows none: native validate and decode must give the interpreter's answer,
/// and a document is valid exactly when nothing but whitespace was added.
#[test]
fn long_whitespace_runs_cross_windows_and_the_input_end() {
    const KINDS: &[u8] = b" \n\t\r";
    let values = any_value_program();
    let native = jitson_jit::native::compile(&values).expect("compiles");
    let options = ExecOptions::default();
    let mut scratch = jitson_jit::native::Scratch::new();
    for n in 0..=80 {
        let ws: Vec<u8> = (0..n).map(|i| KINDS[(i * 7 + n) % 4]).collect();
        for tail in [&b""[..], b"x", b"\x0b", b"\x00"] {
            let parts: [&[u8]; 16] = [
                b"[", &ws, b"1", &ws, b",", &ws, b"{", &ws, b"\"k\"", &ws, b":", &ws, b"[]", &ws,
                b"}]", &ws,
            ];
            let doc = [&parts.concat()[..], tail].concat();
            assert_same(&values, &native, &doc, &options);
            assert_same_decode(&values, &native, &doc, &options);
            let valid = native.validate(&doc, &options, &mut scratch).is_ok();
            assert_eq!(valid, tail.is_empty(), "{n} bytes, tail {tail:?}");
        }
    }
}

/// Native encode of documents nested deeper than its stack budget allows: the run stops
/// before it overflows, leaves the output as it was, and the plan's walk (which keeps its
/// containers on the heap) writes the document; shallower documents are native code's.
#[test]
fn deep_documents_encode_within_the_stack_budget() {
    use jitson_jit::encode::EncodePlan;
    use jitson_kernels::escape::EscapeMode;
    let p = any_value_program();
    let native = jitson_jit::native::compile(&p).expect("compiles");
    let options = ExecOptions {
        max_depth: 1_000_000,
        ..ExecOptions::default()
    };
    let plan = EncodePlan::new(Arc::clone(&p.layout), EscapeMode::Minimal);
    for (n, native_writes) in [(100, true), (50_000, false)] {
        let deep = "[{\"k\":".repeat(n) + "1" + &"}]".repeat(n);
        let doc = jitson_jit::interp::decode(
            &p,
            deep.as_bytes(),
            &options,
            &mut jitson_jit::interp::Scratch::new(),
        )
        .expect("decodes");
        let mut out = b"[".to_vec();
        let wrote = native.encode(&plan, doc.root(), doc.big_ints(), &mut out);
        assert_eq!(wrote, native_writes, "depth {n}");
        assert_eq!(out[1..], *deep.as_bytes(), "depth {n}");
    }
}
