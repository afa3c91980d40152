//! Remembered runs: which functions a validating run remembers ([`Recall`], planned once per
//! program) and what one run remembers of them (`Verdicts`).
//!
//! A schema whose union branches (or `allOf` parts, or a `not` and its sibling) reach the
//! same subschema checks one value with that subschema more than once; when the subschema
//! reaches such a union again below, the runs multiply per level (an untagged `oneOf` of
//! `allOf`s sharing a recursive base: two runs of the base's members per level, 2^depth
//! in all). Remembering each such function's verdict per position makes every remembered
//! function run at most once per position, so checking is linear in the input whatever
//! the schema.
//!
//! What a function does at a position depends on nothing else while nothing is built: the
//! depth and the path there are the position's (every open container holds it), the options
//! are the run's. So a run that meets a remembered function at a position where it already
//! *passed* continues where that run ended; where it already *failed* with a violation, and
//! a `Try` frame is open (the violation is caught, its details never seen), fails again at
//! once. Anything else runs the function (the first time, a fatal error, a violation that
//! may end the run or be recorded in collect-all mode: each happens once).
//! A pass also tells where its value ends (it read it whole and well-formed), so a skip of
//! that value (an `allOf` part passing over a member another part checked) takes the end.
//!
//! Which functions: a function is met twice at one position only below a function that puts
//! the cursor back (`restore-pos`, or a `try` whose violation does), and then, at the first
//! place two such runs meet, through two different call sites. So [`Recall::plan`] marks
//! the functions with at least two call sites in functions reachable from one that puts the
//! cursor back: none in a program without unions, `allOf` or `not`.

use std::collections::HashMap;

use crate::ir::{Func, FuncId, Op};

/// Which functions a validating run remembers (see the [module documentation](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recall {
    remembered: Vec<bool>,
}

impl Recall {
    /// The functions of `funcs` that some position may meet twice: those with two or more
    /// call sites (`call`, `try`) in the functions reachable from one that puts the cursor
    /// back. Out-of-range callees are ignored ([`Program::verify`](crate::ir::Program::verify)
    /// reports them).
    pub fn plan(funcs: &[Func]) -> Recall {
        let callees = |f: usize| {
            funcs[f].ops.iter().filter_map(|op| match op {
                Op::Call(g) | Op::Try { func: g, .. } => {
                    Some(*g as usize).filter(|&g| g < funcs.len())
                }
                _ => None,
            })
        };
        let puts_back =
            |f: &Func| (f.ops.iter()).any(|op| matches!(op, Op::RestorePos(_) | Op::Try { .. }));
        let mut region: Vec<bool> = funcs.iter().map(puts_back).collect();
        let mut todo: Vec<usize> = (0..funcs.len()).filter(|&f| region[f]).collect();
        while let Some(f) = todo.pop() {
            for g in callees(f) {
                if !region[g] {
                    region[g] = true;
                    todo.push(g);
                }
            }
        }
        let mut sites = vec![0u8; funcs.len()];
        for f in (0..funcs.len()).filter(|&f| region[f]) {
            for g in callees(f) {
                sites[g] = sites[g].saturating_add(1);
            }
        }
        Recall {
            remembered: sites.iter().map(|&n| n >= 2).collect(),
        }
    }

    /// Whether runs of function `f` are remembered.
    pub fn remembers(&self, f: FuncId) -> bool {
        self.remembered.get(f as usize).copied().unwrap_or(false)
    }

    /// Whether any function's runs are remembered.
    pub fn any(&self) -> bool {
        self.remembered.contains(&true)
    }

    /// The number of functions planned for (0 for an unplanned program).
    pub fn len(&self) -> usize {
        self.remembered.len()
    }

    /// Whether nothing was planned.
    pub fn is_empty(&self) -> bool {
        self.remembered.is_empty()
    }
}

/// What a remembered function did at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// It passed, leaving the cursor here.
    Passed(usize),
    /// It failed with a violation.
    Failed,
}

/// A verdict's stored form: the end position, or this for a failure.
const FAILED: usize = usize::MAX;

/// More entries than this are not kept between runs (a large input's table is dropped).
const KEPT_CAPACITY: usize = 1 << 16;

/// One run's verdicts of remembered functions, by function and position; and where each
/// value a remembered run passed ends.
#[derive(Debug, Default)]
pub(crate) struct Verdicts {
    seen: HashMap<(FuncId, usize), usize, foldhash::fast::RandomState>,
    /// The end of the value starting (at its first byte) here: a run that passed over a
    /// value read all of it, well-formed, within the depth limit and with its numbers in
    /// range, so a skip of it (an `allOf` part walking a member another part checked) need
    /// not walk it again.
    ends: HashMap<usize, usize, foldhash::fast::RandomState>,
}

impl Verdicts {
    /// Forgets everything (a run starts).
    pub(crate) fn clear(&mut self) {
        if self.seen.capacity() > KEPT_CAPACITY {
            *self = Verdicts::default();
        } else if !self.seen.is_empty() {
            self.seen.clear();
            self.ends.clear();
        }
    }

    /// What `f` did at `pos`, if it ran there.
    pub(crate) fn get(&self, f: FuncId, pos: usize) -> Option<Verdict> {
        self.seen.get(&(f, pos)).map(|&end| match end {
            FAILED => Verdict::Failed,
            end => Verdict::Passed(end),
        })
    }

    /// `f` at `pos` passed over the value whose first byte is at `value` (after the
    /// whitespace from `pos`) and left the cursor at `end`.
    pub(crate) fn passed(&mut self, f: FuncId, pos: usize, value: usize, end: usize) {
        self.seen.insert((f, pos), end);
        self.ends.insert(value, end);
    }

    /// Where the value whose first byte is at `value` ends, if a remembered run passed it.
    pub(crate) fn end_of(&self, value: usize) -> Option<usize> {
        self.ends.get(&value).copied()
    }

    /// `f` at `pos` failed with a violation.
    pub(crate) fn failed(&mut self, f: FuncId, pos: usize) {
        self.seen.insert((f, pos), FAILED);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Label, Violation};

    fn func(ops: Vec<Op>) -> Func {
        Func {
            name: String::new(),
            ops,
        }
    }

    fn try_(func: FuncId, on_fail: Label) -> Op {
        Op::Try { func, on_fail }
    }

    #[test]
    fn shared_callees_below_a_union_are_remembered() {
        // f0: a union trying f1 and f2, which both call f3; f3 calls f4 once.
        let funcs = vec![
            func(vec![try_(1, 1), try_(2, 2), Op::Return]),
            func(vec![Op::Call(3), Op::Return]),
            func(vec![Op::Call(3), Op::Return]),
            func(vec![Op::Call(4), Op::Return]),
            func(vec![Op::Null, Op::Return]),
        ];
        let plan = Recall::plan(&funcs);
        let remembered: Vec<bool> = (0..5).map(|f| plan.remembers(f)).collect();
        assert_eq!(remembered, [false, false, false, true, false]);
        assert!(plan.any());
    }

    #[test]
    fn nothing_is_remembered_where_the_cursor_only_moves_on() {
        // f0 calls f1 twice (two members' values, say): no position meets f1 twice.
        let funcs = vec![
            func(vec![Op::Call(1), Op::Call(1), Op::Return]),
            func(vec![Op::Fail(Violation::Not), Op::Return]),
        ];
        let plan = Recall::plan(&funcs);
        assert!(!plan.any());
        assert_eq!(plan.len(), 2);
        assert!(!plan.remembers(7));
    }

    #[test]
    fn verdicts_round_trip_and_clear() {
        let mut v = Verdicts::default();
        assert_eq!(v.get(3, 10), None);
        v.passed(3, 10, 12, 20);
        v.failed(3, 30);
        assert_eq!(v.get(3, 10), Some(Verdict::Passed(20)));
        assert_eq!(v.get(3, 30), Some(Verdict::Failed));
        assert_eq!(v.get(4, 10), None);
        assert_eq!((v.end_of(12), v.end_of(10)), (Some(20), None));
        v.clear();
        assert_eq!((v.get(3, 10), v.end_of(12)), (None, None));
    }
}
