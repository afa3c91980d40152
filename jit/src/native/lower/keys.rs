//! `Key`: first, before any scan, the expected name (the field after the previous match,
//! by a jump table on the hint; on a mismatch, the name after it) with its closing quote
//! and the colon, compared inline with 1- to 8-byte loads; any other key (an alias too:
//! [`KeyTable::find`](crate::ir::KeyTable::find) maps it to its field, the same answer the
//! interpreter gets), one with escapes, or one with whitespace before its colon, is scanned
//! by the string scan, then its colon is read. A scanned key without escapes is looked up
//! inline when the table's names and aliases allow it (a jump table on its length, then
//! the texts of that length compared in place: members in another order than the table's
//! cost no helper call); else, where unknown members are not denied, one whose length is no
//! name's or alias's is unknown without the helper (an object's other members: the keys of
//! a part that checks a few of them); the key table's helper looks up the rest (keys with
//! escapes, which it unescapes). Then the path top, the field register and the
//! presence bit (the field's, whichever of its names the key was), and the whitespace
//! before the value. A name matched inline, when the field switch follows, records its
//! field from constants and goes straight to the field's value (no switch). The `Jump` that
//! ends a member's value guesses the next member of compact input (`,"name":` of the field
//! after it, compared in place) and on a match goes to that name's block in the key op,
//! leaving out the separator, the key op's checks and its jump table.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Type, Value};

use jitson_kernels::string_scan::stands_for_itself;

use super::{First, Lower, flow, input_flags, trusted};
use crate::ir::{ErrorKind, FailKind, KeyTableId, Label, Op, Violation};
use crate::native::ctx::off;
use crate::native::helpers::{Callee, NO_FIELD};

/// Tables with more fields compare no name inline (the jump table would outgrow its use).
const MAX_INLINE_FIELDS: usize = 64;
/// Longer names are not compared inline (twitter's 34-byte
/// `profile_background_image_url_https` is).
const MAX_INLINE_NAME: usize = 64;

/// The load width for comparing a name of `n` bytes (`n >= 1`).
fn chunk(n: usize) -> (usize, Type) {
    match n {
        1 => (1, I64),
        2..=3 => (2, I16),
        4..=7 => (4, I32),
        _ => (8, I64),
    }
}

impl Lower<'_> {
    /// `Key` (op `pc`).
    pub(super) fn key(&mut self, pc: usize, table: KeyTableId) {
        let [start, bad] = self.blocks();
        self.ws_branch_byte(false, First::Whitespace, b'"', start, bad);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        let p = self.pos();
        self.expected(ErrorKind::ExpectedKey, p);
        self.b.switch_to_block(start);
        let p = self.pos();
        let body = self.b.ins().iadd_imm_s(p, 1);
        // `found(field, end[, flags])`, after the colon.
        let found = self.b.create_block();
        let f = self.b.append_block_param(found, I64);
        let end = self.b.append_block_param(found, I64);
        let flags = self
            .decoding()
            .then(|| self.b.append_block_param(found, I64));
        let field = self.b.use_var(self.field);
        let hint = self.b.ins().iadd_imm_s(field, 1);
        let hint = self.b.ins().band_imm_s(hint, i64::from(u32::MAX));
        let scan = self.b.create_block();
        // Where the value's whitespace is skipped, then the next op (a `SwitchField` by the
        // field register) runs.
        let valued = self.b.create_block();
        let func = self.func;
        let targets = match func.ops.get(pc + 1) {
            Some(Op::SwitchField(targets)) => Some(&targets[..]),
            _ => None,
        };
        let expected = Expected {
            key: pc,
            table,
            hint,
            body,
            found,
            scan,
            valued,
        };
        self.expected_name(&expected, targets);

        self.b.switch_to_block(scan);
        let quote = self.scan_body(body);
        let scanned = self.scan_flags();
        // Where an unknown member is an error, its speed does not count: no code for it
        // (every corpus object denies them; the code measured 5 % on book's validate).
        // (Read from the op itself, not through `targets`: valgrind flagged the optimized
        // test of `targets`' unused length when it is `None`, a false positive.)
        let denied = matches!(func.ops.get(pc + 1), Some(Op::SwitchField(t))
            if t.last().is_some_and(|&l| func.ops[l as usize] == Op::Fail(Violation::UnknownField)));
        let inline = self.inline_lookup(table);
        let looked = (inline.is_some() || !denied).then(|| {
            let looked = self.b.create_block();
            self.b.append_block_param(looked, I64);
            match &inline {
                Some(texts) => self.lookup_by_length(texts, body, quote, scanned, looked),
                None => self.unknown_by_length(table, body, quote, scanned, looked),
            }
            looked
        });
        let t = self.iconst(i64::from(table));
        let ctx = self.ctx;
        let mut v = self.call_checked(Callee::KeyFind, &[ctx, body, quote, t, hint, scanned]);
        if let Some(looked) = looked {
            self.b.ins().jump(looked, &[BlockArg::Value(v)]);
            self.b.switch_to_block(looked);
            v = self.b.block_params(looked)[0];
        }
        let after = self.b.ins().iadd_imm_s(quote, 1);
        self.set_pos(after);
        self.colon();
        let mut args = vec![BlockArg::Value(v), BlockArg::Value(quote)];
        if flags.is_some() {
            args.push(BlockArg::Value(scanned));
        }
        self.b.ins().jump(found, &args);

        self.b.switch_to_block(found);
        self.record_field(table, f, body, end);
        if let Some(flags) = flags {
            self.key_base(f, body, end, flags);
        }
        self.b.ins().jump(valued, &[]);
        self.b.switch_to_block(valued);
        // The member's value starts after this (see `flow`: its own skip is left out).
        self.ws_value();
    }

    /// The names and aliases of `table` with their fields, when a scanned key can be looked
    /// up among them inline ([`Lower::lookup_by_length`]): at most [`MAX_INLINE_FIELDS`]
    /// texts, each compared inline (see [`Lower::name_compare`]), none twice (so
    /// [`KeyTable::find`](crate::ir::KeyTable::find) gives each its one field whatever the
    /// hint).
    fn inline_lookup(&self, table: KeyTableId) -> Option<Vec<(Box<str>, u32)>> {
        let keys = &self.program.key_tables[table as usize];
        let names = keys.names().iter().cloned().zip(0..);
        let texts: Vec<(Box<str>, u32)> = names.chain(keys.aliases().iter().cloned()).collect();
        let inline = |t: &str| t.len() <= MAX_INLINE_NAME && t.bytes().all(stands_for_itself);
        let mut sorted: Vec<&str> = texts.iter().map(|(t, _)| &**t).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let usable = !texts.is_empty()
            && texts.len() <= MAX_INLINE_FIELDS
            && sorted.len() == texts.len()
            && sorted.iter().all(|t| inline(t));
        usable.then_some(texts)
    }

    /// After the scan of key `body..quote` (scan flags `scanned`): a key without escapes is
    /// looked up among `texts` ([`Lower::inline_lookup`]) inline, by a jump table on its
    /// length, then the texts of that length compared in place; its field, or
    /// [`NO_FIELD`] when none is equal, goes to `looked`. A key with escapes stays in the
    /// current block (for the helper, which unescapes it). This finds in a few compares the
    /// members that come in another order than the table's (a schema read from a
    /// `serde_json::Value`, whose objects sort their members, has its fields in name order),
    /// where the names compared before the scan miss.
    fn lookup_by_length(
        &mut self,
        texts: &[(Box<str>, u32)],
        body: Value,
        quote: Value,
        scanned: Value,
        looked: Block,
    ) {
        let longest = texts.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
        let [lookup, helper, none] = self.blocks();
        let escaped = self.b.ins().icmp_imm_s(IntCC::NotEqual, scanned, 0);
        self.b.ins().brif(escaped, helper, &[], lookup, &[]);
        self.b.switch_to_block(none);
        let unknown = self.iconst(NO_FIELD as i64);
        self.b.ins().jump(looked, &[BlockArg::Value(unknown)]);

        self.b.switch_to_block(lookup);
        let len = self.b.ins().isub(quote, body);
        // Longer keys than every text (at any length: the index stays below 2^32) take the
        // jump table's default.
        let beyond = self.iconst(longest as i64 + 1);
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, len, beyond);
        let len = self.b.ins().select(over, beyond, len);
        let len = self.b.ins().ireduce(I32, len);
        let buckets: Vec<Block> = (0..=longest)
            .map(|n| match texts.iter().any(|(t, _)| t.len() == n) {
                true => self.b.create_block(),
                false => none,
            })
            .collect();
        self.br_table(len, &buckets, none);
        for (n, &bucket) in buckets.iter().enumerate() {
            if bucket == none {
                continue;
            }
            self.b.switch_to_block(bucket);
            for (text, field) in texts.iter().filter(|(t, _)| t.len() == n) {
                let [hit, miss] = self.blocks();
                let same = self.same_bytes(body, text.as_bytes());
                self.b.ins().brif(same, hit, &[], miss, &[]);
                self.b.switch_to_block(hit);
                let field = self.iconst(i64::from(*field));
                self.b.ins().jump(looked, &[BlockArg::Value(field)]);
                self.b.switch_to_block(miss);
            }
            self.b.ins().jump(none, &[]);
        }
        self.b.switch_to_block(helper);
    }

    /// After the scan of key `body..quote` (scan flags `scanned`): a key without escapes
    /// whose length no name or alias of `table` has is unknown: jumps to `looked` with
    /// [`NO_FIELD`]; any other key stays in the current block (for the helper). Names and
    /// aliases of 64 bytes or more send every key that long to the helper.
    fn unknown_by_length(
        &mut self,
        table: KeyTableId,
        body: Value,
        quote: Value,
        scanned: Value,
        looked: Block,
    ) {
        let keys = &self.program.key_tables[table as usize];
        let lengths = keys
            .names()
            .iter()
            .chain(keys.aliases().iter().map(|(a, _)| a));
        let mask = lengths
            .filter(|n| n.len() < 64)
            .fold(0u64, |m, n| m | 1 << n.len());
        if mask == u64::MAX {
            return;
        }
        let len = self.b.ins().isub(quote, body);
        let short = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, len, 64);
        let mask = self.iconst(mask as i64);
        // Shift amounts are taken modulo 64: `short` excludes the longer keys.
        let bit = self.b.ins().ushr(mask, len);
        let bit = self.b.ins().band_imm_s(bit, 1);
        let free = self.b.ins().bor(bit, scanned);
        let free = self.b.ins().icmp_imm_s(IntCC::Equal, free, 0);
        let unknown = self.b.ins().band(short, free);
        let helper = self.b.create_block();
        let none = self.iconst(NO_FIELD as i64);
        (self.b.ins()).brif(unknown, looked, &[BlockArg::Value(none)], helper, &[]);
        self.b.switch_to_block(helper);
    }

    /// Before any scan: when the input at `body` is the name of field `hint`, or else of
    /// the field after it (one absent optional member: twitter's user `entities` without
    /// `url`, a tweet without some counts), its closing quote and the colon (the usual
    /// `"name":`), sets the cursor past the colon; anything else (another key, escapes,
    /// whitespace before the colon, a name not compared inline) jumps to `scan`. A name's
    /// bytes match only the same key: the names compared contain no quote, backslash or
    /// control byte, so the input's string ends at the quote compared and has no escapes.
    ///
    /// The jump table on the hint enters name `i`'s compare; a mismatch there goes on to
    /// name `i + 1`'s compare when `i` is the hint (the first try), else to `scan`, so each
    /// name is compared in one place and the jump table's targets take no arguments.
    ///
    /// A match of name `i` jumps to `found(i, end[, 0])`; or, when the next op is the field
    /// switch (`targets`), records the field (known here) and goes on to the value:
    /// straight to the field's target when the value starts right after the colon, else
    /// to `valued` (which skips the whitespace before the switch), so the usual member pays
    /// no switch and no field arithmetic.
    fn expected_name(&mut self, at: &Expected, targets: Option<&[Label]>) {
        let names: Vec<Box<str>> = self.program.key_tables[at.table as usize].names().to_vec();
        if names.is_empty() || names.len() > MAX_INLINE_FIELDS {
            self.b.ins().jump(at.scan, &[]);
            return;
        }
        let blocks: Vec<Block> = names.iter().map(|_| self.b.create_block()).collect();
        let index = self.b.ins().ireduce(I32, at.hint);
        self.br_table(index, &blocks, at.scan);
        for (i, name) in names.iter().enumerate() {
            self.b.switch_to_block(blocks[i]);
            // A mismatch: the next name's compare when this one was the hint's (the first
            // try), else the scan.
            let next = blocks.get(i + 1).map(|&next| (next, self.b.create_block()));
            let miss = next.map_or(at.scan, |(_, miss)| miss);
            self.name_compare(at, targets, i, name.as_bytes(), miss);
            if let Some((next, miss)) = next {
                self.b.switch_to_block(miss);
                let first = self.b.ins().icmp_imm_s(IntCC::Equal, at.hint, i as i64);
                self.b.ins().brif(first, next, &[], at.scan, &[]);
            }
        }
    }

    /// Name `i`'s compare (`name`), in the current block: a match goes on as
    /// [`Lower::expected_name`] says, anything else (a name not compared inline too) to
    /// `miss`.
    fn name_compare(
        &mut self,
        at: &Expected,
        targets: Option<&[Label]>,
        i: usize,
        name: &[u8],
        miss: Block,
    ) {
        if name.len() > MAX_INLINE_NAME || !name.iter().all(|&c| stands_for_itself(c)) {
            self.b.ins().jump(miss, &[]);
            return;
        }
        let mut expect = name.to_vec();
        expect.extend_from_slice(b"\":");
        let past = self.b.ins().iadd_imm_s(at.body, expect.len() as i64);
        let len = self.len();
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, past, len);
        let cmp = self.b.create_block();
        self.b.ins().brif(fits, cmp, &[], miss, &[]);
        self.b.switch_to_block(cmp);
        let same = self.same_bytes(at.body, &expect);
        match targets.and_then(|t| t.get(i)) {
            Some(&target) => {
                // `named(body)`: also where a compact member guessed at the end of the
                // previous member's value goes (see `Lower::jump`).
                let named = self.b.create_block();
                let body = self.b.append_block_param(named, I64);
                self.key_named.insert((at.key, i as u32), named);
                (self.b.ins()).brif(same, named, &[BlockArg::Value(at.body)], miss, &[]);
                self.b.switch_to_block(named);
                let past = self.b.ins().iadd_imm_s(body, expect.len() as i64);
                self.set_pos(past);
                self.record_named(at.table, i as u32, body);
                if self.decoding() {
                    self.key_base_named();
                }
                let target = self.label(target);
                self.branch_on_token(past, target, at.valued);
            }
            None => {
                let hit = self.b.create_block();
                self.b.ins().brif(same, hit, &[], miss, &[]);
                self.b.switch_to_block(hit);
                self.set_pos(past);
                let end = self.b.ins().iadd_imm_s(at.body, name.len() as i64);
                let field = self.iconst(i as i64);
                let mut args = vec![BlockArg::Value(field), BlockArg::Value(end)];
                if self.decoding() {
                    args.push(BlockArg::Value(self.iconst(0)));
                }
                self.b.ins().jump(at.found, &args);
            }
        }
    }

    /// `Jump` (op `pc`) to `to`. Where it ends a member's value in an object's loop (`to`
    /// is the `ObjNext` whose comma leads back to a `Key` followed by the field switch),
    /// compact input first tries the field that follows the member's in table order, the
    /// name the key's jump table would compare first: `,"name":` right at the cursor,
    /// compared inline, records that field as the key does and goes on to its value, with
    /// no separator, no key op and no jump table. Anything else (whitespace, another key,
    /// the object's end) jumps to `to` with the cursor where it was, and the loop reads
    /// the member as before.
    pub(super) fn jump(&mut self, pc: usize, to: Label) {
        let generic = self.label(to);
        match self.next_member(pc, to) {
            Some(next) => self.compact_member(&next, generic),
            None => {
                self.b.ins().jump(generic, &[]);
            }
        }
    }

    /// The member that usually follows the one whose value ends at `pc` with a jump to
    /// `to`, when `to` is a member loop's `ObjNext` (see [`Lower::jump`]). The member's
    /// field is the one whose switch target is the last at or before `pc` (each field's
    /// value is lowered from its target on); a target shared by several fields, the last
    /// field, and a name the key op does not compare inline give `None`. Only a guess:
    /// the name is compared in full before it counts.
    fn next_member(&mut self, pc: usize, to: Label) -> Option<NextMember> {
        let ops = &self.func.ops;
        let Some(Op::ObjNext { next }) = ops.get(to as usize) else {
            return None;
        };
        let key = *next as usize;
        let (Some(Op::Key(table)), Some(Op::SwitchField(targets))) =
            (ops.get(key), ops.get(key + 1))
        else {
            return None;
        };
        let start = targets
            .iter()
            .copied()
            .filter(|&t| t as usize <= pc)
            .max()?;
        let mut members = (0..targets.len()).filter(|&i| targets[i] == start);
        let (Some(field), None) = (members.next(), members.next()) else {
            return None;
        };
        let field = u32::try_from(field + 1).ok()?;
        let named = *self.key_named.get(&(key, field))?;
        // The key op's own values (the input's address and length, loaded at its top) are
        // used where the guess goes on; the key must come before every way to `pc`.
        let func = self.func;
        let dominated = (self.dominated_by_key)
            .entry(key)
            .or_insert_with(|| flow::dominated_by(func, key));
        if !dominated[pc] {
            return None;
        }
        Some(NextMember {
            table: *table,
            field,
            named,
        })
    }

    /// The compact next-member path of [`Lower::jump`] for `next`; `generic` is the
    /// member loop's `ObjNext`.
    fn compact_member(&mut self, next: &NextMember, generic: Block) {
        let program = self.program;
        let name = program.key_tables[next.table as usize].names()[next.field as usize].as_bytes();
        let expect = [name, b"\":"].concat();
        let p = self.pos();
        let body = self.b.ins().iadd_imm_s(p, 2);
        let past = self.b.ins().iadd_imm_s(body, expect.len() as i64);
        let len = self.len();
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, past, len);
        let [open, cmp] = self.blocks();
        self.b.ins().brif(fits, open, &[], generic, &[]);
        // The comma and the quote first, on their own: in pretty-printed input a newline
        // follows the comma, and that costs one 2-byte compare.
        self.b.switch_to_block(open);
        let opened = self.same_bytes(p, b",\"");
        self.b.ins().brif(opened, cmp, &[], generic, &[]);
        self.b.switch_to_block(cmp);
        let same = self.same_bytes(body, &expect);
        (self.b.ins()).brif(same, next.named, &[BlockArg::Value(body)], generic, &[]);
    }

    /// Whether the `name.len()` input bytes at `body` are `name` (they are in bounds):
    /// overlapping loads of one width, the last one ending at the name's end.
    pub(super) fn same_bytes(&mut self, body: Value, name: &[u8]) -> Value {
        if name.is_empty() {
            return self.b.ins().iconst(cranelift_codegen::ir::types::I8, 1);
        }
        let (width, ty) = chunk(name.len());
        let input = self.input();
        let addr = self.b.ins().iadd(input, body);
        let mut offsets: Vec<usize> = (0..name.len() - width).step_by(width).collect();
        offsets.push(name.len() - width);
        let mut same = None;
        for o in offsets {
            let mut bytes = [0u8; 8];
            bytes[..width].copy_from_slice(&name[o..o + width]);
            let expect = u64::from_le_bytes(bytes);
            let got = if width == 1 {
                self.b.ins().uload8(I64, input_flags(), addr, o as i32)
            } else {
                self.b.ins().load(ty, input_flags(), addr, o as i32)
            };
            let ty = if width == 1 { I64 } else { ty };
            let expect = self.b.ins().iconst(ty, expect as i64);
            let eq = self.b.ins().icmp(IntCC::Equal, got, expect);
            same = Some(match same {
                Some(s) => self.b.ins().band(s, eq),
                None => eq,
            });
        }
        same.expect("at least one chunk")
    }

    /// `KeyMatches`: a miss jumps to `miss`. When the context's memo holds the answers for
    /// the key in the path top (the member's first test asked the helper, which matched its
    /// name once against every pattern), the answer is a bit of it, read inline; else the
    /// helper's (tables of more than 64 patterns always ask it).
    pub(super) fn key_matches(&mut self, table: KeyTableId, pattern: Option<u32>, miss: Label) {
        let [answered, hit] = self.blocks();
        let matched = self.b.append_block_param(answered, I64);
        if self.program.key_tables[table as usize].patterns().len() <= 64 {
            self.memo_answer(table, pattern, answered);
        }
        let t = self.iconst(i64::from(table));
        let p = self.iconst(pattern.map_or(-1, i64::from));
        let ctx = self.ctx;
        let asked = self.call_checked(Callee::KeyMatches, &[ctx, t, p]);
        self.b.ins().jump(answered, &[BlockArg::Value(asked)]);
        self.b.switch_to_block(answered);
        let miss = self.label(miss);
        self.b.ins().brif(matched, hit, &[], miss, &[]);
        self.b.switch_to_block(hit);
    }

    /// When the memo is the path top's key's for `table` (the top is a key segment, `b >=
    /// 2`, whose start + 1 is the memo's key), jumps to `answered` with pattern `pattern`'s
    /// bit (any bit for `None`); else stays in a new current block.
    fn memo_answer(&mut self, table: KeyTableId, pattern: Option<u32>, answered: Block) {
        let [top, memo, other] = self.blocks();
        let depth = self.load_ctx(off::DEPTH);
        self.b.ins().brif(depth, top, &[], other, &[]);
        self.b.switch_to_block(top);
        let ptr = self.load_ctx(off::PATH);
        let at = self.b.ins().imul_imm_s(depth, 16);
        let addr = self.b.ins().iadd(ptr, at);
        let a = self.b.ins().load(I64, trusted(), addr, -16);
        let b = self.b.ins().load(I64, trusted(), addr, -8);
        let key = self.b.ins().iadd_imm_s(a, 1);
        let memo_key = self.load_ctx(off::KEY_MEMO_KEY);
        let memo_table = self.load_ctx(off::KEY_MEMO_TABLE);
        let is_key = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, b, 2);
        let same_key = self.b.ins().icmp(IntCC::Equal, key, memo_key);
        let same_table = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, memo_table, i64::from(table));
        let same = self.b.ins().band(same_key, same_table);
        let same = self.b.ins().band(same, is_key);
        self.b.ins().brif(same, memo, &[], other, &[]);
        self.b.switch_to_block(memo);
        let mask = self.load_ctx(off::KEY_MEMO_MASK);
        let bit = match pattern {
            Some(i) => {
                let shifted = self.b.ins().ushr_imm_s(mask, i64::from(i));
                self.b.ins().band_imm_s(shifted, 1)
            }
            None => {
                let any = self.b.ins().icmp_imm_s(IntCC::NotEqual, mask, 0);
                self.b.ins().uextend(I64, any)
            }
        };
        self.b.ins().jump(answered, &[BlockArg::Value(bit)]);
        self.b.switch_to_block(other);
    }

    /// Skips whitespace and the `:` after a key.
    fn colon(&mut self) {
        let [ok, bad] = self.blocks();
        self.ws_branch_byte(false, First::Token, b':', ok, bad);
        self.b.switch_to_block(bad);
        self.b.set_cold_block(bad);
        let p = self.pos();
        self.expected(ErrorKind::ExpectedColon, p);
        self.b.switch_to_block(ok);
        let p = self.pos();
        let after = self.b.ins().iadd_imm_s(p, 1);
        self.set_pos(after);
    }

    /// Sets the path top, the field register and the presence bit for the key `body..end`
    /// matched to field `f` (or [`NO_FIELD`]); a repeated named field with duplicates
    /// denied is `DuplicateKey` at the key's quote.
    fn record_field(&mut self, table: KeyTableId, f: Value, body: Value, end: Value) {
        self.b.def_var(self.field, f);
        let unknown = self.b.ins().icmp_imm_s(IntCC::Equal, f, NO_FIELD as i64);
        let [named, other, done] = self.blocks();
        self.b.ins().brif(unknown, other, &[], named, &[]);
        self.b.switch_to_block(other);
        let b = self.b.ins().iadd_imm_s(end, 2);
        self.path_set(body, Some(b));
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(named);
        let a = self.b.ins().iadd_imm_s(f, (i64::from(table)) << 32);
        let one = self.iconst(1);
        self.path_set(a, Some(one));
        let word = self.b.ins().ushr_imm_s(f, 6);
        let word = self.b.ins().ishl_imm_s(word, 3);
        let base = self.b.ins().stack_addr(I64, self.bits, 0);
        let addr = self.b.ins().iadd(base, word);
        let shift = self.b.ins().band_imm_s(f, 63);
        let one = self.iconst(1);
        let bit = self.b.ins().ishl(one, shift);
        self.mark_present(addr, bit, body);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// [`Lower::record_field`] for named field `f`, known when lowered: the path top, the
    /// field register and the presence bit from constants.
    fn record_named(&mut self, table: KeyTableId, f: u32, body: Value) {
        let field = self.iconst(i64::from(f));
        self.b.def_var(self.field, field);
        let a = self.iconst((i64::from(table) << 32) + i64::from(f));
        let one = self.iconst(1);
        self.path_set(a, Some(one));
        let addr = (self.b.ins()).stack_addr(I64, self.bits, (f / 64 * 8) as i32);
        let bit = self.iconst(1i64 << (f % 64));
        self.mark_present(addr, bit, body);
    }

    /// Sets `bit` in the presence word at `addr`; when it was set and duplicates are
    /// denied, `DuplicateKey` at the key's quote (before `body`).
    fn mark_present(&mut self, addr: Value, bit: Value, body: Value) {
        let bits = self.b.ins().load(I64, super::trusted(), addr, 0);
        let seen = self.b.ins().band(bits, bit);
        let [set, repeated, denied] = self.blocks();
        self.b.ins().brif(seen, repeated, &[], set, &[]);
        // A repeated key (rare) reads the policy.
        self.b.switch_to_block(repeated);
        self.b.set_cold_block(repeated);
        let deny = self.load_ctx(off::DUP_DENY);
        self.b.ins().brif(deny, denied, &[], set, &[]);
        self.b.switch_to_block(denied);
        self.b.set_cold_block(denied);
        let at = self.b.ins().iadd_imm_s(body, -1);
        self.fail_with(FailKind::DuplicateKey, at);
        self.b.switch_to_block(set);
        let bits = self.b.ins().bor(bits, bit);
        self.b.ins().store(super::trusted(), bits, addr, 0);
    }
}

/// The member [`Lower::next_member`] guesses: its key table, its field, and the key op's
/// block that takes the field's name as matched (`named(body)`: records the field, goes
/// on to its value).
struct NextMember {
    table: KeyTableId,
    field: u32,
    named: Block,
}

/// What [`Lower::expected_name`] works with: the key table, the hinted field, the name's
/// first byte, and the blocks a key goes on to.
struct Expected {
    /// The key op.
    key: usize,
    table: KeyTableId,
    hint: Value,
    body: Value,
    /// `found(field, end[, flags])`, after the colon.
    found: Block,
    /// The scan of any other key.
    scan: Block,
    /// The whitespace before the value, then the next op.
    valued: Block,
}
