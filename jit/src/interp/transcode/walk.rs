//! The transcode walk: a well-formed value written without validating it again, read with
//! a [`WalkGuide`] (what the schema says each value's members and items are). It writes the
//! raw values the machine meets where pointers reach into them (with the open guide, which
//! knows no member), and whole documents native code accepted, where pointers reach into
//! them and, when unknown members are dropped or denied, where such members may be.
//!
//! Which members are unknown is decided as the machine's transcode sink decides it: a key
//! that finds no field of an object whose other members may hold any value (the extra
//! values' shape is [`Shape::Raw`](crate::layout::Shape::Raw)). The walk follows the value
//! that writes: an `allOf`'s first part, the kind slot of a per-kind union, the branch a
//! discriminator's tag selects. Where only validation can tell which branch writes (an
//! `anyOf` / `oneOf` with members to drop below it and no tag, an `if`'s outcomes) and where a denied member
//! makes the transcode fail, the walk gives up
//! ([`Unwalkable`]) and the interpreter runs the document, which gives the bytes or the
//! error.

use jitson_kernels::skip::skip_value_unchecked;
use jitson_kernels::string_scan::scan_string;
use jitson_kernels::unescape::{Surrogates, unescape};
use jitson_kernels::whitespace::skip_whitespace;

use super::{ALL, Next, Transcoder, Unknown};
use crate::interp::machine::kind_slot;
use crate::ir::KeyTable;

/// The node of a value the schema leaves open (or a kind the value cannot have).
pub const OPEN: u32 = u32::MAX;

/// What the walk needs to know of one schema node (indexed as the schema's nodes).
#[derive(Clone, Debug)]
pub enum GuideNode {
    /// No member below is ever unknown: a scalar, `{}`, `not`, an `enum`.
    Open,
    /// An object: its fields (looked up by name and alias, as the program does) with the
    /// node of each, and its other members.
    Object {
        /// The fields' names and aliases.
        table: KeyTable,
        /// Each field's node, in the table's field order.
        fields: Box<[u32]>,
        /// What a member no field names is.
        other: Other,
    },
    /// An array: the nodes of the first items, then of every other item.
    Array {
        /// The first items' nodes.
        prefix: Box<[u32]>,
        /// The node of the items past the prefix.
        items: u32,
    },
    /// A value read by its kind: the node per kind slot (null, boolean, number, string,
    /// array, object).
    ByKind([u32; 6]),
    /// The value as another node reads it (an `allOf` writes its first part).
    Same(u32),
    /// An `anyOf` / `oneOf` with its branches, or an `if` with its two outcomes: which one
    /// writes takes validation, unless a discriminator's tag tells.
    Trial {
        /// The branches' nodes.
        branches: Box<[u32]>,
        /// The discriminator, when its tags are strings.
        tags: Option<Tags>,
    },
}

/// A union's discriminating property (or its first member's name) and the branch node each
/// tag (unescaped text) selects, as the program's [`Discriminator`](crate::ir::Discriminator)
/// has them: a value whose first member named `property` holds a tag (or, without a
/// property, whose first member's name is a tag) is read by that tag's branch alone.
#[derive(Clone, Debug)]
pub struct Tags {
    /// The property whose value is the tag; `None`: the first member's name is.
    pub property: Option<Box<str>>,
    /// Each tag with its branch's node.
    pub tags: Box<[(Box<str>, u32)]>,
    /// The node of the branch any other value of the property selects, if one does.
    pub default: Option<u32>,
}

impl Tags {
    /// The branch node `tag` selects: its own, or the default's.
    fn tag(&self, tag: &[u8]) -> Option<u32> {
        let found = self.tags.iter().find(|(t, _)| t.as_bytes() == tag);
        found.map_or(self.default, |&(_, branch)| Some(branch))
    }

    /// The branch node the tag of the object at `i` selects, found as the machine's
    /// look-ahead finds it (the first member named by the property, or without one the
    /// first member's name; a value that is no tag selects the default); `None` when the
    /// object has no such member or its value is no tag and there is no default.
    fn branch(&self, input: &[u8], i: usize) -> Option<u32> {
        let mut text = Vec::new();
        let mut j = skip_whitespace(input, i + 1);
        let Some(property) = &self.property else {
            if input.get(j) != Some(&b'"') {
                return None;
            }
            let (name, _) = string_at(input, j, &mut text)?;
            return self.tag(name);
        };
        loop {
            if input.get(j) != Some(&b'"') {
                return None;
            }
            let (key, end) = string_at(input, j, &mut text)?;
            let is_property = key == property.as_bytes();
            j = skip_whitespace(input, skip_whitespace(input, end) + 1);
            if is_property {
                if input.get(j) != Some(&b'"') {
                    return self.default;
                }
                let (tag, _) = string_at(input, j, &mut text)?;
                return self.tag(tag);
            }
            j = skip_whitespace(input, skip_value_unchecked(input, j).ok()?);
            if input.get(j) != Some(&b',') {
                return None;
            }
            j = skip_whitespace(input, j + 1);
        }
    }
}

/// Whether `table` describes the member no field names whose (unescaped) name is `text`
/// ([`KeyTable::describes_other`]): kept whole, as the program keeps it.
fn described(table: &KeyTable, text: &[u8]) -> bool {
    let any_pattern = || {
        let name = std::str::from_utf8(text);
        Ok::<_, std::convert::Infallible>(name.is_ok_and(|k| table.key_matches(None, k)))
    };
    matches!(table.describes_other(any_pattern), Ok(true))
}

/// The text of the string token at `i` (unescaped into `scratch` when it has escapes) and
/// the index past it.
fn string_at<'t>(input: &'t [u8], i: usize, scratch: &'t mut Vec<u8>) -> Option<(&'t [u8], usize)> {
    let scan = scan_string(input, i + 1).ok()?;
    let body = &input[i + 1..scan.end];
    if !scan.has_escapes {
        return Some((body, scan.end + 1));
    }
    scratch.clear();
    unescape(body, scratch, Surrogates::Strict).ok()?;
    Some((scratch.as_slice(), scan.end + 1))
}

/// What an object member that no field names is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Other {
    /// Unknown: kept, dropped or denied as the transcode says.
    Unknown,
    /// An extra value of this node (a map's values, `additionalProperties` with a schema
    /// that is not open): always kept.
    Extra(u32),
}

/// A schema's nodes as the walk reads them, and which of them may have unknown members
/// somewhere below.
#[derive(Clone, Debug)]
pub struct WalkGuide {
    nodes: Vec<GuideNode>,
    root: u32,
    /// Per node: whether a value of it may hold an unknown member (itself or below).
    unknown_below: Vec<bool>,
}

impl WalkGuide {
    /// The guide of `nodes` whose document is node `root`. A node index out of range is
    /// [`OPEN`].
    pub fn new(nodes: Vec<GuideNode>, root: u32) -> WalkGuide {
        let mut unknown_below = vec![false; nodes.len()];
        // Least fixed point: a node may hold an unknown member when it is an object with
        // unknown members or a child may (recursive schemas need several rounds).
        let mut changed = true;
        while changed {
            changed = false;
            for (i, node) in nodes.iter().enumerate() {
                if unknown_below[i] {
                    continue;
                }
                let below = |n: &u32| unknown_below.get(*n as usize) == Some(&true);
                let value = match node {
                    GuideNode::Open => false,
                    GuideNode::Object { fields, other, .. } => {
                        *other == Other::Unknown
                            || fields.iter().any(below)
                            || matches!(other, Other::Extra(n) if below(n))
                    }
                    GuideNode::Array { prefix, items } => prefix.iter().any(below) || below(items),
                    GuideNode::ByKind(slots) => slots.iter().any(below),
                    GuideNode::Same(n) => below(n),
                    GuideNode::Trial { branches, .. } => branches.iter().any(below),
                };
                if value {
                    unknown_below[i] = true;
                    changed = true;
                }
            }
        }
        WalkGuide {
            nodes,
            root,
            unknown_below,
        }
    }

    /// The guide of a value the schema leaves open (`{}`): no member is unknown.
    pub fn open() -> WalkGuide {
        WalkGuide {
            nodes: Vec::new(),
            root: OPEN,
            unknown_below: Vec::new(),
        }
    }

    /// The node that reads the value of `node` at `input[i]` (through `allOf` first parts,
    /// kind slots, and the branches discriminators' tags select); `None` on a cycle of them.
    #[inline]
    fn resolve(&self, mut node: u32, input: &[u8], i: usize) -> Option<u32> {
        if node == OPEN {
            return Some(OPEN);
        }
        for _ in 0..=self.nodes.len() {
            node = match self.nodes.get(node as usize) {
                Some(GuideNode::Same(n)) => *n,
                Some(GuideNode::ByKind(slots)) => kind_slot(input[i]).map_or(OPEN, |k| slots[k]),
                Some(GuideNode::Trial {
                    tags: Some(tags), ..
                }) if input[i] == b'{' => match tags.branch(input, i) {
                    Some(branch) => branch,
                    None => return Some(node),
                },
                _ => return Some(node),
            };
        }
        None
    }

    #[inline]
    fn node(&self, node: u32) -> &GuideNode {
        self.nodes.get(node as usize).unwrap_or(&GuideNode::Open)
    }

    #[inline]
    fn unknown_below(&self, node: u32) -> bool {
        self.unknown_below.get(node as usize) == Some(&true)
    }
}

/// The guided walk could not write the document: the interpreter must run it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unwalkable;

/// An open container of the guided walk.
struct Level {
    object: bool,
    /// Members or items before the current one.
    count: u64,
    /// The container's node ([`GuideNode::Object`] or [`GuideNode::Array`]).
    node: u32,
    /// The field after the last one found (the key lookup's first guess).
    hint: usize,
    /// Whether the object's members are all written as they are unless unknown (it is
    /// written and no pointer goes on below it): then runs of them are written at once.
    plain: bool,
    /// The run of members read and not yet written (`input[start..end]`, from a key to the
    /// end of a value).
    run: Option<(usize, usize)>,
}

/// What starting a member or item did.
enum Step {
    /// Its value, of this node, begins at this index.
    Value(u32, usize),
    /// The member went into the current run; the input goes on at this index.
    InRun(usize),
}

impl Transcoder<'_, '_> {
    /// Writes the accepted value `input` with `guide` through the same container, member
    /// and value steps as the machine's ops take, with an explicit stack (no recursion,
    /// whatever its depth): unknown members dropped, or [`Unwalkable`] at the first denied
    /// one (the interpreter reports it). A container is walked where a pointer goes on below
    /// it or an unknown member may be below it; any other value is skipped, replaced or
    /// written whole ([`Self::raw_whole`]), and in a plain object, whole runs of members
    /// that need no walk are written at once.
    pub(super) fn walk(&mut self, guide: &WalkGuide, input: &[u8]) -> Result<(), Unwalkable> {
        let mut open: Vec<Level> = Vec::new();
        let mut key_text = Vec::new();
        let mut node = guide.root;
        let mut i = 0;
        loop {
            i = skip_whitespace(input, i);
            let first = input[i];
            // Whether the container opened here has a first member or item to start.
            let mut opened = false;
            if let Some(n) = self.walks_into(guide, node, input, i)? {
                self.open(first);
                i = skip_whitespace(input, i + 1);
                if matches!(input[i], b'}' | b']') {
                    self.close(input[i]);
                    i += 1;
                } else {
                    let c = self.conts.last().expect("the container just opened");
                    open.push(Level {
                        object: first == b'{',
                        count: 0,
                        node: n,
                        hint: 0,
                        plain: !c.quiet && c.sel.pick == ALL && c.sel.redact == 0,
                        run: None,
                    });
                    opened = true;
                }
            } else {
                let Ok(end) = skip_value_unchecked(input, i) else {
                    unreachable!("an accepted value is well-formed");
                };
                self.raw_whole(&input[i..end]);
                i = end;
            }
            // After a value (or an opening bracket): the next member or item, or closing
            // brackets.
            loop {
                let Some(level) = open.last_mut() else {
                    return Ok(());
                };
                i = skip_whitespace(input, i);
                if opened || input[i] == b',' {
                    if !opened {
                        level.count += 1;
                        i += 1;
                    }
                    opened = false;
                    match self.member_at(guide, level, input, i, &mut key_text)? {
                        Step::Value(n, at) => {
                            (node, i) = (n, at);
                            break;
                        }
                        Step::InRun(at) => i = at,
                    }
                    continue;
                }
                self.write_run(level, input);
                self.close(input[i]);
                i += 1;
                open.pop();
            }
        }
    }

    /// Whether the value of `node` starting with `first` is a container to walk: a pointer
    /// goes on below it, or an unknown member may be below it (then its branch must be
    /// known: [`Unwalkable`] below an `anyOf` / `oneOf`).
    #[inline(always)]
    fn walks_into(
        &self,
        guide: &WalkGuide,
        node: u32,
        input: &[u8],
        i: usize,
    ) -> Result<Option<u32>, Unwalkable> {
        if !matches!(input[i], b'{' | b'[') {
            return Ok(None);
        }
        let n = guide.resolve(node, input, i).ok_or(Unwalkable)?;
        // Denied members fail the transcode even inside values not written.
        let written = !self.next.quiet && !self.next.redacted;
        let unknown = guide.unknown_below(n)
            && (written || self.spec.unknown == Unknown::Deny)
            && self.spec.unknown != Unknown::Keep;
        if unknown && matches!(guide.node(n), GuideNode::Trial { .. }) {
            return Err(Unwalkable);
        }
        Ok((unknown || self.points_inside()).then_some(n))
    }

    /// Writes `level`'s run of members, if any, as [`Self::raw_whole`] writes a value.
    #[inline(always)]
    fn write_run(&mut self, level: &mut Level, input: &[u8]) {
        if let Some((start, end)) = level.run.take() {
            self.write_members(&input[start..end]);
        }
    }

    /// Writes a run of an object's members.
    fn write_members(&mut self, run: &[u8]) {
        let c = self.conts.last_mut().expect("an open container");
        if !c.first {
            self.out.push(b',');
        }
        c.first = false;
        self.write_tokens(run, true);
    }

    /// Starts the current member or item of `level`, whose key (for an object) is at `i`
    /// after whitespace. A member of a plain object that needs no walk joins the run; any
    /// other writes the run first and is started: an unknown member dropped, or
    /// [`Unwalkable`] when denied.
    fn member_at(
        &mut self,
        guide: &WalkGuide,
        level: &mut Level,
        input: &[u8],
        i: usize,
        key_text: &mut Vec<u8>,
    ) -> Result<Step, Unwalkable> {
        let node = guide.node(level.node);
        if !level.object {
            self.item(level.count);
            let item = match node {
                GuideNode::Array { prefix, items } => {
                    *prefix.get(level.count as usize).unwrap_or(items)
                }
                _ => OPEN,
            };
            return Ok(Step::Value(item, i));
        }
        let start = skip_whitespace(input, i);
        let Ok(scan) = scan_string(input, start + 1) else {
            unreachable!("an accepted value is well-formed");
        };
        let token = &input[start..=scan.end];
        let body = &input[start + 1..scan.end];
        let text = if scan.has_escapes {
            key_text.clear();
            let unescaped = unescape(body, key_text, Surrogates::Strict);
            debug_assert!(unescaped.is_ok(), "an accepted value is well-formed");
            key_text.as_slice()
        } else {
            body
        };
        let (value, dropped) = match node {
            GuideNode::Object {
                table,
                fields,
                other,
            } => match table.find(text, level.hint) {
                Some(field) => {
                    level.hint = field as usize + 1;
                    (fields[field as usize], false)
                }
                // Kept whole, as the program keeps it (raw JSON).
                None if described(table, text) => (OPEN, false),
                None => match other {
                    Other::Extra(extra) => (*extra, false),
                    Other::Unknown if self.spec.unknown == Unknown::Deny => {
                        return Err(Unwalkable);
                    }
                    Other::Unknown => (OPEN, self.spec.unknown == Unknown::Drop),
                },
            },
            _ => (OPEN, false),
        };
        let at = skip_whitespace(input, scan.end + 1) + 1;
        if level.plain && !dropped {
            let v = skip_whitespace(input, at);
            // What `member` would decide in a plain object: written, no pointer below. So
            // only unknown members below make the value walked.
            self.next = Next::default();
            if self.walks_into(guide, value, input, v)?.is_none() {
                let Ok(end) = skip_value_unchecked(input, v) else {
                    unreachable!("an accepted value is well-formed");
                };
                level.run = Some((level.run.map_or(start, |(s, _)| s), end));
                return Ok(Step::InRun(end));
            }
        }
        self.write_run(level, input);
        self.member(text, Some((text, token)), dropped);
        Ok(Step::Value(value, at))
    }
}
