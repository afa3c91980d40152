//! The opcode IR: what a schema becomes, and what every backend executes.
//!
//! This module is the one place the opcode set is defined. The interpreter
//! ([`crate::interp`]) implements exactly these semantics, and the Cranelift lowering must
//! match it bit for bit, errors included. The IR knows JSON (kinds, objects, arrays) but
//! nothing of any schema language: checks that need more than JSON (a regular expression,
//! exact `multipleOf`, equality with arbitrary JSON values) are *predicates* the producer
//! hands in as closures ([`StrPred`], [`NumPred`], [`RawPred`]); generated code calls them
//! through an `extern "C"` trampoline.
//!
//! # Program shape
//!
//! A [`Program`] is a list of [`Func`]s; [`Program::entry`] runs the document. A function is a
//! linear list of [`Op`]s; a [`Label`] is an index into that list (a jump target, the start of
//! a block). Control falls through to the next op unless the op jumps, calls or returns. Every
//! composite schema node (object, array, union, …) is one function, so a recursive schema is a
//! recursive call; scalar checks are inlined at their use.
//!
//! # Machine state
//!
//! - `input: &[u8]` and the cursor `pos` (a byte index into it);
//! - a call stack of frames; each frame has four registers `r0..r3` (`usize`), the container
//!   state of the one array or object its function parses (`count` = items or members seen,
//!   `field` = the field index matched by the last [`Op::Key`], a presence bitmap with one bit
//!   per named field) and, for frames entered by [`Op::Try`], a *catch* record (handler label
//!   and the saved cursor, depth, path length);
//! - `depth`: the number of arrays and objects currently open; opening one past
//!   [`ExecOptions::max_depth`] is a `DepthLimitExceeded` error, so no input can exhaust any
//!   stack (frames live on the heap and are bounded by `depth` × schema size);
//! - the *path stack*: one [`PathSeg`] per open container, updated in place per element
//!   (an index, a named field's index, or the byte span of an unknown key). Errors copy it;
//!   the API layer turns it into `$.a[3].b`.
//!
//! # Values and whitespace
//!
//! Every *value op* (marked **value** below) first skips whitespace, then consumes exactly
//! one JSON value starting at `pos` and leaves `pos` just past it. When the value has the
//! wrong JSON kind, the op fails with [`Violation::Type`] if the byte starts some other JSON
//! value, and with the syntax error `ExpectedValue` otherwise. Strings are fully checked
//! (closing quote, no raw control bytes, valid escapes with strict surrogates, UTF-8);
//! numbers follow the JSON grammar and must fit an `f64` (`1e400` is `NumberOutOfRange`);
//! integers beyond 64 bits follow [`BigInts`].
//!
//! # Errors
//!
//! An error is a [`Failure`]: a [`FailKind`], the byte offset, and a copy of the path stack.
//! *Syntax* errors (a kernel [`ErrorKind`]), `DepthLimitExceeded`, `NumberOutOfRange` and
//! `DuplicateKey` are *fatal*: they end the run whatever is active. A [`Violation`] (the value
//! is well-formed JSON but breaks a check) is caught by the innermost [`Op::Try`] frame if
//! there is one (unwind to it, restore its cursor, depth and path, jump to its handler);
//! otherwise it ends the run, or, in collect-all mode, is recorded and execution *resumes*:
//! the failed value op skips the value it was checking and continues with the next op (a
//! container that is not a container skips the value and returns from its function; the
//! closing checks of [`Op::ArrEnd`] / [`Op::ObjEnd`] / [`Op::OneOfEnd`] have already
//! consumed their value).
//!
//! # The ops
//!
//! | op | operands | effect | errors |
//! |---|---|---|---|
//! | [`Null`](Op::Null) **value** | | `null` | `Type` |
//! | [`Bool`](Op::Bool) **value** | | `true` / `false` | `Type` |
//! | [`Number`](Op::Number) **value** | [`NumCheckId`] | a number; `integer` checks (no fraction: `1.0` counts), bounds by exact comparison, then the predicate (a [`BigInts::Raw`] big integer is an integer and compares by its digits) | `Type`, `Minimum`, `Maximum`, `MultipleOf` |
//! | [`String`](Op::String) **value** | [`StrCheckId`] | a string; length in code points of the unescaped text, then the pattern and format predicates | `Type`, `MinLength`, `MaxLength`, `Pattern`, `Format` |
//! | [`StrEnum`](Op::StrEnum) **value** | [`StrEnumId`] | a string equal (unescaped) to one of the table's strings | `Enum` (any other value) |
//! | [`RawCheck`](Op::RawCheck) **value** | [`RawPredId`], `walked` | skip one value (validating; when `walked`, the ops before checked it, so by balancing brackets only), then call the predicate on its raw bytes and the run's [`BigInts`] policy | the predicate's violation |
//! | [`SkipValue`](Op::SkipValue) **value** | | skip one value, validating its syntax (the kernel's validating skip, depth-limited) and that its numbers fit an `f64` (as read numbers must) | syntax, depth, `NumberOutOfRange` |
//! | [`Fail`](Op::Fail) | [`Violation`] | fail at the next value (after whitespace) | the violation |
//! | [`Dispatch`](Op::Dispatch) | 6 labels | peek the next value's first byte; jump to the label of its kind (null, boolean, number, string, array, object) | `ExpectedValue` (syntax) when no value starts there |
//! | [`Discriminate`](Op::Discriminate) | [`DiscId`], labels | look ahead in the object at `pos` (without consuming) for the table's property (the first member named so); a string value equal to tag `i` jumps to `targets[i]`; another value to `unmatched`; a well-formed object without the property to `missing`; a value that is not an object, or a syntax error while looking, to `absent`. Without a property, the first member's name is the tag: a name equal to tag `i` jumps to `targets[i]`, another to `unmatched`, an empty object or a syntax error to `absent` | none |
//! | [`Call`](Op::Call) | [`FuncId`] | run the function (new frame), then continue | the callee's |
//! | [`Try`](Op::Try) | [`FuncId`], label | run the function in a catching frame: on success continue after the op, on a violation restore cursor, depth and path and jump to the label | fatal errors pass through |
//! | [`Jump`](Op::Jump) | label | jump | |
//! | [`Return`](Op::Return) | | pop the frame | |
//! | [`SavePos`](Op::SavePos) / [`RestorePos`](Op::RestorePos) | register | `r = pos` / `pos = r` | |
//! | [`SetReg`](Op::SetReg) / [`IncReg`](Op::IncReg) | register, value | `r = v` / `r += 1` | |
//! | [`OneOfEnd`](Op::OneOfEnd) | count, start, end registers | if `count == 1` then `pos = end`, else fail at the first non-whitespace byte from `start` (the value's start) | `OneOf { matched }` |
//! | [`ContainsEnd`](Op::ContainsEnd) | count, start registers, min, max | `min <= count <= max`, else fail at the first non-whitespace byte from `start` (the array's start) | `MinContains`, `MaxContains` |
//! | [`ArrBegin`](Op::ArrBegin) **value start** | label `empty` | skip whitespace, `[`, `depth += 1`, push path index 0, `count = 0`; if `]` follows consume it and jump to `empty` | `Type`, depth |
//! | [`ArrNext`](Op::ArrNext) | label `next` | `count += 1`; skip whitespace; `,` sets the path index to `count` and jumps to `next`; `]` falls through | `ExpectedCommaOrEnd` |
//! | [`ArrEnd`](Op::ArrEnd) | min, max | `depth -= 1`, pop path; check `min <= count <= max` | `MinItems`, `MaxItems` |
//! | [`ObjBegin`](Op::ObjBegin) **value start** | label `empty`, [`KeyTableId`] | skip whitespace, `{`, `depth += 1`, push path, clear the presence bitmap, `field = none`; if `}` follows consume it and jump to `empty` | `Type`, depth |
//! | [`Key`](Op::Key) | [`KeyTableId`] | skip whitespace, read a key string, `:`; match it against the table: first the name of the field after the previously matched one (schema order), then the table's switch on key length and leading 8 bytes over names and aliases; set `field` (none when unknown; an alias sets its field), the path top (the field, so the path names it by its name), and the field's presence bit | `ExpectedKey`, `ExpectedColon`, string syntax; `DuplicateKey` when a named field repeats (under any of its names) and duplicates are denied |
//! | [`SwitchField`](Op::SwitchField) | labels | jump to `targets[field]`, or the last label for an unknown key | |
//! | [`KeyMatches`](Op::KeyMatches) | [`KeyTableId`], pattern, label `miss` | the name in the path top (a key no field names) matches the table's pattern (any of them when none is given), else jump to `miss` | |
//! | [`ObjNext`](Op::ObjNext) | label `next` | skip whitespace; `,` jumps to `next`; `}` falls through | `ExpectedCommaOrEnd` |
//! | [`ObjEnd`](Op::ObjEnd) | [`KeyTableId`] | `depth -= 1`, pop path; every required field's bit must be set (first missing in table order) | `Required { field }` |
//! | [`Eof`](Op::Eof) | | skip whitespace; the input must end | `TrailingCharacters` |
//! | [`Tag`](Op::Tag) | value | nothing (a decode-only op) | |
//!
//! # Decode
//!
//! The same program decodes. [`Program::layout`] gives each function the [`ShapeId`] of the
//! slot it writes and each op a *destination* operand `dst` (a byte offset, or [`NO_DST`]:
//! write nothing); the memory format is [`crate::layout`]'s. Validation ignores all of it.
//! A decoding frame has a *destination* (where its value goes: the caller's base + the call's
//! `dst`) and a *base* (where its ops' `dst` count from: the destination, except inside
//! containers, see below). A frame entered with no destination writes nothing, nor do its
//! callees. What each op writes, at base + `dst` unless said otherwise:
//!
//! | op | decode effect |
//! |---|---|
//! | `Null`, `Fail`, `Jump`, register ops, `OneOfEnd`, `ContainsEnd`, `SwitchField`, `KeyMatches`, `ObjNext`, `Eof`, `Discriminate` | nothing |
//! | `Bool` | `u8` 0 / 1 |
//! | `Number` | the [`Number`] (tag + 8 bytes), or a [`BigInts::Raw`] big integer's text (`NUM_RAW`: tag, `u32` length, pointer into the input) |
//! | `String` | `(ptr, len)` of the unescaped text (the input when it has no escapes, else an arena copy) |
//! | `StrEnum` | `u32` index of the matched string |
//! | `RawCheck`, `SkipValue` | `(ptr, len)` of the value's raw text in the input |
//! | `Dispatch` | `u32` kind slot (0 null … 5 object) — the union tag |
//! | `Tag` | `u32` value — the union tag of a branch that matched |
//! | `Call`, `Try` | the callee's destination is base + `dst`; when the callee's shape is boxed, the callee writes a fresh record, copied to the arena at its `Return` and its pointer stored at base + `dst` |
//! | `Return` | (boxed frames) the record to the arena, its pointer to the slot |
//! | `ArrBegin` | start an element buffer (reusable scratch); unless empty, reserve item 0 (`stride` zero bytes, from the function's shape) and set the base to it |
//! | `ArrNext` | on `,`: reserve the next item, base = it |
//! | `ArrEnd` | copy the items to the arena; `(ptr, len)` at the frame's destination |
//! | `ObjBegin` | zero the record at the destination; start an extras buffer |
//! | `Key` | named field: base = the record; unknown key: append an extras entry holding the key's `(ptr, len)`, base = that entry (its value op's `dst` is 16) |
//! | `ObjEnd` | presence bitmap into the record; extras to the arena, `(ptr, len)` into the record |
//!
//! A caught violation ([`Op::Try`]) drops the failed branch's open buffers; what it wrote
//! stays as garbage to be overwritten (each `oneOf` branch has its own payload place, and the
//! union tag is written only after a branch matched).
//!
//! # Remembered runs
//!
//! [`Program::recall`] marks functions whose runs are remembered per position (the plan,
//! and why one position may meet a function twice only where it marks: [`crate::recall`]).
//! A run that builds nothing (validation; in native decode, a call without destination)
//! and calls (`call` or `try`) a remembered function at a position where it already ran:
//!
//! - where it *passed*, continues at the position that run ended at, without running it;
//! - where it *failed with a violation* while a `try` frame is open (this op's own, for
//!   `try`), fails with a violation at once, caught as the first one was;
//! - otherwise runs it.
//!
//! A pass is remembered when its run recorded no collect-all error; a failure when a
//! violation unwinds out of the run to a catching frame. A run that builds (decode,
//! transcode) in a program with a plan first *tries* the callee of each `try`, and each
//! `call` of a remembered function that builds nothing, as a run that builds nothing
//! (whose verdicts last the whole run): a failure fails as above without running it; a
//! pass skips such a call, and runs a `try`'s callee for real. None of this changes a
//! result or an error, only how often a function runs: each remembered function runs at
//! most once per position (and per failure outside any `try`), so checking is linear in
//! the input, and building runs run one branch of each union.

use std::fmt;
use std::sync::Arc;

use crate::layout::Layout;
pub use crate::layout::{NO_DST, ShapeId};
use crate::recall::Recall;

pub use jitson_kernels::ErrorKind;

/// A function's index in [`Program::funcs`].
pub type FuncId = u32;
/// An op's index in its function: a jump target.
pub type Label = u32;
/// A frame register, `0..`[`REGS`].
pub type Reg = u8;
/// Number of registers per frame.
pub const REGS: usize = 4;

/// An index into [`Program::num_checks`].
pub type NumCheckId = u32;
/// An index into [`Program::str_checks`].
pub type StrCheckId = u32;
/// An index into [`Program::str_enums`].
pub type StrEnumId = u32;
/// An index into [`Program::raw_preds`].
pub type RawPredId = u32;
/// An index into [`Program::key_tables`].
pub type KeyTableId = u32;
/// An index into [`Program::discriminators`].
pub type DiscId = u32;

/// A JSON number as read from the input: non-negative integers as `U64`, negative ones as
/// `I64`, everything else (a fraction, an exponent, or an integer beyond 64 bits) as `F64`
/// (the representation `serde_json` gives the same text). With [`BigInts::Raw`], integers
/// beyond 64 bits are [`NumRef::BigInt`] instead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// A negative integer.
    I64(i64),
    /// A non-negative integer.
    U64(u64),
    /// Any other number.
    F64(f64),
}

/// An integer beyond the 64-bit ranges kept as its decimal text ([`BigInts::Raw`]): an
/// optional `-`, then digits without a leading zero (the input's token, verbatim).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BigInt<'a>(pub(crate) &'a str);

/// A number as checks and sinks see it: a [`Number`], or with [`BigInts::Raw`] an integer
/// beyond the 64-bit ranges as its text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumRef<'a> {
    /// A number that fits its representation.
    Number(Number),
    /// An integer beyond `u64` (positive) or `i64` (negative), read with [`BigInts::Raw`].
    BigInt(BigInt<'a>),
}

/// A check on a string's unescaped text (a regular expression, for instance).
pub type StrPred = Arc<dyn Fn(&str) -> bool + Send + Sync>;
/// A check on a number (exact `multipleOf`, for instance); big integers come as their text
/// with [`BigInts::Raw`].
pub type NumPred = Arc<dyn for<'n> Fn(NumRef<'n>) -> bool + Send + Sync>;
/// A check on one complete, well-formed JSON value given as its raw bytes (equality with a
/// list of JSON values, for instance), under the run's [`BigInts`] policy (which says what
/// an integer beyond 64 bits in those bytes is): `Ok`, or the violation to report.
pub type RawPred = Arc<dyn Fn(&[u8], BigInts) -> Result<(), Violation> + Send + Sync>;

/// A number bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// The bound.
    pub value: Number,
    /// Whether the bound itself is excluded.
    pub exclusive: bool,
}

/// The checks of an [`Op::Number`].
#[derive(Clone, Default)]
pub struct NumCheck {
    /// Only numbers without a fractional part.
    pub integer: bool,
    /// Lower bound.
    pub minimum: Option<Limit>,
    /// Upper bound.
    pub maximum: Option<Limit>,
    /// A last check ([`Violation::MultipleOf`] when it says no).
    pub multiple_of: Option<NumPred>,
}

/// The checks of an [`Op::String`].
#[derive(Clone, Default)]
pub struct StrCheck {
    /// Fewest code points.
    pub min_length: u64,
    /// Most code points.
    pub max_length: Option<u64>,
    /// A check after the lengths ([`Violation::Pattern`] when it says no).
    pub pattern: Option<StrPred>,
    /// A last check ([`Violation::Format`] when it says no).
    pub format: Option<StrPred>,
    /// The whole check as a simple shape of ASCII bytes, when it is one.
    pub ascii: Option<AsciiShape>,
}

/// A [`StrCheck`] that only ASCII texts of a simple shape pass: a `pattern` of ASCII classes
/// the anchored byte matcher takes, with the check's length bounds folded in (an ASCII text
/// has as many code points as bytes). Native code decides such strings from their bytes; the
/// check's `pattern` and lengths stay its definition, and make its errors. Sets have bit `b`
/// set when byte `b` may appear (ASCII bytes only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsciiShape {
    /// A run of one class (`^[0-9]+$`, `^[0-9a-f]{6}$`): the texts of `min..=max` bytes,
    /// each in `set`.
    Run {
        /// The class.
        set: u128,
        /// Fewest bytes.
        min: u64,
        /// Most bytes.
        max: u64,
    },
    /// Classes with fixed counts (`^[0-9]{4}-[0-9]{2}$`): the texts of one byte per entry,
    /// each in its entry's set.
    Fixed(Box<[u128]>),
}

impl StrCheck {
    /// True when the check needs the unescaped text (otherwise escapes are only validated).
    pub fn needs_text(&self) -> bool {
        self.min_length > 0
            || self.max_length.is_some()
            || self.pattern.is_some()
            || self.format.is_some()
    }
}

/// An object's named fields and how keys find them.
///
/// Each field has its name and may have aliases: other keys that find the same field (one
/// presence bit, one slot; a key holding an alias is the field's key repeated when the name
/// is there too). Lookup ([`KeyTable::find`]) first tries the name of the field after the
/// previously matched one (input usually follows schema order), then a hash switch over
/// every key (names and aliases) computed when the table is built: by the key's length and
/// its first 8 bytes, then the full key.
#[derive(Clone, Debug)]
pub struct KeyTable {
    names: Vec<Box<str>>,
    required: Vec<bool>,
    /// `(alias, field)`, in the order given.
    aliases: Vec<(Box<str>, u32)>,
    /// Every key: key `k` is the name of field `k` below `names.len()`, else alias
    /// `k - names.len()`.
    switch: TextSwitch,
    /// Patterns of member names ([`Op::KeyMatches`]).
    patterns: Vec<KeyPattern>,
    /// With patterns: whether the members no field names and no pattern matches are
    /// described by the schema (see [`KeyTable::describes_other`]).
    others_described: bool,
}

/// Which patterns of a key table matched the last key asked about
/// ([`KeyTable::key_matches_memo`]); one per run (a key's offset names it within the run).
/// Native code reads it in place (`repr(C)`, words).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyMemo {
    /// The key's offset + 1 (0: none yet).
    pub(crate) key: u64,
    /// The key table.
    pub(crate) table: u64,
    /// Bit `i`: pattern `i` matched.
    pub(crate) mask: u64,
}

/// A pattern of member names (`patternProperties`): its text, for listings, and its test
/// on a decoded name.
#[derive(Clone)]
pub struct KeyPattern {
    /// The pattern as the schema wrote it.
    pub source: Box<str>,
    /// Whether a name matches.
    pub test: StrPred,
}

impl fmt::Debug for KeyPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyPattern({:?})", self.source)
    }
}

impl KeyTable {
    /// A table of the fields `(name, required)` in schema order (names distinct).
    pub fn new(fields: impl IntoIterator<Item = (String, bool)>) -> KeyTable {
        KeyTable::with_aliases(fields, [])
    }

    /// A table of the fields `(name, required)` in schema order and their aliases
    /// `(alias, field index)`; names and aliases all distinct, every index a field's.
    pub fn with_aliases(
        fields: impl IntoIterator<Item = (String, bool)>,
        aliases: impl IntoIterator<Item = (String, u32)>,
    ) -> KeyTable {
        let (names, required): (Vec<Box<str>>, Vec<bool>) = fields
            .into_iter()
            .map(|(n, r)| (n.into_boxed_str(), r))
            .unzip();
        let aliases: Vec<(Box<str>, u32)> = aliases
            .into_iter()
            .map(|(a, f)| (a.into_boxed_str(), f))
            .collect();
        let mut table = KeyTable {
            names,
            required,
            aliases,
            switch: TextSwitch::default(),
            patterns: Vec::new(),
            others_described: false,
        };
        let keys = (table.names.len() + table.aliases.len()) as u32;
        table.switch = TextSwitch::new(keys, |k| table.key(k).0.as_bytes());
        table
    }

    /// Key `k` of the switch (see [`KeyTable::switch`]) and the field it finds.
    fn key(&self, k: u32) -> (&str, u32) {
        match self.names.get(k as usize) {
            Some(name) => (name, k),
            None => {
                let (alias, field) = &self.aliases[k as usize - self.names.len()];
                (alias, *field)
            }
        }
    }

    /// The field names, in schema order.
    pub fn names(&self) -> &[Box<str>] {
        &self.names
    }

    /// The aliases `(alias, field index)`, in the order given.
    pub fn aliases(&self) -> &[(Box<str>, u32)] {
        &self.aliases
    }

    /// The table with `patterns` of member names, in schema order; `others_described`
    /// when the members no field names and no pattern matches have a schema of their own
    /// (`additionalProperties` that is not open).
    pub fn with_patterns(mut self, patterns: Vec<KeyPattern>, others_described: bool) -> KeyTable {
        self.patterns = patterns;
        self.others_described = others_described;
        self
    }

    /// Whether the name of the key at input offset `start` matches pattern `pattern` (any
    /// when `None`), through `memo`: the first question about a key (of this table) reads
    /// its name with `name` (`None`: not UTF-8, matching nothing) and answers for every
    /// pattern, so the checks of one member match its name once.
    pub(crate) fn key_matches_memo<'t, E>(
        &self,
        memo: &mut KeyMemo,
        table: KeyTableId,
        start: usize,
        pattern: Option<u32>,
        name: impl FnOnce() -> Result<Option<&'t str>, E>,
    ) -> Result<bool, E> {
        if self.patterns.len() > 64 {
            return Ok(name()?.is_some_and(|k| self.key_matches(pattern, k)));
        }
        let (key, table) = (start as u64 + 1, u64::from(table));
        if (memo.key, memo.table) != (key, table) {
            let mask = name()?.map_or(0, |k| {
                let bits = self.patterns.iter().enumerate();
                bits.fold(0, |m, (i, p)| m | u64::from((p.test)(k)) << i)
            });
            *memo = KeyMemo { key, table, mask };
        }
        Ok(match pattern {
            None => memo.mask != 0,
            Some(i) => memo.mask >> i & 1 == 1,
        })
    }

    /// For a table with patterns, whether the schema describes a member no field names:
    /// other members have a schema of their own, or a pattern matches its name (what
    /// `any_pattern` answers, asked only then). Such a member is kept whole, as raw JSON,
    /// where transcode drops or denies unknown members. Without patterns, `false` (the
    /// object's layout tells).
    pub fn describes_other<E>(
        &self,
        any_pattern: impl FnOnce() -> Result<bool, E>,
    ) -> Result<bool, E> {
        match self.patterns.is_empty() {
            true => Ok(false),
            false => Ok(self.others_described || any_pattern()?),
        }
    }

    /// The patterns of member names, in schema order.
    pub fn patterns(&self) -> &[KeyPattern] {
        &self.patterns
    }

    /// Whether name `key` matches pattern `pattern`, or any pattern when `None` (see
    /// [`Op::KeyMatches`]).
    pub fn key_matches(&self, pattern: Option<u32>, key: &str) -> bool {
        match pattern {
            Some(i) => (self.patterns[i as usize].test)(key),
            None => self.patterns.iter().any(|p| (p.test)(key)),
        }
    }

    /// Whether field `i` is required.
    pub fn is_required(&self, i: usize) -> bool {
        self.required[i]
    }

    /// Number of named fields.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when the table names no field (a map).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The field whose name or alias is `key`, trying field `hint`'s name first.
    #[inline]
    pub fn find(&self, key: &[u8], hint: usize) -> Option<u32> {
        if let Some(name) = self.names.get(hint)
            && name.as_bytes() == key
        {
            return Some(hint as u32);
        }
        let k = self.switch.find(key, |k| self.key(k).0.as_bytes())?;
        Some(self.key(k).1)
    }
}

/// A lookup of texts `0..n` computed once. `entries`: `(len, prefix, text)` sorted by
/// length, then by the text's first 8 bytes read as a little-endian integer (zero padded),
/// then by the whole text (equal texts by index: the first is found); `slots`: an
/// open-addressing hash table (linear probing, at most half full) of the first entry of
/// each distinct `(len, prefix)`. A lookup hashes the key's length and prefix, probes to its
/// group and compares the whole text with the group's (rarely more than one: texts that
/// share a length and 8 leading bytes). A binary search over the entries, whose steps'
/// branches mispredict, validated a 60-value enumeration at 378 MB/s, the table at 500.
#[derive(Clone, Debug, Default)]
struct TextSwitch {
    entries: Vec<(u32, u64, u32)>,
    /// `1 +` an index into `entries`; 0 for an empty slot. `2^bits` long.
    slots: Vec<u32>,
    /// `64 - bits`: a hash's top `bits` pick its home slot.
    shift: u32,
}

impl TextSwitch {
    /// The switch over texts `0..n`, text `k` being `text(k)`.
    fn new<'t>(n: u32, text: impl Fn(u32) -> &'t [u8]) -> TextSwitch {
        let mut entries: Vec<(u32, u64, u32)> = (0..n)
            .map(|k| (text(k).len() as u32, prefix8(text(k)), k))
            .collect();
        entries.sort_by(|a, b| (a.0, a.1, text(a.2)).cmp(&(b.0, b.1, text(b.2))));
        let mut slots = vec![0u32; (2 * entries.len()).next_power_of_two().max(2)];
        let (mask, shift) = (slots.len() - 1, 64 - slots.len().trailing_zeros());
        for (i, e) in entries.iter().enumerate() {
            if i > 0 && (entries[i - 1].0, entries[i - 1].1) == (e.0, e.1) {
                continue;
            }
            let mut at = slot_of(e.0, e.1, shift);
            while slots[at] != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = i as u32 + 1;
        }
        TextSwitch {
            entries,
            slots,
            shift,
        }
    }

    /// The index of the first text equal to `key` (`text` as given to
    /// [`TextSwitch::new`]).
    #[inline]
    fn find<'t>(&self, key: &[u8], text: impl Fn(u32) -> &'t [u8]) -> Option<u32> {
        let probe = (key.len() as u32, prefix8(key));
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = slot_of(probe.0, probe.1, self.shift);
        let start = loop {
            let i = self.slots[at].checked_sub(1)? as usize;
            if (self.entries[i].0, self.entries[i].1) == probe {
                break i;
            }
            at = (at + 1) & mask;
        };
        self.entries[start..]
            .iter()
            .take_while(|e| (e.0, e.1) == probe)
            .map(|e| e.2)
            .find(|&k| text(k) == key)
    }
}

/// The home slot of `(len, prefix)` in a table of `2^(64 - shift)` slots: Fibonacci
/// hashing of the two mixed (the product's top bits).
#[inline]
fn slot_of(len: u32, prefix: u64, shift: u32) -> usize {
    let mixed = (prefix ^ u64::from(len).rotate_right(8)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> shift) as usize
}

/// The first 8 bytes of `key` as a little-endian integer, zero padded, read with whole-word
/// loads (two overlapping ones below 8 bytes), not through a zero-padded copy, whose byte
/// stores stall the word load that follows.
#[inline]
fn prefix8(key: &[u8]) -> u64 {
    let n = key.len();
    let word = |at: usize, width: usize| -> u64 {
        let mut bytes = [0u8; 8];
        bytes[..width].copy_from_slice(&key[at..at + width]);
        u64::from_le_bytes(bytes)
    };
    match n {
        8.. => word(0, 8),
        4..=7 => word(0, 4) | word(n - 4, 4) << (8 * (n - 4)),
        2..=3 => word(0, 2) | word(n - 2, 2) << (8 * (n - 2)),
        1 => u64::from(key[0]),
        0 => 0,
    }
}

/// A string enumeration's values, in schema order, and their lookup.
#[derive(Clone, Debug)]
pub struct StrEnum {
    values: Vec<Box<str>>,
    switch: TextSwitch,
}

impl StrEnum {
    /// The enumeration of `values` (a value given twice is found at its first index).
    pub fn new(values: Vec<Box<str>>) -> StrEnum {
        let switch = TextSwitch::new(values.len() as u32, |k| values[k as usize].as_bytes());
        StrEnum { values, switch }
    }

    /// The values, in schema order.
    pub fn values(&self) -> &[Box<str>] {
        &self.values
    }

    /// The index of the value whose text is `text`.
    #[inline]
    pub fn find(&self, text: &[u8]) -> Option<u32> {
        self.switch
            .find(text, |k| self.values[k as usize].as_bytes())
    }
}

/// What selects a union's branch: string tags, each selecting a branch, held by a
/// property's value or by the name of the object's first member.
#[derive(Clone, Debug)]
pub struct Discriminator {
    /// The property whose value is the tag; `None`: the first member's name is the tag
    /// (serde's externally tagged enums, `{"Variant": data}`).
    pub property: Option<Box<str>>,
    /// The tags (unescaped text), distinct: tag `i` jumps to the op's `targets[i]` (several
    /// tags may share a target: a branch's name and aliases).
    pub tags: StrEnum,
}

/// JSON value kinds as a bit set, for [`Violation::Type`]: bit `i` is kind `i` in
/// [`Kinds::NAMES`] order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Kinds(pub u8);

impl Kinds {
    /// The kind names, by bit.
    pub const NAMES: [&'static str; 7] = [
        "null", "boolean", "integer", "number", "string", "array", "object",
    ];
    /// `null`.
    pub const NULL: Kinds = Kinds(1);
    /// `true` / `false`.
    pub const BOOLEAN: Kinds = Kinds(2);
    /// Numbers without a fractional part.
    pub const INTEGER: Kinds = Kinds(4);
    /// Any number.
    pub const NUMBER: Kinds = Kinds(8);
    /// Strings.
    pub const STRING: Kinds = Kinds(16);
    /// Arrays.
    pub const ARRAY: Kinds = Kinds(32);
    /// Objects.
    pub const OBJECT: Kinds = Kinds(64);

    /// The union of two sets.
    pub const fn or(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }
}

impl fmt::Display for Kinds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = (0..7)
            .filter(|i| self.0 & (1 << i) != 0)
            .map(|i| Kinds::NAMES[i])
            .collect();
        f.write_str(&names.join(" or "))
    }
}

/// A well-formed value that breaks a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// The value is not of an expected kind.
    Type {
        /// The kinds allowed here.
        expected: Kinds,
    },
    /// Below the lower bound.
    Minimum,
    /// Above the upper bound.
    Maximum,
    /// The number predicate said no.
    MultipleOf,
    /// Fewer code points than allowed.
    MinLength,
    /// More code points than allowed.
    MaxLength,
    /// The string predicate said no.
    Pattern,
    /// The format predicate said no.
    Format,
    /// Fewer items than allowed.
    MinItems,
    /// More items than allowed.
    MaxItems,
    /// Two items are equal.
    UniqueItems,
    /// Fewer members than allowed.
    MinProperties,
    /// More members than allowed.
    MaxProperties,
    /// A member is present without one it requires.
    DependentRequired,
    /// A member's name does not match the names' type.
    PropertyNames,
    /// Fewer items match the `contains` type than allowed.
    MinContains,
    /// More items match the `contains` type than allowed.
    MaxContains,
    /// A required field is missing.
    Required {
        /// The object's key table.
        table: KeyTableId,
        /// The missing field.
        field: u32,
    },
    /// A member no field names, where unknown members are denied.
    UnknownField,
    /// Not one of the allowed values.
    Enum,
    /// No branch of an any-of matched.
    AnyOf,
    /// Not exactly one branch of a one-of matched.
    OneOf {
        /// How many branches matched (0 or at least 2).
        matched: u32,
    },
    /// The negated check passed.
    Not,
    /// No value is allowed here.
    Never,
}

/// One step of an error path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    /// An array element.
    Index(u64),
    /// A named field of an object: its index in the key table.
    Field {
        /// The object's key table.
        table: KeyTableId,
        /// The field's index.
        field: u32,
    },
    /// An unknown member: the byte span of its key's body in the input (may hold escapes).
    Key {
        /// Start of the key body (after the quote).
        start: usize,
        /// End of the key body (the closing quote).
        end: usize,
    },
}

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailKind {
    /// The input is not well-formed JSON.
    Syntax(ErrorKind),
    /// Containers nested deeper than [`ExecOptions::max_depth`].
    DepthLimitExceeded,
    /// A number beyond `f64`, or an integer beyond 64 bits with [`BigInts::Error`] (or, with
    /// [`BigInts::Raw`], one of more than `u32::MAX` bytes).
    NumberOutOfRange,
    /// A named field repeats with [`DuplicateKeys::Deny`].
    DuplicateKey,
    /// A check failed.
    Violation(Violation),
}

impl FailKind {
    /// True for the kinds that end a run whatever is active (see the module docs).
    pub fn is_fatal(self) -> bool {
        !matches!(self, FailKind::Violation(_))
    }
}

/// An error: kind, byte offset and path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailKind,
    /// Byte offset in the input (the input's length when it ended early).
    pub offset: usize,
    /// Where, from the root.
    pub path: Vec<PathSeg>,
}

/// What to do when a named field appears twice in one object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DuplicateKeys {
    /// Accept (every occurrence is checked; decoding keeps the last).
    #[default]
    LastWins,
    /// A [`FailKind::DuplicateKey`] error.
    Deny,
}

/// What integers beyond the 64-bit ranges (above `u64::MAX`, below `i64::MIN`) in the input
/// become, wherever they are: at number ops and inside skipped or raw (`{}`) values alike.
/// Numbers with a fraction or an exponent are `f64`s under every policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BigInts {
    /// Read as the nearest `f64` (what `serde_json` does); beyond the range of `f64` a
    /// [`FailKind::NumberOutOfRange`] error.
    #[default]
    F64,
    /// A [`FailKind::NumberOutOfRange`] error (at the token's last byte).
    Error,
    /// Kept as their decimal text ([`NumRef::BigInt`]; the `NUM_RAW` slot of
    /// [`crate::layout`]), checked exactly against bounds and `multipleOf`, written back
    /// verbatim. A token longer than `u32::MAX` bytes is a
    /// [`FailKind::NumberOutOfRange`] error.
    Raw,
}

/// Options of one execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecOptions {
    /// Most arrays and objects open at once.
    pub max_depth: u32,
    /// Repeated named fields.
    pub duplicate_keys: DuplicateKeys,
    /// Integers beyond 64 bits.
    pub big_ints: BigInts,
}

impl Default for ExecOptions {
    fn default() -> ExecOptions {
        ExecOptions {
            max_depth: 128,
            duplicate_keys: DuplicateKeys::LastWins,
            big_ints: BigInts::F64,
        }
    }
}

/// One op; see the [module documentation](self) for each op's semantics and errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// **value** `null`.
    Null,
    /// **value** `true` or `false`.
    Bool,
    /// **value** a number passing the check.
    Number(NumCheckId),
    /// **value** a string passing the check.
    String(StrCheckId),
    /// **value** a string of the table.
    StrEnum(StrEnumId),
    /// **value** any value the predicate accepts, else the violation it gives.
    RawCheck {
        /// The predicate.
        pred: RawPredId,
        /// The ops just before walked this same value from the same start, checking its
        /// syntax: it is skipped by balancing brackets only.
        walked: bool,
    },
    /// **value** any well-formed value.
    SkipValue,
    /// Fails with the violation.
    Fail(Violation),
    /// Jumps by the next value's kind: null, boolean, number, string, array, object.
    Dispatch(Box<[Label; 6]>),
    /// Jumps by the discriminating property of the object at the cursor.
    Discriminate {
        /// The discriminator.
        disc: DiscId,
        /// Label per branch.
        targets: Box<[Label]>,
        /// When the property holds no tag.
        unmatched: Label,
        /// When there is no property to look at: not an object, or a syntax error on the way.
        absent: Label,
        /// When the object, read to its end, has no such property (without a property, never).
        missing: Label,
    },
    /// Calls a function.
    Call(FuncId),
    /// Calls a function, catching its violations.
    Try {
        /// The callee.
        func: FuncId,
        /// Where to go on a violation.
        on_fail: Label,
    },
    /// Jumps.
    Jump(Label),
    /// Returns.
    Return,
    /// `r = pos`.
    SavePos(Reg),
    /// `pos = r`.
    RestorePos(Reg),
    /// `r = value`.
    SetReg(Reg, u32),
    /// `r += 1`.
    IncReg(Reg),
    /// Exactly one match, else [`Violation::OneOf`].
    OneOfEnd {
        /// Matches counted.
        count: Reg,
        /// The value's start.
        start: Reg,
        /// The matching branch's end.
        end: Reg,
    },
    /// `min <= count <= max` for the items counted as matching `contains`, else
    /// [`Violation::MinContains`] / [`Violation::MaxContains`].
    ContainsEnd {
        /// Items counted.
        count: Reg,
        /// The array's start.
        start: Reg,
        /// Fewest.
        min: u64,
        /// Most.
        max: Option<u64>,
    },
    /// Opens an array.
    ArrBegin {
        /// Where an empty array goes.
        empty: Label,
    },
    /// After an item: loop or fall through at `]`.
    ArrNext {
        /// The loop head.
        next: Label,
    },
    /// Closes an array and checks its length.
    ArrEnd {
        /// Fewest items.
        min: u64,
        /// Most items.
        max: Option<u64>,
    },
    /// Opens an object.
    ObjBegin {
        /// Where an empty object goes.
        empty: Label,
        /// Its fields.
        table: KeyTableId,
    },
    /// Reads a member's key.
    Key(KeyTableId),
    /// Jumps by the matched field (last label: unknown key).
    SwitchField(Box<[Label]>),
    /// Jumps to `miss` unless the name of the member being read, one no field of the
    /// object names (the innermost object's path segment is its key), matches pattern
    /// `pattern` of the key table (any of its patterns when `None`).
    KeyMatches {
        /// The object's key table.
        table: KeyTableId,
        /// The pattern; `None` for any.
        pattern: Option<u32>,
        /// Where a name that does not match goes.
        miss: Label,
    },
    /// After a member: loop or fall through at `}`.
    ObjNext {
        /// The loop head.
        next: Label,
    },
    /// Closes an object and checks required fields.
    ObjEnd(KeyTableId),
    /// The document must end here.
    Eof,
    /// Decode only: writes a union tag (validation does nothing).
    Tag(u32),
}

/// A function: ops and a name for listings.
#[derive(Clone, Debug, Default)]
pub struct Func {
    /// What the function checks (for listings).
    pub name: String,
    /// The body.
    pub ops: Vec<Op>,
}

/// A complete program: functions, the entry, and the tables ops refer to.
#[derive(Clone, Default)]
pub struct Program {
    /// The functions.
    pub funcs: Vec<Func>,
    /// The function that checks a whole document.
    pub entry: FuncId,
    /// Number checks.
    pub num_checks: Vec<NumCheck>,
    /// String checks.
    pub str_checks: Vec<StrCheck>,
    /// String enumerations.
    pub str_enums: Vec<StrEnum>,
    /// Raw-value predicates.
    pub raw_preds: Vec<RawPred>,
    /// Object key tables.
    pub key_tables: Vec<KeyTable>,
    /// Discriminators.
    pub discriminators: Vec<Discriminator>,
    /// The decode operands and memory format (empty for a validate-only program).
    pub layout: Arc<Layout>,
    /// Which functions validating runs remember ([`Recall::plan`] of `funcs`; empty: none;
    /// see [Remembered runs](self#remembered-runs)).
    pub recall: Recall,
}

impl Program {
    /// Checks the structural invariants the interpreter relies on: every label inside its
    /// function, every table and function index in range, every function ending in a jump
    /// or return, registers below [`REGS`]. Producers call it once; a failure is a producer
    /// bug, reported with the function and op.
    pub fn verify(&self) -> Result<(), String> {
        if self.entry as usize >= self.funcs.len() {
            return Err("entry out of range".into());
        }
        for (f, func) in self.funcs.iter().enumerate() {
            let err = |pc: usize, what: &str| Err(format!("f{f} @{pc}: {what}"));
            let n = func.ops.len() as u32;
            match func.ops.last() {
                Some(Op::Return | Op::Jump(_)) => {}
                _ => return err(func.ops.len(), "function does not end in return or jump"),
            }
            for (pc, op) in func.ops.iter().enumerate() {
                let labels_ok = op.labels().all(|l| l < n);
                let regs_ok = op.regs().all(|r| (r as usize) < REGS);
                if !labels_ok {
                    return err(pc, "label out of range");
                }
                if !regs_ok {
                    return err(pc, "register out of range");
                }
                if !self.tables_ok(op) {
                    return err(pc, "table or function index out of range");
                }
            }
        }
        if !self.recall.is_empty() && self.recall.len() != self.funcs.len() {
            return Err("recall plan not of this program's functions".into());
        }
        if self.layout.is_present() {
            self.layout.verify(self.funcs.iter().map(|f| f.ops.len()))?;
            self.verify_container_shapes()?;
        }
        Ok(())
    }

    /// Decode needs every function that opens an array (an object) to write an array
    /// (object) shape: the container ops take their stride and record from it.
    fn verify_container_shapes(&self) -> Result<(), String> {
        use crate::layout::Shape;
        for (f, func) in self.funcs.iter().enumerate() {
            let shape = &self.layout.shape(self.layout.funcs[f].shape).shape;
            for (pc, op) in func.ops.iter().enumerate() {
                let ok = match op {
                    Op::ArrBegin { .. } | Op::ArrNext { .. } | Op::ArrEnd { .. } => {
                        matches!(shape, Shape::Array { .. })
                    }
                    Op::ObjBegin { .. } | Op::Key(_) | Op::ObjEnd(_) => {
                        matches!(shape, Shape::Object { .. })
                    }
                    _ => true,
                };
                if !ok {
                    return Err(format!(
                        "f{f} @{pc}: container op in a function of another shape"
                    ));
                }
            }
        }
        Ok(())
    }

    fn tables_ok(&self, op: &Op) -> bool {
        let lt = |i: u32, n: usize| (i as usize) < n;
        match op {
            Op::Number(i) => lt(*i, self.num_checks.len()),
            Op::String(i) => lt(*i, self.str_checks.len()),
            Op::StrEnum(i) => lt(*i, self.str_enums.len()),
            Op::RawCheck { pred, .. } => lt(*pred, self.raw_preds.len()),
            Op::Discriminate { disc, targets, .. } => {
                lt(*disc, self.discriminators.len())
                    && self.discriminators[*disc as usize].tags.values().len() == targets.len()
            }
            Op::Call(f) | Op::Try { func: f, .. } => lt(*f, self.funcs.len()),
            Op::ObjBegin { table, .. } | Op::ObjEnd(table) => lt(*table, self.key_tables.len()),
            Op::Key(table) => lt(*table, self.key_tables.len()),
            Op::KeyMatches { table, pattern, .. } => {
                lt(*table, self.key_tables.len())
                    && pattern
                        .is_none_or(|p| lt(p, self.key_tables[*table as usize].patterns.len()))
            }
            Op::SwitchField(_) => true,
            _ => true,
        }
    }
}

impl Op {
    /// The labels the op may jump to.
    pub fn labels(&self) -> impl Iterator<Item = Label> + '_ {
        let one = |l: &Label| [Some(*l), None, None];
        let (list, single): (&[Label], [Option<Label>; 3]) = match self {
            Op::Dispatch(t) => (&t[..], [None; 3]),
            Op::Discriminate {
                targets,
                unmatched,
                absent,
                missing,
                ..
            } => (targets, [Some(*unmatched), Some(*absent), Some(*missing)]),
            Op::Try { on_fail, .. } => (&[], one(on_fail)),
            Op::Jump(l) => (&[], one(l)),
            Op::ArrBegin { empty } | Op::ObjBegin { empty, .. } => (&[], one(empty)),
            Op::SwitchField(t) => (t, [None; 3]),
            Op::ArrNext { next } | Op::ObjNext { next } => (&[], one(next)),
            Op::KeyMatches { miss, .. } => (&[], one(miss)),
            _ => (&[], [None; 3]),
        };
        list.iter().copied().chain(single.into_iter().flatten())
    }

    /// The registers the op names.
    fn regs(&self) -> impl Iterator<Item = Reg> {
        let regs: [Option<Reg>; 3] = match *self {
            Op::SavePos(r) | Op::RestorePos(r) | Op::SetReg(r, _) | Op::IncReg(r) => {
                [Some(r), None, None]
            }
            Op::OneOfEnd { count, start, end } => [Some(count), Some(start), Some(end)],
            Op::ContainsEnd { count, start, .. } => [Some(count), Some(start), None],
            _ => [None; 3],
        };
        regs.into_iter().flatten()
    }
}

impl fmt::Display for Program {
    /// A listing: each function with numbered ops, table operands spelled out; a function
    /// validation remembers is marked `(remembered)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "entry f{}", self.entry)?;
        for (i, func) in self.funcs.iter().enumerate() {
            let remembered = match self.recall.remembers(i as FuncId) {
                true => " (remembered)",
                false => "",
            };
            writeln!(f, "f{i}: {}{remembered}", func.name)?;
            for (pc, op) in func.ops.iter().enumerate() {
                write!(f, "  {pc:>4}  ")?;
                self.fmt_op(f, op)?;
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

impl Program {
    fn fmt_op(&self, f: &mut fmt::Formatter<'_>, op: &Op) -> fmt::Result {
        let labels = |t: &[Label]| {
            t.iter()
                .map(|l| format!("@{l}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match op {
            Op::Number(i) => {
                let c = &self.num_checks[*i as usize];
                let kind = if c.integer { "integer" } else { "number" };
                write!(f, "{kind}")?;
                if let Some(l) = c.minimum {
                    let op = if l.exclusive { ">" } else { ">=" };
                    write!(f, " {op}{}", fmt_number(l.value))?;
                }
                if let Some(l) = c.maximum {
                    let op = if l.exclusive { "<" } else { "<=" };
                    write!(f, " {op}{}", fmt_number(l.value))?;
                }
                if c.multiple_of.is_some() {
                    write!(f, " multiple-of?")?;
                }
                Ok(())
            }
            Op::String(i) => {
                let c = &self.str_checks[*i as usize];
                write!(f, "string")?;
                if c.min_length > 0 || c.max_length.is_some() {
                    let max = c.max_length.map_or(String::new(), |m| m.to_string());
                    write!(f, " len {}..={max}", c.min_length)?;
                }
                if c.pattern.is_some() {
                    write!(f, " pattern?")?;
                }
                if c.format.is_some() {
                    write!(f, " format?")?;
                }
                Ok(())
            }
            Op::StrEnum(i) => write!(f, "str-enum {:?}", self.str_enums[*i as usize].values()),
            Op::RawCheck { pred, walked } => {
                let walked = if *walked { " walked" } else { "" };
                write!(f, "raw-check p{pred}{walked}")
            }
            Op::Dispatch(t) => write!(
                f,
                "dispatch null:@{} bool:@{} number:@{} string:@{} array:@{} object:@{}",
                t[0], t[1], t[2], t[3], t[4], t[5]
            ),
            Op::Discriminate {
                disc,
                targets,
                unmatched,
                absent,
                missing,
            } => {
                let d = &self.discriminators[*disc as usize];
                match &d.property {
                    Some(property) => write!(f, "discriminate {property:?} ")?,
                    None => write!(f, "discriminate by-name ")?,
                }
                write!(
                    f,
                    "{:?} -> {} unmatched:@{unmatched} absent:@{absent}",
                    d.tags.values(),
                    labels(targets)
                )?;
                match missing == absent {
                    true => Ok(()),
                    false => write!(f, " missing:@{missing}"),
                }
            }
            Op::Call(func) => write!(f, "call f{func}"),
            Op::Try { func, on_fail } => write!(f, "try f{func} else @{on_fail}"),
            Op::Jump(l) => write!(f, "jump @{l}"),
            Op::SavePos(r) => write!(f, "r{r} = pos"),
            Op::RestorePos(r) => write!(f, "pos = r{r}"),
            Op::SetReg(r, v) => write!(f, "r{r} = {v}"),
            Op::IncReg(r) => write!(f, "r{r} += 1"),
            Op::OneOfEnd { count, start, end } => {
                write!(f, "one-of-end count:r{count} start:r{start} end:r{end}")
            }
            Op::ContainsEnd {
                count,
                start,
                min,
                max,
            } => {
                let max = max.map_or(String::new(), |m| m.to_string());
                write!(
                    f,
                    "contains-end count:r{count} start:r{start} {min}..={max}"
                )
            }
            Op::ArrBegin { empty } => write!(f, "arr-begin empty:@{empty}"),
            Op::ArrNext { next } => write!(f, "arr-next @{next}"),
            Op::ArrEnd { min, max } => {
                let max = max.map_or(String::new(), |m| m.to_string());
                write!(f, "arr-end items {min}..={max}")
            }
            Op::ObjBegin { empty, table } => write!(f, "obj-begin t{table} empty:@{empty}"),
            Op::Key(t) => {
                let table = &self.key_tables[*t as usize];
                write!(f, "key t{t} {:?}", table.names())?;
                match table.aliases() {
                    [] => Ok(()),
                    aliases => write!(f, " aliases {aliases:?}"),
                }
            }
            Op::SwitchField(t) => write!(f, "switch-field {}", labels(t)),
            Op::KeyMatches {
                table,
                pattern,
                miss,
            } => {
                let patterns = &self.key_tables[*table as usize].patterns;
                match pattern {
                    Some(p) => write!(f, "key-matches {:?}", patterns[*p as usize].source)?,
                    None => write!(f, "key-matches any of {}", patterns.len())?,
                }
                write!(f, " else @{miss}")
            }
            Op::ObjNext { next } => write!(f, "obj-next @{next}"),
            Op::ObjEnd(t) => {
                let table = &self.key_tables[*t as usize];
                let required: Vec<_> = (0..table.len())
                    .filter(|&i| table.is_required(i))
                    .map(|i| &table.names()[i])
                    .collect();
                write!(f, "obj-end t{t} required {required:?}")
            }
            Op::Null => write!(f, "null"),
            Op::Bool => write!(f, "bool"),
            Op::SkipValue => write!(f, "skip-value"),
            Op::Fail(v) => write!(f, "fail {v:?}"),
            Op::Return => write!(f, "return"),
            Op::Eof => write!(f, "eof"),
            Op::Tag(v) => write!(f, "tag {v}"),
        }
    }
}

fn fmt_number(n: Number) -> String {
    match n {
        Number::I64(i) => i.to_string(),
        Number::U64(u) => u.to_string(),
        Number::F64(x) => x.to_string(),
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_table_finds_by_hint_then_switch() {
        let names = ["id", "name", "names", "idx", "aaaaaaaaX", "aaaaaaaaY", ""];
        let table = KeyTable::new(names.iter().map(|n| (n.to_string(), false)));
        for (i, name) in names.iter().enumerate() {
            for hint in [0, i, i + 1, 100] {
                assert_eq!(table.find(name.as_bytes(), hint), Some(i as u32), "{name}");
            }
        }
        for missing in ["", "i", "ids", "aaaaaaaaZ", "aaaaaaaa", "NAME"]
            .iter()
            .skip(1)
        {
            assert_eq!(table.find(missing.as_bytes(), 0), None, "{missing}");
        }
    }

    #[test]
    fn prefixes_are_the_zero_padded_first_eight_bytes() {
        let text: Vec<u8> = (1..=12).collect();
        for end in 0..=text.len() {
            let key = &text[..end];
            let mut padded = [0u8; 8];
            padded[..end.min(8)].copy_from_slice(&key[..end.min(8)]);
            assert_eq!(prefix8(key), u64::from_le_bytes(padded), "{end}");
        }
    }

    #[test]
    fn string_enumerations_find_the_first_equal_value() {
        let values = [
            "b",
            "aaaaaaaaX",
            "aaaaaaaaY",
            "",
            "b",
            "ab",
            "ba",
            "aaaaaaaa",
        ];
        let table = StrEnum::new(values.iter().map(|&v| v.into()).collect());
        for (i, v) in values.iter().enumerate() {
            let first = values.iter().position(|w| w == v).unwrap() as u32;
            assert_eq!(table.find(v.as_bytes()), Some(first), "{v:?} at {i}");
        }
        for missing in ["aaaaaaaaZ", "a", "aaaaaaa", "bb", "B"] {
            assert_eq!(table.find(missing.as_bytes()), None, "{missing}");
        }
        let many: Vec<Box<str>> = (0..1000).map(|i| format!("value{i}").into()).collect();
        let table = StrEnum::new(many.clone());
        for (i, v) in many.iter().enumerate() {
            assert_eq!(table.find(v.as_bytes()), Some(i as u32));
        }
        assert_eq!(table.find(b"value1000"), None);
        assert_eq!(StrEnum::new(Vec::new()).find(b""), None);
    }

    #[test]
    fn key_table_aliases_find_their_field() {
        let fields = ["id", "name"].map(|n| (n.to_string(), true));
        let aliases = [("ident", 0), ("title", 1), ("aaaaaaaaX", 1), ("i", 0)];
        let table = KeyTable::with_aliases(fields, aliases.map(|(a, f)| (a.to_string(), f)));
        assert_eq!((table.len(), table.aliases().len()), (2, 4));
        for (alias, field) in aliases {
            for hint in [0, 1, 2] {
                assert_eq!(table.find(alias.as_bytes(), hint), Some(field), "{alias}");
            }
        }
        assert_eq!(table.find(b"name", 0), Some(1));
        for missing in ["idents", "aaaaaaaaY", "", "Title"] {
            assert_eq!(table.find(missing.as_bytes(), 0), None, "{missing}");
        }
    }

    #[test]
    fn verify_rejects_bad_labels_and_tables() {
        let mut p = Program::default();
        p.funcs.push(Func {
            name: "f".into(),
            ops: vec![Op::Jump(5)],
        });
        assert!(p.verify().is_err());
        p.funcs[0].ops = vec![Op::Number(0), Op::Return];
        assert!(p.verify().is_err());
        p.funcs[0].ops = vec![Op::SavePos(REGS as Reg), Op::Return];
        assert!(p.verify().is_err());
        p.funcs[0].ops = vec![Op::Null];
        assert!(p.verify().is_err());
        p.funcs[0].ops = vec![Op::Null, Op::Eof, Op::Return];
        assert_eq!(p.verify(), Ok(()));
        assert_eq!(
            p.to_string(),
            "entry f0\nf0: f\n     0  null\n     1  eof\n     2  return\n"
        );
    }
}
