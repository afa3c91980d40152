//! The checks of a scalar value op on a value already read: one definition, used by the
//! interpreter and by the native backend's fast paths (which then agree by construction).

use crate::ir::{Kinds, NumCheck, NumRef, StrCheck, Violation};

/// The first check of `c` the number `n` fails, in the interpreter's order: integer,
/// minimum, maximum, then the `multipleOf` predicate.
pub(crate) fn number_violation(c: &NumCheck, n: NumRef<'_>) -> Option<Violation> {
    if c.integer && !n.is_integer() {
        return Some(Violation::Type {
            expected: Kinds::INTEGER,
        });
    }
    if let Some(l) = c.minimum {
        let order = n.cmp_exact(l.value);
        if order.is_lt() || (l.exclusive && order.is_eq()) {
            return Some(Violation::Minimum);
        }
    }
    if let Some(l) = c.maximum {
        let order = n.cmp_exact(l.value);
        if order.is_gt() || (l.exclusive && order.is_eq()) {
            return Some(Violation::Maximum);
        }
    }
    match &c.multiple_of {
        Some(pred) if !pred(n) => Some(Violation::MultipleOf),
        _ => None,
    }
}

/// The first check of `c` the (unescaped) string `text` fails: its length in code points
/// against the bounds, then the pattern, then the format.
pub(crate) fn text_violation(c: &StrCheck, text: &str) -> Option<Violation> {
    if c.min_length > 0 || c.max_length.is_some() {
        // Code points are the bytes that are not UTF-8 continuation bytes.
        let length = text.bytes().filter(|&b| (b as i8) >= -0x40).count() as u64;
        if length < c.min_length {
            return Some(Violation::MinLength);
        }
        if c.max_length.is_some_and(|max| length > max) {
            return Some(Violation::MaxLength);
        }
    }
    if c.pattern.as_ref().is_some_and(|pred| !pred(text)) {
        return Some(Violation::Pattern);
    }
    match &c.format {
        Some(pred) if !pred(text) => Some(Violation::Format),
        _ => None,
    }
}
