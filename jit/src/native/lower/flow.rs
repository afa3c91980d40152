//! Where whitespace is already skipped: for each op of a function, whether every path into
//! it leaves the cursor on a token (a byte that is not whitespace, or the input's end), so
//! that the op's own leading whitespace skip can be left out. Skipping whitespace where
//! there is none is a no-op, so leaving out such a skip changes nothing but code size; in
//! an object function it drops one skip per member (the key op skips the whitespace after
//! its colon once, and every member's value starts on a token).

use crate::ir::{Func, Op};

/// Per op: whether every path into it arrives on a token. The function's entry arrives
/// anywhere; an op nothing reaches is marked true (it never runs).
pub(super) fn on_token(func: &Func) -> Vec<bool> {
    let n = func.ops.len();
    // A must-analysis: start from "on a token" everywhere but the entry and take away
    // until stable.
    let start = || {
        let mut v = vec![true; n];
        if let Some(entry) = v.first_mut() {
            *entry = false;
        }
        v
    };
    let mut into = start();
    loop {
        let mut next = start();
        for (pc, op) in func.ops.iter().enumerate() {
            for (to, arrives) in edges(op, pc, into[pc]) {
                if to < n {
                    next[to] &= arrives;
                }
            }
        }
        if next == into {
            return into;
        }
        into = next;
    }
}

/// Per op: whether every path from the function's entry to it passes through op `via`.
/// Code lowered for such an op may use values defined at the top of `via`'s first block.
pub(super) fn dominated_by(func: &Func, via: usize) -> Vec<bool> {
    let n = func.ops.len();
    let mut reached = vec![false; n];
    let mut stack = vec![0];
    while let Some(at) = stack.pop() {
        if at >= n || at == via || reached[at] {
            continue;
        }
        reached[at] = true;
        stack.extend(
            edges(&func.ops[at], at, false)
                .into_iter()
                .map(|(to, _)| to),
        );
    }
    reached.into_iter().map(|r| !r).collect()
}

/// The op's successors, each with whether the cursor arrives there on a token, given
/// whether it was on one when the op began (`at`).
fn edges(op: &Op, pc: usize, at: bool) -> Vec<(usize, bool)> {
    let to = |l: &u32| *l as usize;
    match op {
        // Peeks at the first byte after whitespace; the cursor stays on it.
        Op::Dispatch(targets) => targets.iter().map(|l| (to(l), true)).collect(),
        // Jumps that leave the cursor where it is.
        Op::SwitchField(targets) => targets.iter().map(|l| (to(l), at)).collect(),
        Op::Jump(l) => vec![(to(l), at)],
        Op::KeyMatches { miss, .. } => vec![(pc + 1, at), (to(miss), at)],
        // After the opening bracket and whitespace: on the first item or key (the close
        // bracket, consumed, jumps to `empty`).
        Op::ArrBegin { empty } | Op::ObjBegin { empty, .. } => {
            vec![(pc + 1, true), (to(empty), false)]
        }
        // The key op skips the whitespace after its colon.
        Op::Key(_) => vec![(pc + 1, true)],
        Op::SavePos(_) | Op::SetReg(..) | Op::IncReg(_) | Op::Tag(_) => vec![(pc + 1, at)],
        Op::Return | Op::Fail(_) => Vec::new(),
        // Everything else moves the cursor past something (or might): its successors
        // arrive anywhere.
        other => (other.labels().map(|l| l as usize))
            .chain(falls_through(other).then_some(pc + 1))
            .map(|to| (to, false))
            .collect(),
    }
}

/// Whether control may continue at the next op.
fn falls_through(op: &Op) -> bool {
    !matches!(
        op,
        Op::Jump(_)
            | Op::Return
            | Op::Fail(_)
            | Op::Dispatch(_)
            | Op::Discriminate { .. }
            | Op::SwitchField(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Op;

    fn func(ops: Vec<Op>) -> Func {
        Func {
            name: "test".into(),
            ops,
        }
    }

    /// f0 of book's program, shortened: obj-begin, key, switch-field, members.
    fn object_function() -> Func {
        func(vec![
            Op::ObjBegin { empty: 8, table: 0 },
            Op::Key(0),
            Op::SwitchField(vec![3, 5, 7].into()),
            Op::Bool,
            Op::Jump(7),
            Op::Null,
            Op::Jump(7),
            Op::ObjNext { next: 1 },
            Op::ObjEnd(0),
            Op::Return,
        ])
    }

    #[test]
    fn an_object_function_starts_every_member_on_a_token() {
        let f = object_function();
        let at = on_token(&f);
        assert_eq!(
            at,
            [
                false, false, true, true, false, true, false, false, false, false
            ]
        );
    }

    #[test]
    fn the_key_op_dominates_its_members_but_not_the_empty_objects_end() {
        let f = object_function();
        assert_eq!(
            dominated_by(&f, 1),
            [
                false, true, true, true, true, true, true, true, false, false
            ]
        );
        assert!(dominated_by(&f, 0).into_iter().all(|d| d));
    }

    #[test]
    fn an_item_reached_after_a_comma_is_not_on_a_token() {
        let f = func(vec![
            Op::ArrBegin { empty: 3 },
            Op::Null,
            Op::ArrNext { next: 1 },
            Op::ArrEnd { min: 0, max: None },
            Op::Return,
        ]);
        assert_eq!(on_token(&f), [false, false, false, false, false]);
    }

    #[test]
    fn dispatch_targets_are_on_a_token_unless_reached_otherwise() {
        let f = func(vec![
            Op::Dispatch(Box::new([1, 2, 2, 2, 2, 3])),
            Op::Null,
            Op::Bool,
            Op::Return,
        ]);
        // Op 2 is also reached by falling through from op 1, after a value.
        assert_eq!(on_token(&f), [false, true, false, false]);
    }
}
