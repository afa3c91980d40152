//! Writing a [`Value`] back to JSON: compact or pretty, strings escaped in one of the three
//! kernel modes, numbers formatted by the kernels. Iterative (an explicit stack).
//!
//! In compact form with [`EscapeMode::Minimal`], the bytes are exactly what
//! `serde_json::to_vec` writes for the same value (members in the same order; serde_json's
//! own `Value` sorts keys). Pretty form is serde_json's `to_vec_pretty`: two-space indent,
//! `"key": value`, and `[]` / `{}` for empty containers.

use jitson_kernels::append::{append_f64, append_i64, append_u64};
use jitson_kernels::escape::{EscapeMode, escape_str};

use super::{Member, Value};

/// How [`Value::write`] lays out JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    escape: EscapeMode,
    pretty: bool,
}

impl WriteOptions {
    /// Compact output with minimal escaping (serde_json's `to_vec`).
    pub const fn new() -> WriteOptions {
        WriteOptions {
            escape: EscapeMode::Minimal,
            pretty: false,
        }
    }

    /// Which characters strings escape ([`EscapeMode`]).
    pub const fn escape(mut self, mode: EscapeMode) -> WriteOptions {
        self.escape = mode;
        self
    }

    /// Indented output, as serde_json's `to_vec_pretty` writes it.
    pub const fn pretty(mut self, yes: bool) -> WriteOptions {
        self.pretty = yes;
        self
    }

    /// See [`escape`](Self::escape).
    pub const fn get_escape(&self) -> EscapeMode {
        self.escape
    }

    /// See [`pretty`](Self::pretty).
    pub const fn get_pretty(&self) -> bool {
        self.pretty
    }
}

/// An open container while writing: its elements and how many are written.
enum Open<'v, 'a> {
    Array(&'v [Value<'a>], usize),
    Object(&'v [Member<'a>], usize),
}

impl<'a> Value<'a> {
    /// Appends this value as JSON to `out`.
    pub fn write(&self, out: &mut Vec<u8>, options: &WriteOptions) {
        let mut writer = Writer {
            out,
            options: *options,
            stack: Vec::new(),
        };
        writer.write(self);
    }

    /// Compact JSON with minimal escaping (the bytes of `serde_json::to_vec`).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out, &WriteOptions::new());
        out
    }

    /// Pretty JSON with minimal escaping (the bytes of `serde_json::to_vec_pretty`).
    pub fn to_vec_pretty(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out, &WriteOptions::new().pretty(true));
        out
    }
}

struct Writer<'o, 'v, 'a> {
    out: &'o mut Vec<u8>,
    options: WriteOptions,
    stack: Vec<Open<'v, 'a>>,
}

impl<'v, 'a> Writer<'_, 'v, 'a> {
    fn write(&mut self, root: &'v Value<'a>) {
        let mut next = Some(root);
        while let Some(value) = next {
            self.open_or_write(value);
            next = self.next_element();
        }
    }

    /// Writes a scalar or an empty container whole; opens any other container.
    fn open_or_write(&mut self, value: &'v Value<'a>) {
        match *value {
            Value::Null => self.out.extend_from_slice(b"null"),
            Value::Bool(true) => self.out.extend_from_slice(b"true"),
            Value::Bool(false) => self.out.extend_from_slice(b"false"),
            Value::U64(n) => append_u64(n, self.out),
            Value::I64(n) => append_i64(n, self.out),
            Value::F64(x) => append_f64(x, self.out),
            Value::BigNumber(raw) => self.out.extend_from_slice(raw.as_bytes()),
            Value::String(s) => escape_str(&s, self.options.escape, self.out),
            Value::Array([]) => self.out.extend_from_slice(b"[]"),
            Value::Object([]) => self.out.extend_from_slice(b"{}"),
            Value::Array(items) => {
                self.out.push(b'[');
                self.stack.push(Open::Array(items, 0));
            }
            Value::Object(members) => {
                self.out.push(b'{');
                self.stack.push(Open::Object(members, 0));
            }
        }
    }

    /// Closes finished containers and returns the next element to write, after writing
    /// what comes before it (separator, indentation, key).
    fn next_element(&mut self) -> Option<&'v Value<'a>> {
        loop {
            let depth = self.stack.len();
            let (next, first, bracket) = match self.stack.last_mut()? {
                Open::Array(items, done) => {
                    let items: &'v [Value<'a>] = items;
                    *done += 1;
                    (items.get(*done - 1).map(|v| (None, v)), *done == 1, b']')
                }
                Open::Object(members, done) => {
                    let members: &'v [Member<'a>] = members;
                    *done += 1;
                    let member = members.get(*done - 1).map(|(k, v)| (Some(k), v));
                    (member, *done == 1, b'}')
                }
            };
            let Some((key, value)) = next else {
                self.close(bracket, depth);
                continue;
            };
            self.separator(first, depth);
            if let Some(key) = key {
                escape_str(key, self.options.escape, self.out);
                let colon: &[u8] = if self.options.pretty { b": " } else { b":" };
                self.out.extend_from_slice(colon);
            }
            return Some(value);
        }
    }

    /// What goes before an element at nesting `depth`: a comma unless it is the first, and
    /// in pretty form a new line indented to `depth`.
    fn separator(&mut self, first: bool, depth: usize) {
        if !first {
            self.out.push(b',');
        }
        if self.options.pretty {
            self.newline(depth);
        }
    }

    /// Closes the innermost container (non-empty: empty ones are written whole).
    fn close(&mut self, bracket: u8, depth: usize) {
        if self.options.pretty {
            self.newline(depth - 1);
        }
        self.out.push(bracket);
        self.stack.pop();
    }

    fn newline(&mut self, depth: usize) {
        self.out.push(b'\n');
        self.out.resize(self.out.len() + 2 * depth, b' ');
    }
}
