//! A byte matcher for the common shape of `pattern`s: an anchored sequence of ASCII
//! classes and literals with counts (`^[0-9]+$`, `^[A-Z][a-z]{2} [0-9]{2}$`), matched
//! without the regex engine's per-call setup.
//!
//! Only patterns whose greedy left-to-right match is exact are taken: every item whose count
//! varies is last, or followed by an item that needs at least one byte from a disjoint set
//! (so the run must end where that item starts). Anything else (alternation, groups,
//! negated classes, non-ASCII, other escapes, lazy quantifiers) is left to `regex`. Since
//! every set is ASCII, a string with a non-ASCII character never matches, as with `regex`.

/// One item: a set of ASCII bytes (bit `b` of the `u128`) taken `min..=max` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Item {
    set: u128,
    min: u32,
    max: u32,
}

/// One matching step: an item's set as its bit in [`Anchored::classes`], and its count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    bit: u32,
    min: u32,
    max: u32,
}

/// A compiled anchored sequence: per byte value, a word with the bit of every distinct set
/// that holds it (so a step tests a byte with one load and one `and`), and the bounds of
/// the length of a match (a text outside them is rejected without a look at its bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Anchored {
    classes: Box<[u32; 256]>,
    min_len: usize,
    max_len: usize,
    walk: Walk,
    /// The items, in order.
    items: Box<[Item]>,
}

/// How a text of an admissible length is walked.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Walk {
    /// Item by item, each taking as many bytes of its set as it may.
    Steps(Vec<Step>),
    /// When every count is fixed (a date, a colour): the set bit of each position of the
    /// one length that matches, checked in one pass.
    Positions(Box<[u32]>),
}

/// The longest fixed-length pattern matched by position (a longer one takes the steps).
const MAX_FIXED: usize = 256;

/// `\d` in ECMA-262: the ASCII digits.
const DIGITS: u128 = range(b'0', b'9');
/// `\w` in ECMA-262: ASCII letters, digits and `_`.
const WORD: u128 = DIGITS | range(b'a', b'z') | range(b'A', b'Z') | (1 << b'_');

/// The set of the bytes `lo..=hi` (ASCII).
const fn range(lo: u8, hi: u8) -> u128 {
    let mut set = 0;
    let mut b = lo;
    while b <= hi {
        set |= 1 << b;
        b += 1;
    }
    set
}

impl Anchored {
    /// The matcher for `source` when it has the supported shape (and at most 32 distinct
    /// sets, one bit of a class word each).
    pub(super) fn new(source: &str) -> Option<Anchored> {
        let body = source.strip_prefix('^')?.strip_suffix('$')?;
        let mut bytes = body.as_bytes();
        let mut items = Vec::new();
        while let Some((set, rest)) = atom(bytes) {
            let ((min, max), rest) = quantifier(rest)?;
            items.push(Item { set, min, max });
            bytes = rest;
        }
        if !bytes.is_empty() || !greedy_is_exact(&items) {
            return None;
        }
        let mut sets: Vec<u128> = Vec::new();
        let mut classes = Box::new([0u32; 256]);
        let mut steps = Vec::with_capacity(items.len());
        for item in &items {
            let index = match sets.iter().position(|&s| s == item.set) {
                Some(index) => index,
                None if sets.len() < 32 => {
                    // A new set: its bit goes into the class word of each of its bytes.
                    for (b, class) in classes.iter_mut().enumerate().take(128) {
                        if item.set & (1 << b) != 0 {
                            *class |= 1 << sets.len();
                        }
                    }
                    sets.push(item.set);
                    sets.len() - 1
                }
                None => return None,
            };
            let bit = 1 << index;
            steps.push(Step {
                bit,
                min: item.min,
                max: item.max,
            });
        }
        let count = |f: fn(&Item) -> u32| {
            (items.iter()).fold(0usize, |n, i| n.saturating_add(f(i) as usize))
        };
        let (min_len, max_len) = (count(|i| i.min), count(|i| i.max));
        let walk = match min_len == max_len && max_len <= MAX_FIXED {
            true => Walk::Positions(
                (steps.iter())
                    .flat_map(|s| std::iter::repeat_n(s.bit, s.min as usize))
                    .collect(),
            ),
            false => Walk::Steps(steps),
        };
        Some(Anchored {
            classes,
            min_len,
            max_len,
            walk,
            items: items.into(),
        })
    }

    /// `(set, min, max)` when the pattern is one item: it matches exactly the texts of
    /// `min..=max` bytes, each in the ASCII `set` (bit `b` for byte `b`).
    pub(super) fn single_run(&self) -> Option<(u128, u32, u32)> {
        match *self.items {
            [i] => Some((i.set, i.min, i.max)),
            _ => None,
        }
    }

    /// The set of each position when every count is fixed (`^[0-9]{4}-[0-9]{2}$`): the
    /// pattern matches exactly the texts of that many bytes, each in its position's set.
    pub(super) fn fixed_sets(&self) -> Option<Vec<u128>> {
        (self.items.iter())
            .map(|i| (i.min == i.max).then(|| std::iter::repeat_n(i.set, i.min as usize)))
            .collect::<Option<Vec<_>>>()
            .map(|runs| runs.into_iter().flatten().collect())
    }

    /// Whether `text` matches as a whole.
    pub(super) fn is_match(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        if bytes.len() < self.min_len || bytes.len() > self.max_len {
            return false;
        }
        let steps = match &self.walk {
            // The length bounds above left only `bits.len()`.
            Walk::Positions(bits) => {
                return (bytes.iter().zip(bits.iter()))
                    .all(|(&b, &bit)| self.classes[usize::from(b)] & bit != 0);
            }
            Walk::Steps(steps) => steps,
        };
        let mut i = 0usize;
        for step in steps {
            let start = i;
            let limit = bytes.len().min(start.saturating_add(step.max as usize));
            // Bytes at or above 0x80 are in no set (every set is ASCII).
            while i < limit && self.classes[usize::from(bytes[i])] & step.bit != 0 {
                i += 1;
            }
            if i - start < step.min as usize {
                return false;
            }
        }
        i == bytes.len()
    }
}

/// Every item whose count varies is last, or followed by one that needs a byte of a
/// disjoint set.
fn greedy_is_exact(items: &[Item]) -> bool {
    items.windows(2).all(|w| {
        let (this, next) = (w[0], w[1]);
        this.min == this.max || (next.min > 0 && this.set & next.set == 0)
    })
}

/// One atom at the start of `bytes`: a class, an escape or a literal; `None` at the end or
/// at anything unsupported.
fn atom(bytes: &[u8]) -> Option<(u128, &[u8])> {
    match *bytes.first()? {
        b'[' => class(&bytes[1..]),
        b'\\' => {
            let (&e, rest) = bytes[1..].split_first()?;
            Some((escape(e)?, rest))
        }
        b if literal(b) => Some((1 << b, &bytes[1..])),
        _ => None,
    }
}

/// An ASCII byte that stands for itself outside a class.
fn literal(b: u8) -> bool {
    (b' '..=b'~').contains(&b) && !b"^$.|?*+()[]{}\\".contains(&b)
}

/// The set of the escape `\e`: `\d`, `\w`, or escaped ASCII punctuation (not `\<` and
/// `\>`, word boundaries in `regex`).
fn escape(e: u8) -> Option<u128> {
    match e {
        b'd' => Some(DIGITS),
        b'w' => Some(WORD),
        b'<' | b'>' => None,
        b if b.is_ascii_punctuation() => Some(1 << b),
        _ => None,
    }
}

/// A class after its `[`: ranges, bytes and escapes up to `]` (not negated, not empty, and
/// without `regex`'s set operators `&&`, `--`, `~~`, which ECMA-262 reads as bytes).
fn class(mut bytes: &[u8]) -> Option<(u128, &[u8])> {
    if bytes.first() == Some(&b'^') {
        return None;
    }
    let end = bytes.iter().position(|&b| b == b']')?;
    if [b"&&", b"--", b"~~"]
        .iter()
        .any(|op| bytes[..end].windows(2).any(|w| w == *op))
    {
        return None;
    }
    let mut set = 0u128;
    loop {
        let (&b, rest) = bytes.split_first()?;
        match b {
            b']' if set != 0 => return Some((set, rest)),
            b'\\' => {
                let (&e, rest) = rest.split_first()?;
                set |= escape(e)?;
                bytes = rest;
            }
            b'[' | b']' => return None,
            b if (b' '..=b'~').contains(&b) => match rest {
                [b'-', hi, tail @ ..] if *hi != b']' && *hi != b'\\' && *hi != b'[' => {
                    if b > *hi || !(b' '..=b'~').contains(hi) {
                        return None;
                    }
                    set |= range(b, *hi);
                    bytes = tail;
                }
                _ => {
                    set |= 1 << b;
                    bytes = rest;
                }
            },
            _ => return None,
        }
    }
}

/// The count after an atom: `?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}` or none (a lazy `?`
/// after it is not supported).
fn quantifier(bytes: &[u8]) -> Option<((u32, u32), &[u8])> {
    let (count, rest) = match bytes.first() {
        Some(b'?') => ((0, 1), &bytes[1..]),
        Some(b'*') => ((0, u32::MAX), &bytes[1..]),
        Some(b'+') => ((1, u32::MAX), &bytes[1..]),
        Some(b'{') => braces(&bytes[1..])?,
        _ => return Some(((1, 1), bytes)),
    };
    match rest.first() {
        Some(b'?' | b'+' | b'*' | b'{') => None,
        _ => Some((count, rest)),
    }
}

/// `n}`, `n,}` or `n,m}` after a `{`.
fn braces(bytes: &[u8]) -> Option<((u32, u32), &[u8])> {
    let (min, rest) = number(bytes)?;
    let (max, rest) = match rest {
        [b'}', ..] => (min, rest),
        [b',', b'}', ..] => (u32::MAX, &rest[1..]),
        [b',', tail @ ..] => number(tail)?,
        _ => return None,
    };
    let rest = rest.strip_prefix(b"}")?;
    (min <= max).then_some(((min, max), rest))
}

/// A decimal count of at most four digits.
fn number(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 4 {
        return None;
    }
    let text = std::str::from_utf8(&bytes[..digits]).ok()?;
    Some((text.parse().ok()?, &bytes[digits..]))
}
