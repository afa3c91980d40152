//! Run statuses and the error record's encoding: generated code and helpers describe a
//! [`FailKind`] as three words `(class, a, b)`; [`decode`] turns them back.

use crate::ir::{ErrorKind, FailKind, Kinds, Violation};

/// Status of a function that ran to its end.
pub(crate) const OK: i64 = 0;
/// Status of a violation (a `Try` catches it).
pub(crate) const VIOLATION: i64 = 1;
/// Status of a fatal error (or a caught panic): it ends the run.
pub(crate) const FATAL: i64 = 2;
/// Status of a run that reached its native stack budget: the interpreter reruns it.
pub(crate) const BAIL: i64 = 3;

/// `a` is a kernel status code, read as the interpreter reads kernel errors (depth and
/// number range become their own kinds, a panic code is a panic).
pub(crate) const CLASS_KERNEL: u64 = 1;
/// `a` is an [`ErrorKind`] code, always `FailKind::Syntax`.
pub(crate) const CLASS_SYNTAX: u64 = 2;
/// `FailKind::DepthLimitExceeded`.
pub(crate) const CLASS_DEPTH: u64 = 3;
/// `FailKind::NumberOutOfRange`.
pub(crate) const CLASS_RANGE: u64 = 4;
/// `FailKind::DuplicateKey`.
pub(crate) const CLASS_DUPLICATE: u64 = 5;
/// A violation: `a` is its tag ([`tag`]), `b` its payload.
pub(crate) const CLASS_VIOLATION: u64 = 6;
/// A helper caught a panic (its payload waits in the context).
pub(crate) const CLASS_PANIC: u64 = 7;

/// Violation tags with a run-time payload.
pub(crate) const TAG_REQUIRED: u64 = 9;
/// See [`TAG_REQUIRED`].
pub(crate) const TAG_ONE_OF: u64 = 13;

/// An encoded failure kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Code {
    pub class: u64,
    pub a: u64,
    pub b: u64,
}

/// A violation's tag and payload.
fn tag(v: Violation) -> (u64, u64) {
    match v {
        Violation::Type { expected } => (0, u64::from(expected.0)),
        Violation::Minimum => (1, 0),
        Violation::Maximum => (2, 0),
        Violation::MultipleOf => (3, 0),
        Violation::MinLength => (4, 0),
        Violation::MaxLength => (5, 0),
        Violation::Pattern => (6, 0),
        Violation::MinItems => (7, 0),
        Violation::MaxItems => (8, 0),
        Violation::Required { table, field } => {
            (TAG_REQUIRED, (u64::from(table) << 32) | u64::from(field))
        }
        Violation::UnknownField => (10, 0),
        Violation::Enum => (11, 0),
        Violation::AnyOf => (12, 0),
        Violation::OneOf { matched } => (TAG_ONE_OF, u64::from(matched)),
        Violation::Not => (14, 0),
        Violation::Never => (15, 0),
        Violation::UniqueItems => (16, 0),
        Violation::MinProperties => (17, 0),
        Violation::MaxProperties => (18, 0),
        Violation::DependentRequired => (19, 0),
        Violation::PropertyNames => (20, 0),
        Violation::MinContains => (21, 0),
        Violation::MaxContains => (22, 0),
        Violation::Format => (23, 0),
    }
}

fn untag(t: u64, b: u64) -> Option<Violation> {
    Some(match t {
        0 => Violation::Type {
            expected: Kinds(b as u8),
        },
        1 => Violation::Minimum,
        2 => Violation::Maximum,
        3 => Violation::MultipleOf,
        4 => Violation::MinLength,
        5 => Violation::MaxLength,
        6 => Violation::Pattern,
        7 => Violation::MinItems,
        8 => Violation::MaxItems,
        TAG_REQUIRED => Violation::Required {
            table: (b >> 32) as u32,
            field: b as u32,
        },
        10 => Violation::UnknownField,
        11 => Violation::Enum,
        12 => Violation::AnyOf,
        TAG_ONE_OF => Violation::OneOf { matched: b as u32 },
        14 => Violation::Not,
        15 => Violation::Never,
        16 => Violation::UniqueItems,
        17 => Violation::MinProperties,
        18 => Violation::MaxProperties,
        19 => Violation::DependentRequired,
        20 => Violation::PropertyNames,
        21 => Violation::MinContains,
        22 => Violation::MaxContains,
        23 => Violation::Format,
        _ => return None,
    })
}

/// The encoding of `kind`.
pub(crate) fn encode(kind: FailKind) -> Code {
    let (class, a, b) = match kind {
        FailKind::Syntax(k) => (CLASS_SYNTAX, u64::from(k.code()), 0),
        FailKind::DepthLimitExceeded => (CLASS_DEPTH, 0, 0),
        FailKind::NumberOutOfRange => (CLASS_RANGE, 0, 0),
        FailKind::DuplicateKey => (CLASS_DUPLICATE, 0, 0),
        FailKind::Violation(v) => {
            let (t, b) = tag(v);
            (CLASS_VIOLATION, t, b)
        }
    };
    Code { class, a, b }
}

/// The status a failure of `kind` returns with.
pub(crate) fn status(kind: FailKind) -> i64 {
    if kind.is_fatal() { FATAL } else { VIOLATION }
}

/// The failure kind of a record; `None` for a panic or a record no code writes.
pub(crate) fn decode(class: u64, a: u64, b: u64) -> Option<FailKind> {
    let code = u32::try_from(a).ok();
    match class {
        CLASS_KERNEL => match ErrorKind::from_code(code?)? {
            ErrorKind::DepthLimitExceeded => Some(FailKind::DepthLimitExceeded),
            ErrorKind::NumberOutOfRange => Some(FailKind::NumberOutOfRange),
            k => Some(FailKind::Syntax(k)),
        },
        CLASS_SYNTAX => ErrorKind::from_code(code?).map(FailKind::Syntax),
        CLASS_DEPTH => Some(FailKind::DepthLimitExceeded),
        CLASS_RANGE => Some(FailKind::NumberOutOfRange),
        CLASS_DUPLICATE => Some(FailKind::DuplicateKey),
        CLASS_VIOLATION => untag(a, b).map(FailKind::Violation),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips() {
        let mut kinds: Vec<FailKind> = ErrorKind::ALL
            .iter()
            .map(|&k| FailKind::Syntax(k))
            .collect();
        kinds.extend([
            FailKind::DepthLimitExceeded,
            FailKind::NumberOutOfRange,
            FailKind::DuplicateKey,
        ]);
        let violations = [
            Violation::Type {
                expected: Kinds::STRING.or(Kinds::NULL),
            },
            Violation::Minimum,
            Violation::Maximum,
            Violation::MultipleOf,
            Violation::MinLength,
            Violation::MaxLength,
            Violation::Pattern,
            Violation::Format,
            Violation::MinItems,
            Violation::MaxItems,
            Violation::Required {
                table: 7,
                field: 300,
            },
            Violation::UnknownField,
            Violation::Enum,
            Violation::AnyOf,
            Violation::OneOf { matched: 2 },
            Violation::Not,
            Violation::Never,
            Violation::UniqueItems,
            Violation::MinProperties,
            Violation::MaxProperties,
            Violation::DependentRequired,
            Violation::PropertyNames,
            Violation::MinContains,
            Violation::MaxContains,
        ];
        kinds.extend(violations.map(FailKind::Violation));
        for kind in kinds {
            let c = encode(kind);
            assert_eq!(decode(c.class, c.a, c.b), Some(kind));
        }
        let depth = u64::from(ErrorKind::DepthLimitExceeded.code());
        assert_eq!(
            decode(CLASS_KERNEL, depth, 0),
            Some(FailKind::DepthLimitExceeded)
        );
        assert_eq!(decode(CLASS_PANIC, 0, 0), None);
    }
}
