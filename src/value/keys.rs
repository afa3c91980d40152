//! Finding an earlier member with the same key while an object is parsed.
//!
//! Small objects keep a 256-bit filter of key hashes: a key whose bit is clear is new
//! without any comparison, and only a set bit (a repeat, or a collision) scans the members.
//! Objects with more than [`FILTER_LIMIT`] members move to a hash table with a per-process
//! random seed, so crafted keys cannot make lookups quadratic: the scans are bounded by the
//! limit, the table by hashing.

use std::collections::HashMap;

use super::Member;

/// Objects with more members than this look keys up in a hash table.
const FILTER_LIMIT: usize = 64;

type Table<'a> = HashMap<&'a str, usize, foldhash::fast::RandomState>;

/// The key lookup state of one open object.
#[derive(Clone, Copy, Default)]
pub(super) struct KeySet {
    /// One bit per key hash, for the keys of the members so far.
    filter: [u64; 4],
    /// The filter word and bit of the key being parsed.
    bit: (usize, u64),
    /// True once the object has its own table on top of the [`KeyTables`] stack.
    indexed: bool,
}

/// Hash tables of the open objects that outgrew the filter, taken and released in stack
/// order and reused.
#[derive(Default)]
pub(super) struct KeyTables<'a> {
    tables: Vec<Table<'a>>,
    in_use: usize,
}

impl<'a> KeyTables<'a> {
    fn open(&mut self) -> &mut Table<'a> {
        if self.in_use == self.tables.len() {
            self.tables.push(Table::default());
        }
        self.in_use += 1;
        &mut self.tables[self.in_use - 1]
    }

    fn top(&mut self) -> Option<&mut Table<'a>> {
        let top = self.in_use.checked_sub(1)?;
        self.tables.get_mut(top)
    }

    fn close(&mut self) {
        if let Some(table) = self.top() {
            table.clear();
            self.in_use -= 1;
        }
    }
}

/// The filter word and bit of `key`: a multiplicative hash of its length and its first and
/// last bytes (eight of each when it has them).
#[inline]
fn filter_bit(key: &str) -> (usize, u64) {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = key.as_bytes();
    let (head, tail) = match bytes.len() {
        8.. => (word(&bytes[..8]), word(&bytes[bytes.len() - 8..])),
        4..8 => (word(&bytes[..4]), word(&bytes[bytes.len() - 4..])),
        _ => (bytes.iter().fold(0, |h, &b| h << 8 | u64::from(b)), 0),
    };
    let h = ((bytes.len() as u64 ^ head).wrapping_mul(K) ^ tail).wrapping_mul(K);
    let bit = (h >> 56) as usize;
    (bit >> 6, 1 << (bit & 63))
}

/// Eight or four bytes as a little-endian integer.
#[inline]
fn word(bytes: &[u8]) -> u64 {
    match bytes.try_into() {
        Ok(eight) => u64::from_le_bytes(eight),
        Err(_) => bytes
            .try_into()
            .map_or(0, |four| u64::from(u32::from_le_bytes(four))),
    }
}

impl KeySet {
    /// The index in `members` of an earlier member of this object (whose members are
    /// `members[start..]`) with key `key`; remembers `key`'s hash for [`KeySet::insert`].
    #[inline]
    pub(super) fn find<'a>(
        &mut self,
        key: &str,
        start: usize,
        members: &[Member<'a>],
        tables: &mut KeyTables<'a>,
    ) -> Option<usize> {
        if self.indexed {
            return tables.top()?.get(key).copied();
        }
        self.bit = filter_bit(key);
        let (word, bit) = self.bit;
        if self.filter[word] & bit == 0 {
            return None;
        }
        let own = members.get(start..).unwrap_or_default();
        own.iter().position(|(k, _)| k.0 == key).map(|i| start + i)
    }

    /// Records the key of the member just pushed at `members.len() - 1`.
    #[inline]
    pub(super) fn insert<'a>(
        &mut self,
        start: usize,
        members: &[Member<'a>],
        tables: &mut KeyTables<'a>,
    ) {
        let Some((key, _)) = members.last() else {
            return;
        };
        if self.indexed {
            if let Some(table) = tables.top() {
                table.insert(key.0, members.len() - 1);
            }
            return;
        }
        let (word, bit) = self.bit;
        self.filter[word] |= bit;
        if members.len() - start > FILTER_LIMIT {
            let table = tables.open();
            for (i, (key, _)) in members.iter().enumerate().skip(start) {
                table.insert(key.0, i);
            }
            self.indexed = true;
        }
    }

    /// Releases this object's table, if it has one (when the object closes).
    #[inline]
    pub(super) fn close(&self, tables: &mut KeyTables<'_>) {
        if self.indexed {
            tables.close();
        }
    }
}
