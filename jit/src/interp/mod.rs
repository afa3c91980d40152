//! The portable interpreter: runs a [`Program`] over input bytes, exactly as the
//! [IR documentation](crate::ir) specifies.
//!
//! It is iterative: calls push frames on a heap vector, never Rust stack frames, and
//! containers past [`ExecOptions::max_depth`] are an error, so no input can overflow the
//! stack. The byte work (whitespace, strings, escapes, UTF-8, numbers, skipping) is done by
//! the kernels, as generated code will do it. One machine (`interp/machine.rs`) serves every
//! operation; what it builds is a sink's job: nothing for validation, records for
//! [`decode`], compact JSON for [`transcode`].

mod checks;
mod decode;
mod lookahead;
mod machine;
mod sink;
#[cfg(feature = "native")]
mod slot;
mod transcode;

pub use decode::{Decoded, decode};
pub use transcode::{
    GuideNode, MAX_POINTERS, OPEN, Other, Tags, Tokens, TranscodeSpec, Unknown, Unwalkable,
    WalkGuide, transcode, transcode_accepted,
};

use crate::ir::{ExecOptions, Failure, Program};
#[cfg(feature = "native")]
pub(crate) use checks::{number_violation, text_violation};
#[cfg(feature = "native")]
pub(crate) use decode::number_slot;
#[cfg(feature = "native")]
pub(crate) use lookahead::Tag;
use machine::{Core, Machine};
#[cfg(feature = "native")]
pub(crate) use machine::{kind_slot, skip_checked};
use sink::Check;
#[cfg(feature = "native")]
pub(crate) use slot::run_value_op_into;

/// Reusable buffers of the interpreter. Keep one per thread and pass it to every run to
/// avoid allocating per document.
#[derive(Debug, Default)]
pub struct Scratch {
    core: Core,
    pub(crate) decode: decode::DecodeScratch,
}

impl Scratch {
    /// Empty buffers.
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

/// Checks `input` against `program`: `Ok`, or the first error.
pub fn validate(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
) -> Result<(), Failure> {
    Machine::new(program, input, options, &mut scratch.core, 0, Check).run()
}

/// Checks `input` against `program`, collecting violations: up to `cap` failures (at least
/// one), in input order; empty when the input is valid. After a violation outside any
/// [`Op::Try`](crate::ir::Op::Try), the failed value is skipped and checking goes on; a fatal
/// error (syntax, depth, number range, duplicate key) ends the list.
pub fn validate_all(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    cap: usize,
) -> Vec<Failure> {
    let cap = cap.max(1);
    let mut machine = Machine::new(program, input, options, &mut scratch.core, cap, Check);
    let last = machine.run().err();
    let mut errors = machine.take_errors();
    errors.extend(last);
    errors
}

/// Runs the value op at `site` alone on the interpreter (the native backend's helper for the
/// checks it does not inline; see `machine::run_value_op`).
#[cfg(feature = "native")]
pub(crate) fn run_value_op(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    at: (usize, u32),
    site: (crate::ir::FuncId, crate::ir::Label),
) -> Result<usize, (crate::ir::FailKind, usize)> {
    machine::run_value_op(program, input, options, &mut scratch.core, at, site)
}

/// The look-ahead of the `Discriminate` op using discriminator `disc`, at `pos` with
/// `depth` containers open (the native backend's helper; see `machine::run_discriminate`).
#[cfg(feature = "native")]
pub(crate) fn run_discriminate(
    program: &Program,
    input: &[u8],
    options: &ExecOptions,
    scratch: &mut Scratch,
    at: (usize, u32),
    disc: u32,
) -> Tag {
    machine::run_discriminate(program, input, options, &mut scratch.core, at, disc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{
        ErrorKind, FailKind, Func, KeyTable, Kinds, NumCheck, Number, Op, PathSeg, StrCheck,
        Violation,
    };

    fn func(name: &str, ops: Vec<Op>) -> Func {
        Func {
            name: name.into(),
            ops,
        }
    }

    /// `{"a": integer >= 0 (required), "b": [string...]}` as hand-written IR.
    fn object_program() -> Program {
        let mut p = Program {
            num_checks: vec![NumCheck {
                integer: true,
                minimum: Some(crate::ir::Limit {
                    value: Number::U64(0),
                    exclusive: false,
                }),
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
        p.verify().expect("valid program");
        p
    }

    fn check(p: &Program, input: &str) -> Result<(), Failure> {
        validate(
            p,
            input.as_bytes(),
            &ExecOptions::default(),
            &mut Scratch::new(),
        )
    }

    #[test]
    fn hand_written_object() {
        let p = object_program();
        assert_eq!(
            check(&p, r#" {"a": 1, "b": ["x", "y"], "c": [1]} "#),
            Ok(())
        );
        assert_eq!(check(&p, r#"{"b": [], "a": 0}"#), Ok(()));
        let e = check(&p, r#"{"a": -1}"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Violation(Violation::Minimum));
        assert_eq!(e.offset, 6);
        assert_eq!(e.path, [PathSeg::Field { table: 0, field: 0 }]);
        let e = check(&p, r#"{"b": ["x", 2]}"#).unwrap_err();
        assert_eq!(
            e.path,
            [PathSeg::Field { table: 0, field: 1 }, PathSeg::Index(1)]
        );
        let e = check(&p, r#"{"b": []}"#).unwrap_err();
        assert!(matches!(
            e.kind,
            FailKind::Violation(Violation::Required { field: 0, .. })
        ));
        let e = check(&p, r#"{"a": 1,}"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Syntax(ErrorKind::ExpectedKey));
        let e = check(&p, r#"{"a": 1} x"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Syntax(ErrorKind::TrailingCharacters));
    }

    #[test]
    fn collect_all_resumes_after_violations() {
        let p = object_program();
        let errors = validate_all(
            &p,
            br#"{"a": -1, "b": [1, "x", true], "c": 0}"#,
            &ExecOptions::default(),
            &mut Scratch::new(),
            10,
        );
        let kinds: Vec<_> = errors.iter().map(|e| e.kind).collect();
        let ty = FailKind::Violation(Violation::Type {
            expected: Kinds::STRING,
        });
        assert_eq!(kinds, [FailKind::Violation(Violation::Minimum), ty, ty]);
        let capped = validate_all(
            &p,
            br#"{"a": -1, "b": [1, "x", true]}"#,
            &ExecOptions::default(),
            &mut Scratch::new(),
            2,
        );
        assert_eq!(capped.len(), 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        // A recursive array of itself: f1 = [f1...].
        let mut p = Program::default();
        p.funcs
            .push(func("doc", vec![Op::Call(1), Op::Eof, Op::Return]));
        p.funcs.push(func(
            "tree",
            vec![
                Op::ArrBegin { empty: 3 },
                Op::Call(1),
                Op::ArrNext { next: 1 },
                Op::ArrEnd { min: 0, max: None },
                Op::Return,
            ],
        ));
        p.verify().expect("valid program");
        let n = if cfg!(miri) { 200 } else { 100_000 };
        let deep = "[".repeat(n) + &"]".repeat(n);
        let e = check(&p, &deep).unwrap_err();
        assert_eq!(e.kind, FailKind::DepthLimitExceeded);
        assert_eq!(e.offset, 128);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert_eq!(check(&p, &ok), Ok(()));
    }

    /// A raw-check of a walked value skips it by bracket balancing only (brackets and quotes
    /// inside strings included) and reports the violation its predicate gives, at the
    /// value's start; with `validate_all` the run goes on after it.
    #[test]
    fn raw_check_of_a_walked_value() {
        let text = r#" [1, ["]", {"a": "[{"}], 2] "#;
        let mut p = Program {
            raw_preds: vec![std::sync::Arc::new(move |raw: &[u8], _| {
                match raw == text.trim().as_bytes() {
                    true => Err(Violation::UniqueItems),
                    false => Ok(()),
                }
            })],
            ..Program::default()
        };
        p.funcs.push(func(
            "doc",
            vec![
                Op::SavePos(0),
                Op::SkipValue,
                Op::RestorePos(0),
                Op::RawCheck {
                    pred: 0,
                    walked: true,
                },
                Op::Eof,
                Op::Return,
            ],
        ));
        p.verify().expect("valid program");
        let e = check(&p, text).unwrap_err();
        assert_eq!(e.kind, FailKind::Violation(Violation::UniqueItems));
        assert_eq!(e.offset, 1);
        assert_eq!(check(&p, "[1, 2]"), Ok(()));
        let all = validate_all(
            &p,
            text.as_bytes(),
            &ExecOptions::default(),
            &mut Scratch::new(),
            10,
        );
        assert_eq!(all.len(), 1, "{all:?}");
    }

    /// `key-matches` tests the unknown key in the path top (unescaped) against one pattern
    /// of the table or any of them: `{"a": integer, patterns ^x (integer), ^y (string);
    /// other members denied}`.
    #[test]
    fn key_matches_reads_the_unknown_key() {
        use crate::ir::KeyPattern;
        let prefix = |c: char| KeyPattern {
            source: format!("^{c}").into(),
            test: std::sync::Arc::new(move |k: &str| k.starts_with(c)),
        };
        let table = KeyTable::new([("a".into(), false)])
            .with_patterns(vec![prefix('x'), prefix('y')], false);
        let mut p = Program {
            num_checks: vec![NumCheck {
                integer: true,
                ..NumCheck::default()
            }],
            str_checks: vec![StrCheck::default()],
            key_tables: vec![table],
            ..Program::default()
        };
        let matches = |pattern, miss| Op::KeyMatches {
            table: 0,
            pattern,
            miss,
        };
        p.funcs.push(func(
            "doc",
            vec![
                Op::ObjBegin {
                    empty: 17,
                    table: 0,
                },
                Op::Key(0),
                Op::SwitchField(vec![3, 5].into()),
                Op::Number(0),
                Op::Jump(16),
                matches(None, 15),
                Op::SavePos(1),
                matches(Some(0), 10),
                Op::Number(0),
                Op::RestorePos(1),
                matches(Some(1), 13),
                Op::String(0),
                Op::RestorePos(1),
                Op::SkipValue,
                Op::Jump(16),
                Op::Fail(Violation::UnknownField),
                Op::ObjNext { next: 1 },
                Op::ObjEnd(0),
                Op::Eof,
                Op::Return,
            ],
        ));
        p.verify().expect("valid program");
        assert_eq!(
            check(&p, r#"{"a": 1, "x1": 2, "y": "s", "\u0078": 3}"#),
            Ok(())
        );
        let e = check(&p, r#"{"x": "s"}"#).unwrap_err();
        assert_eq!(
            e.kind,
            FailKind::Violation(Violation::Type {
                expected: Kinds::INTEGER
            })
        );
        assert_eq!(e.path, [PathSeg::Key { start: 2, end: 3 }]);
        let e = check(&p, r#"{"\u0079": 1}"#).unwrap_err();
        assert_eq!(
            e.kind,
            FailKind::Violation(Violation::Type {
                expected: Kinds::STRING
            })
        );
        let e = check(&p, r#"{"a": 1, "z": 1}"#).unwrap_err();
        assert_eq!(e.kind, FailKind::Violation(Violation::UnknownField));
        assert_eq!(e.offset, 14);
    }
}
