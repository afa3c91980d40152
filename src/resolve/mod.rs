//! The resolver: a [`Schema`] lowered to an opcode [`Program`] (see [`jitson_jit::ir`] for
//! the ops).
//!
//! Every composite node (array, object, map, nullable, per-kind union, `anyOf`, `oneOf`,
//! `allOf`, `not`) becomes one function, created on first use, so shared nodes are shared
//! code and recursive schemas are recursive calls. Scalar nodes (`any`, `never`, `null`,
//! booleans, integers, numbers, strings, `enum`) are inlined at each use as one value op;
//! they get a function of their own only when an `anyOf` / `oneOf` / `not` must *try* them.
//!
//! What the IR cannot say natively comes in as predicates built from the schema itself, so
//! their meaning is the reference validator's by construction: `pattern` is the schema's
//! compiled [`Pattern`]; `multipleOf` and non-string `enum`s run [`Schema::validate_value`]
//! on a one-node schema holding just that keyword; the rules on whole arrays and objects
//! read the value with the crate's value parser.
//!
//! Lowerings (`r0..r2` are frame registers):
//!
//! - object: `obj-begin; L: key; switch-field (one block per field: its value op; unknown
//!   members: skip / fail / the extra type); obj-next L; obj-end` — map: the same with no
//!   named fields;
//! - array: `arr-begin`, per tuple prefix item `item op; arr-next (on to the next); jump E`,
//!   then `L: item op; arr-next L; E: arr-end`;
//! - nullable and per-kind unions: `dispatch` on the first byte, one block per kind, a
//!   `fail type` block for kinds not allowed;
//! - `anyOf`: `r0 = pos`, then per branch `pos = r0; try branch else next; jump end`, and a
//!   final `fail anyOf`; `oneOf`: every branch tried, matches counted in `r1`, the end of the
//!   last match in `r2`, then `one-of-end`; both start with `discriminate` when the schema has
//!   a discriminator whose tags are strings (a present tag calls its branch directly; a
//!   branch's tag aliases are more tags of the IR discriminator, with its branch's label;
//!   an unmatched tag calls the default branch, if the discriminator has one, else fails),
//!   or when every branch is an object of one required member named differently that
//!   denies others (`discriminate by-name`: the first member's name is the tag; another
//!   name tries the branches);
//! - an array with `uniqueItems`, an object with member rules (`minProperties`,
//!   `maxProperties`, `dependentRequired`, `propertyNames`): `r0 = pos`, the walk above,
//!   then `pos = r0; raw-check walked` writing nothing (the predicates of `whole.rs`); an
//!   array with `contains`: then `pos = r0; call` of a function that walks the items again,
//!   each in a `try` of the `contains` type, counts the matches and ends in `contains-end`;
//! - `allOf`: each part from the same start (`r0`), the cursor left at the end (`r1`);
//! - `not`: `try inner else ok; fail not; ok: pos = r0; skip-value`.

mod emit;
mod guide;
mod layout;
mod selection;
mod whole;

use std::collections::HashMap;
use std::sync::Arc;

use jitson_jit::ir::{
    AsciiShape, BigInt, BigInts, Discriminator as IrDiscriminator, Func, FuncId, KeyPattern,
    KeyTable, KeyTableId, Kinds, Label, Limit, NO_DST, NumCheck, NumRef, Number, Op, Program,
    RawPred, RawPredId, StrCheck, StrEnum, Violation,
};
use jitson_jit::layout::{FuncLayout, Layout, PAIR, Shape, UNION_PAYLOAD};
use jitson_jit::recall::Recall;
use serde_json::Value;

use emit::Emit;
pub(crate) use guide::walk_guide;
use selection::{Unmatched, select};

use crate::schema::num::{Divisor, is_big_multiple_of, number_is_multiple_of};
use crate::schema::value::JsonSet;
use crate::schema::{
    Bound, ConditionalDesc, ContainsDesc, IntegerDesc, Num, NumberDesc, ObjectDesc, Pattern,
    Schema, StringDesc, TypeDesc, TypeId, UnionDesc, UnknownFields,
};

/// Lowers `schema` to a program whose entry checks (and decodes) one whole document, with
/// its [`Layout`].
pub fn resolve(schema: &Schema) -> Program {
    let mut r = Resolver {
        schema,
        prog: Program::default(),
        funcs: HashMap::new(),
        queue: Vec::new(),
        shapes: layout::shapes(schema),
        func_layouts: Vec::new(),
        shared: None,
    };
    let mut entry = Emit::default();
    r.value(&mut entry, schema.root());
    entry.extend([Op::Eof, Op::Return]);
    r.prog.entry = r.new_func("document".into(), schema.root(), entry);
    while let Some((id, func)) = r.queue.pop() {
        let ops = r.body(id);
        r.func_layouts[func as usize].dst = ops.dst;
        r.prog.funcs[func as usize].ops = ops.ops;
    }
    r.prog.layout = Arc::new(Layout {
        shapes: r.shapes.shapes,
        funcs: r.func_layouts,
    });
    r.prog.recall = Recall::plan(&r.prog.funcs);
    debug_assert_eq!(r.prog.verify(), Ok(()));
    r.prog
}

struct Resolver<'s> {
    schema: &'s Schema,
    prog: Program,
    funcs: HashMap<TypeId, FuncId>,
    queue: Vec<(TypeId, FuncId)>,
    shapes: layout::Shapes,
    func_layouts: Vec<FuncLayout>,
    /// The schema, shared by the predicates that ask the reference validator about a node
    /// (made on first need).
    shared: Option<Arc<Schema>>,
}

/// A forward jump to patch once its target is known.
struct Patch(usize);

impl Resolver<'_> {
    fn new_func(&mut self, name: String, shape: TypeId, ops: Emit) -> FuncId {
        self.prog.funcs.push(Func { name, ops: ops.ops });
        self.func_layouts.push(FuncLayout {
            shape: shape.index() as u32,
            dst: ops.dst,
        });
        (self.prog.funcs.len() - 1) as FuncId
    }

    /// The function of node `id`, created (and queued for its body) on first use.
    fn func(&mut self, id: TypeId) -> FuncId {
        if let Some(&f) = self.funcs.get(&id) {
            return f;
        }
        let name = format!("#{} {}", id.index(), node_name(self.schema.node(id)));
        let f = self.new_func(name, id, Emit::default());
        self.funcs.insert(id, f);
        self.queue.push((id, f));
        f
    }

    /// Emits the check of one value of node `id`: one value op, or a call (decoded to the
    /// emitter's current destination).
    fn value(&mut self, ops: &mut Emit, id: TypeId) {
        let op = match self.schema.node(id) {
            TypeDesc::Any => Op::SkipValue,
            TypeDesc::Never => Op::Fail(Violation::Never),
            TypeDesc::Null => Op::Null,
            TypeDesc::Bool => Op::Bool,
            TypeDesc::Integer(d) => Op::Number(self.integer_check(d)),
            TypeDesc::Number(d) => Op::Number(self.number_check(d)),
            TypeDesc::String(d) => Op::String(self.string_check(d)),
            TypeDesc::Enum(values) => self.enumeration(values),
            _ => Op::Call(self.func(id)),
        };
        ops.push(op);
    }

    /// The body of node `id`'s function.
    fn body(&mut self, id: TypeId) -> Emit {
        let mut ops = Emit::default();
        match self.schema.node(id) {
            TypeDesc::Array(d) => {
                let check = d.unique_items.then(whole::unique_items);
                let count = d.contains.map(|c| self.contains_count(id, c));
                self.whole(&mut ops, check, count, |r, ops| {
                    r.array(ops, &d.prefix_items, d.items, d.min_items, d.max_items)
                });
            }
            TypeDesc::Object(d) => {
                let schema = d.members.names.map(|_| self.shared_schema());
                let check = whole::member_rules(&d.members, schema);
                self.whole(&mut ops, check, None, |r, ops| r.object(ops, id, d));
            }
            TypeDesc::Map(values) => {
                let d = ObjectDesc::open(UnknownFields::Extra(*values));
                self.object(&mut ops, id, &d);
            }
            TypeDesc::Nullable(inner) => {
                let mut slots = [Some(*inner); 6];
                slots[0] = None;
                self.dispatch(&mut ops, slots, Kinds::NULL, true);
            }
            TypeDesc::Kinds(k) => {
                let expected = self.kinds_of(&k.slots());
                self.dispatch(&mut ops, k.slots(), expected, false);
            }
            TypeDesc::AnyOf(u) => self.any_of(&mut ops, id, u),
            TypeDesc::Conditional(c) => self.conditional(&mut ops, c),
            TypeDesc::OneOf(u) => self.one_of(&mut ops, id, u),
            TypeDesc::AllOf(parts) => {
                ops.push(Op::SavePos(0));
                self.value(&mut ops, parts[0]);
                ops.push(Op::SavePos(1));
                ops.at = NO_DST;
                for &part in &parts[1..] {
                    ops.push(Op::RestorePos(0));
                    self.value(&mut ops, part);
                }
                ops.push(Op::RestorePos(1));
            }
            TypeDesc::Not(inner) => {
                let inner = self.func(*inner);
                ops.push(Op::SavePos(0));
                let try_at = ops.len();
                ops.at = NO_DST;
                ops.push(Op::Try {
                    func: inner,
                    on_fail: 0,
                });
                ops.at = 0;
                ops.extend([Op::RestorePos(0), Op::Fail(Violation::Not)]);
                let to_end = self.jump(&mut ops);
                let ok = ops.len() as Label;
                ops[try_at] = Op::Try {
                    func: inner,
                    on_fail: ok,
                };
                ops.extend([Op::RestorePos(0), Op::SkipValue]);
                self.land(&mut ops, [to_end]);
            }
            _ => self.value(&mut ops, id),
        }
        ops.push(Op::Return);
        ops
    }

    /// A container's walk (`walk`), then, when it has them, its checks as a whole, each
    /// from the value's start (`r0`) again and writing nothing: a `raw-check` of the walked
    /// value (`uniqueItems`, member rules), a call of the array's `contains` count.
    fn whole(
        &mut self,
        ops: &mut Emit,
        check: Option<RawPred>,
        count: Option<FuncId>,
        walk: impl FnOnce(&mut Self, &mut Emit),
    ) {
        if check.is_none() && count.is_none() {
            return walk(self, ops);
        }
        ops.push(Op::SavePos(0));
        walk(self, ops);
        ops.at = NO_DST;
        if let Some(pred) = check {
            let pred = self.raw_pred(pred);
            ops.extend([Op::RestorePos(0), Op::RawCheck { pred, walked: true }]);
        }
        if let Some(count) = count {
            ops.extend([Op::RestorePos(0), Op::Call(count)]);
        }
        ops.at = 0;
    }

    /// The function that counts the items of array node `id` matching `contains` (each
    /// tried, a failed one skipped) and checks the count: `r0 = pos; r1 = 0; arr-begin;
    /// L: try contains else F; r1 += 1; jump N; F: skip-value; N: arr-next L; arr-end;
    /// contains-end`.
    fn contains_count(&mut self, id: TypeId, c: ContainsDesc) -> FuncId {
        let matches = self.func(c.ty);
        let mut ops = Emit {
            at: NO_DST,
            ..Emit::default()
        };
        ops.extend([Op::SavePos(0), Op::SetReg(1, 0)]);
        let begin = ops.len();
        ops.push(Op::ArrBegin { empty: 0 });
        let head = ops.len() as Label;
        let try_at = ops.len();
        ops.extend([Op::Return, Op::IncReg(1)]);
        let to_next = self.jump(&mut ops);
        ops[try_at] = Op::Try {
            func: matches,
            on_fail: ops.len() as Label,
        };
        ops.push(Op::SkipValue);
        self.land(&mut ops, [to_next]);
        ops.push(Op::ArrNext { next: head });
        ops[begin] = Op::ArrBegin {
            empty: ops.len() as Label,
        };
        ops.extend([
            Op::ArrEnd { min: 0, max: None },
            Op::ContainsEnd {
                count: 1,
                start: 0,
                min: c.min_count(),
                max: c.max,
            },
            Op::Return,
        ]);
        let name = format!("#{} contains", id.index());
        self.new_func(name, id, ops)
    }

    /// Adds a raw-value predicate to the program; its id.
    fn raw_pred(&mut self, pred: RawPred) -> RawPredId {
        self.prog.raw_preds.push(pred);
        (self.prog.raw_preds.len() - 1) as RawPredId
    }

    /// The schema in an `Arc`, for predicates.
    fn shared_schema(&mut self) -> Arc<Schema> {
        let schema = self.schema;
        self.shared
            .get_or_insert_with(|| Arc::new(schema.clone()))
            .clone()
    }

    /// Emits a jump to be patched by [`Resolver::land`].
    fn jump(&mut self, ops: &mut Emit) -> Patch {
        ops.push(Op::Jump(0));
        Patch(ops.len() - 1)
    }

    /// Points the patched jumps at the next op.
    fn land(&mut self, ops: &mut Emit, patches: impl IntoIterator<Item = Patch>) {
        let here = ops.len() as Label;
        for Patch(at) in patches {
            ops[at] = Op::Jump(here);
        }
    }

    /// An array: the tuple prefix peeled into straight-line code, one item op and one
    /// `arr-next` per prefix item (each `arr-next` jumps on to the next item's op, or falls
    /// through to the jump to `arr-end` at `]`), then the loop over the other items. Peeled,
    /// each position has its own code and no item pays a jump table on its index
    /// (canada's `[longitude, latitude]` positions: two indirect jumps each).
    fn array(
        &mut self,
        ops: &mut Emit,
        prefix: &[TypeId],
        items: TypeId,
        min: u64,
        max: Option<u64>,
    ) {
        // With no items past the prefix, the prefix bounds the count (an item past it fails
        // at its own op, before `arr-end` could); stated so backends may size for it.
        let max = match self.schema.node(items) {
            TypeDesc::Never => {
                Some(max.map_or(prefix.len() as u64, |m| m.min(prefix.len() as u64)))
            }
            _ => max,
        };
        let begin = ops.len();
        ops.push(Op::ArrBegin { empty: 0 });
        let mut closes = Vec::new();
        for &ty in prefix {
            self.value(ops, ty);
            let next = ops.len() as Label + 2;
            ops.push(Op::ArrNext { next });
            closes.push(self.jump(ops));
        }
        let head = ops.len() as Label;
        self.value(ops, items);
        ops.push(Op::ArrNext { next: head });
        self.land(ops, closes);
        ops[begin] = Op::ArrBegin {
            empty: ops.len() as Label,
        };
        ops.push(Op::ArrEnd { min, max });
    }

    fn object(&mut self, ops: &mut Emit, id: TypeId, d: &ObjectDesc) {
        let shapes = &self.shapes.shapes;
        let raw = |t: TypeId| shapes[t.index()].shape == Shape::Raw;
        self.prog.key_tables.push(key_table(d, raw));
        let table = (self.prog.key_tables.len() - 1) as u32;
        let begin = ops.len();
        ops.push(Op::ObjBegin { empty: 0, table });
        let head = ops.len() as Label;
        ops.push(Op::Key(table));
        let switch_at = ops.len();
        ops.push(Op::Return);
        let mut targets = Vec::new();
        let mut ends = Vec::new();
        for (i, field) in d.fields.iter().enumerate() {
            targets.push(ops.len() as Label);
            let at = self.shapes.field_offset(id, i);
            let patterns: Vec<TypeId> = d.matching_patterns(&field.name).map(|p| p.ty).collect();
            match patterns.is_empty() {
                true => {
                    ops.at = at;
                    self.value(ops, field.ty);
                }
                false => self.checked_member(ops, at, Some(field.ty), &patterns),
            }
            ends.push(self.jump(ops));
        }
        targets.push(ops.len() as Label);
        if !d.patterns.is_empty() {
            ends.extend(self.patterned_member(ops, table, d));
        }
        match d.unknown {
            UnknownFields::Allow => {
                ops.at = PAIR;
                ops.push(Op::SkipValue);
            }
            UnknownFields::Deny => ops.push(Op::Fail(Violation::UnknownField)),
            // With patterns, every other member is raw JSON (see the layout).
            UnknownFields::Extra(ty) if !d.patterns.is_empty() => {
                self.checked_member(ops, PAIR, None, &[ty]);
            }
            UnknownFields::Extra(ty) => {
                ops.at = PAIR;
                self.value(ops, ty);
            }
        }
        ops[switch_at] = Op::SwitchField(targets.into());
        self.land(ops, ends);
        ops.at = 0;
        ops.push(Op::ObjNext { next: head });
        ops[begin] = Op::ObjBegin {
            empty: ops.len() as Label,
            table,
        };
        ops.push(Op::ObjEnd(table));
    }

    /// A member's value decoded as `ty` at `at` (as raw JSON when `None`), then checked
    /// (writing nothing) against each of `checks` from its start again: `r1 = pos; ty;
    /// r2 = pos; (pos = r1; check)*; pos = r2`.
    fn checked_member(&mut self, ops: &mut Emit, at: u32, ty: Option<TypeId>, checks: &[TypeId]) {
        ops.push(Op::SavePos(1));
        ops.at = at;
        match ty {
            Some(ty) => self.value(ops, ty),
            None => ops.push(Op::SkipValue),
        }
        ops.push(Op::SavePos(2));
        ops.at = NO_DST;
        for &check in checks {
            ops.push(Op::RestorePos(1));
            self.value(ops, check);
        }
        ops.push(Op::RestorePos(2));
    }

    /// An object's other member (no field names it) when some of `d`'s patterns match its
    /// name: its value checked against each of them, then kept as raw JSON; the jump that
    /// ends it, if any. Other members go on after it: `key-matches any else O; r1 = pos;
    /// (key-matches p else N; p; pos = r1; N:)*; skip-value; jump; O:`. With one pattern,
    /// the first test is the only one; where other members may be anything (also raw JSON),
    /// no test of any pattern: the patterns' checks fall through to the other members'
    /// `skip-value`.
    fn patterned_member(
        &mut self,
        ops: &mut Emit,
        table: KeyTableId,
        d: &ObjectDesc,
    ) -> Option<Patch> {
        let open = d.unknown == UnknownFields::Allow;
        let single = d.patterns.len() == 1;
        let any_at = (!open).then(|| {
            ops.push(Op::Return);
            ops.len() - 1
        });
        ops.push(Op::SavePos(1));
        ops.at = NO_DST;
        for (i, p) in d.patterns.iter().enumerate() {
            let test_at = (open || !single).then(|| {
                ops.push(Op::Return);
                ops.len() - 1
            });
            self.value(ops, p.ty);
            ops.push(Op::RestorePos(1));
            if let Some(at) = test_at {
                ops[at] = Op::KeyMatches {
                    table,
                    pattern: Some(i as u32),
                    miss: ops.len() as Label,
                };
            }
        }
        let any_at = any_at?;
        ops.at = PAIR;
        ops.push(Op::SkipValue);
        let end = self.jump(ops);
        ops[any_at] = Op::KeyMatches {
            table,
            pattern: None,
            miss: ops.len() as Label,
        };
        Some(end)
    }

    /// A `dispatch` over kind slots; an empty slot fails with a type error naming
    /// `expected` (plus `null` when `nullable`: the null slot then holds a plain `null`).
    fn dispatch(
        &mut self,
        ops: &mut Emit,
        slots: [Option<TypeId>; 6],
        expected: Kinds,
        nullable: bool,
    ) {
        let at = ops.len();
        ops.push(Op::Return);
        ops.at = UNION_PAYLOAD;
        let mut targets = [0 as Label; 6];
        let mut ends = Vec::new();
        let mut fail_at = None;
        for (slot, ty) in slots.into_iter().enumerate() {
            targets[slot] = ops.len() as Label;
            match ty {
                Some(ty) => self.value(ops, ty),
                None if nullable && slot == 0 => ops.push(Op::Null),
                None => {
                    if let Some(at) = fail_at {
                        targets[slot] = at;
                        continue;
                    }
                    fail_at = Some(ops.len() as Label);
                    ops.push(Op::Fail(Violation::Type { expected }));
                }
            }
            ends.push(self.jump(ops));
        }
        ops[at] = Op::Dispatch(Box::new(targets));
        ops.at = 0;
        self.land(ops, ends);
    }

    /// The kinds of a per-kind union's slots, for type errors.
    fn kinds_of(&self, slots: &[Option<TypeId>; 6]) -> Kinds {
        let number = match slots[2].map(|n| self.schema.node(n)) {
            Some(TypeDesc::Integer(_)) => Kinds::INTEGER,
            _ => Kinds::NUMBER,
        };
        let bits = [
            Kinds::NULL,
            Kinds::BOOLEAN,
            number,
            Kinds::STRING,
            Kinds::ARRAY,
            Kinds::OBJECT,
        ];
        slots
            .iter()
            .zip(bits)
            .filter(|(s, _)| s.is_some())
            .fold(Kinds::default(), |acc, (_, k)| acc.or(k))
    }

    fn any_of(&mut self, ops: &mut Emit, id: TypeId, u: &UnionDesc) {
        let mut ends = self.discriminate(ops, id, u, Violation::AnyOf);
        ops.push(Op::SavePos(0));
        for (i, &branch) in u.branches.iter().enumerate() {
            let func = self.func(branch);
            ops.push(Op::RestorePos(0));
            let try_at = ops.len();
            ops.at = UNION_PAYLOAD;
            ops.push(Op::Return);
            ops.at = 0;
            ops.push(Op::Tag(i as u32));
            ends.push(self.jump(ops));
            ops[try_at] = Op::Try {
                func,
                on_fail: ops.len() as Label,
            };
        }
        ops.extend([Op::RestorePos(0), Op::Fail(Violation::AnyOf)]);
        self.land(ops, ends);
    }

    /// `if` / `then` / `else`: the condition runs in a `Try` that writes nothing; the
    /// outcome it picks then runs from the value's start and writes the union's payload.
    fn conditional(&mut self, ops: &mut Emit, c: &ConditionalDesc) {
        let condition = self.func(c.condition);
        ops.push(Op::SavePos(0));
        let try_at = ops.len();
        ops.at = NO_DST;
        ops.push(Op::Return);
        ops.at = 0;
        ops.push(Op::RestorePos(0));
        self.outcome(ops, c.then, 0);
        let to_end = self.jump(ops);
        ops[try_at] = Op::Try {
            func: condition,
            on_fail: ops.len() as Label,
        };
        self.outcome(ops, c.otherwise, 1);
        self.land(ops, [to_end]);
    }

    /// The outcome `tag` of a conditional: its value as the union's payload, then the tag.
    fn outcome(&mut self, ops: &mut Emit, ty: TypeId, tag: u32) {
        ops.at = UNION_PAYLOAD;
        self.value(ops, ty);
        ops.at = 0;
        ops.push(Op::Tag(tag));
    }

    fn one_of(&mut self, ops: &mut Emit, id: TypeId, u: &UnionDesc) {
        let ends = self.discriminate(ops, id, u, Violation::OneOf { matched: 0 });
        ops.extend([Op::SavePos(0), Op::SetReg(1, 0)]);
        for (i, &branch) in u.branches.iter().enumerate() {
            let func = self.func(branch);
            ops.push(Op::RestorePos(0));
            // On failure, go on with the next branch: the op after these four. Each branch
            // decodes to its own place; the tag is the last match's.
            let on_fail = ops.len() as Label + 4;
            ops.at = self.shapes.branch_offset(id, i);
            ops.push(Op::Try { func, on_fail });
            ops.at = 0;
            ops.extend([Op::IncReg(1), Op::SavePos(2), Op::Tag(i as u32)]);
        }
        ops.push(Op::OneOfEnd {
            count: 1,
            start: 0,
            end: 2,
        });
        self.land(ops, ends);
    }

    /// The discriminator prelude of a union, when a tag selects its branch (see
    /// [`select`]): a present tag calls its branch; returns the jumps to the function's
    /// end.
    fn discriminate(
        &mut self,
        ops: &mut Emit,
        id: TypeId,
        u: &UnionDesc,
        none: Violation,
    ) -> Vec<Patch> {
        let Some(selection) = select(self.schema, u) else {
            return Vec::new();
        };
        let (tags, branches): (Vec<Box<str>>, Vec<usize>) = selection.tags.into_iter().unzip();
        self.prog.discriminators.push(IrDiscriminator {
            property: selection.property,
            tags: StrEnum::new(tags),
        });
        let disc = (self.prog.discriminators.len() - 1) as u32;
        let at = ops.len();
        ops.push(Op::Return);
        let mut ends = Vec::new();
        let mut blocks = Vec::new();
        for (i, &branch) in u.branches.iter().enumerate() {
            blocks.push(ops.len() as Label);
            ops.push(Op::Tag(i as u32));
            ops.at = self.shapes.branch_offset(id, i);
            self.value(ops, branch);
            ops.at = 0;
            ends.push(self.jump(ops));
        }
        // A tag or alias calls its branch's block; any other value the default's, fails,
        // or (names) tries the branches. An object without the property fails when every
        // branch requires it, else it tries the branches.
        let targets: Box<[Label]> = branches.iter().map(|&b| blocks[b]).collect();
        let fails = matches!(selection.unmatched, Unmatched::Fail) || selection.required;
        let fail = fails.then(|| {
            let at = ops.len() as Label;
            ops.push(Op::Fail(none));
            ends.push(self.jump(ops));
            at
        });
        let unmatched = match selection.unmatched {
            Unmatched::Branch(b) => Some(blocks[b]),
            Unmatched::Fail => fail,
            Unmatched::Trial => None,
        };
        let missing = fail.filter(|_| selection.required);
        let absent = ops.len() as Label;
        ops[at] = Op::Discriminate {
            disc,
            targets,
            unmatched: unmatched.unwrap_or(absent),
            absent,
            missing: missing.unwrap_or(absent),
        };
        ends
    }

    fn integer_check(&mut self, d: &IntegerDesc) -> u32 {
        self.num_check(true, d.minimum, d.maximum, d.multiple_of)
    }

    fn number_check(&mut self, d: &NumberDesc) -> u32 {
        self.num_check(false, d.minimum, d.maximum, d.multiple_of)
    }

    fn num_check(
        &mut self,
        integer: bool,
        min: Option<Bound>,
        max: Option<Bound>,
        multiple_of: Option<Num>,
    ) -> u32 {
        let limit = |b: Bound| Limit {
            value: Number::from(b.value),
            exclusive: b.exclusive,
        };
        let multiple_of = multiple_of.map(|divisor| {
            let divisor = Divisor::new(divisor);
            Arc::new(move |n: NumRef<'_>| match n {
                NumRef::Number(n) => number_is_multiple_of(n, &divisor),
                NumRef::BigInt(b) => is_big_multiple_of(b, &divisor),
            }) as _
        });
        self.prog.num_checks.push(NumCheck {
            integer,
            minimum: min.map(limit),
            maximum: max.map(limit),
            multiple_of,
        });
        (self.prog.num_checks.len() - 1) as u32
    }

    fn string_check(&mut self, d: &StringDesc) -> u32 {
        // An ASCII shape is the whole check, so a format leaves none.
        let ascii = (d.pattern.as_ref())
            .filter(|_| d.asserted_format.is_none())
            .and_then(|p| ascii_shape(p, d));
        let pattern = d
            .pattern
            .clone()
            .map(|p| Arc::new(move |s: &str| p.is_match(s)) as _);
        let format = d
            .asserted_format
            .map(|f| Arc::new(move |s: &str| f.is_valid(s)) as _);
        self.prog.str_checks.push(StrCheck {
            min_length: d.min_length,
            max_length: d.max_length,
            pattern,
            format,
            ascii,
        });
        (self.prog.str_checks.len() - 1) as u32
    }

    fn enumeration(&mut self, values: &[Value]) -> Op {
        let strings: Option<Vec<Box<str>>> =
            values.iter().map(|v| v.as_str().map(Box::from)).collect();
        if let Some(strings) = strings {
            self.prog.str_enums.push(StrEnum::new(strings));
            return Op::StrEnum((self.prog.str_enums.len() - 1) as u32);
        }
        let set = JsonSet::of(values);
        let numbers: Vec<Number> = values
            .iter()
            .filter_map(|v| v.as_number().map(|n| Number::from(Num::from_json(n))))
            .collect();
        let pred = self.raw_pred(Arc::new(move |raw: &[u8], big_ints: BigInts| {
            // A big integer kept raw is compared by its digits; anything else as the engine
            // reads it (the correctly rounded nearest `f64`, with the other policies).
            let big = std::str::from_utf8(raw).ok().and_then(BigInt::new);
            let allowed = match big {
                Some(b) if big_ints == BigInts::Raw => {
                    numbers.iter().any(|&n| b.cmp_exact(n).is_eq())
                }
                _ => crate::value::serde_of_text(raw).is_some_and(|v| set.contains(&v)),
            };
            allowed.then_some(()).ok_or(Violation::Enum)
        }));
        Op::RawCheck {
            pred,
            walked: false,
        }
    }
}

/// A short name of a node's variant, for listings.
fn node_name(node: &TypeDesc) -> &'static str {
    match node {
        TypeDesc::Any => "any",
        TypeDesc::Never => "never",
        TypeDesc::Null => "null",
        TypeDesc::Bool => "boolean",
        TypeDesc::Integer(_) => "integer",
        TypeDesc::Number(_) => "number",
        TypeDesc::String(_) => "string",
        TypeDesc::Array(_) => "array",
        TypeDesc::Object(_) => "object",
        TypeDesc::Map(_) => "map",
        TypeDesc::Nullable(_) => "nullable",
        TypeDesc::Kinds(_) => "kinds",
        TypeDesc::Enum(_) => "enum",
        TypeDesc::AnyOf(_) => "anyOf",
        TypeDesc::OneOf(_) => "oneOf",
        TypeDesc::AllOf(_) => "allOf",
        TypeDesc::Not(_) => "not",
        TypeDesc::Conditional(_) => "if",
    }
}

/// `d`'s check as a shape of ASCII bytes, when its pattern is one (see [`AsciiShape`]); the
/// lengths fold in, as an ASCII text has as many code points as bytes.
fn ascii_shape(pattern: &Pattern, d: &StringDesc) -> Option<AsciiShape> {
    let max_length = d.max_length.unwrap_or(u64::MAX);
    if let Some((set, min, max)) = pattern.ascii_run() {
        return Some(AsciiShape::Run {
            set,
            min: u64::from(min).max(d.min_length),
            max: u64::from(max).min(max_length),
        });
    }
    let sets = pattern.ascii_positions()?;
    (d.min_length..=max_length)
        .contains(&(sets.len() as u64))
        .then(|| AsciiShape::Fixed(sets.into()))
}

/// The key table of an object's fields: each found by its name or an alias.
fn key_table(d: &ObjectDesc, raw: impl Fn(TypeId) -> bool) -> KeyTable {
    let aliases = (d.fields.iter().enumerate())
        .flat_map(|(i, f)| f.aliases.iter().map(move |a| (a.clone(), i as u32)));
    let patterns = (d.patterns.iter())
        .map(|p| {
            let pattern = p.pattern.clone();
            KeyPattern {
                source: p.pattern.source().into(),
                test: Arc::new(move |name: &str| pattern.is_match(name)),
            }
        })
        .collect();
    KeyTable::with_aliases(
        d.fields.iter().map(|f| (f.name.clone(), f.required)),
        aliases,
    )
    .with_patterns(
        patterns,
        matches!(d.unknown, UnknownFields::Extra(t) if !raw(t)),
    )
}
