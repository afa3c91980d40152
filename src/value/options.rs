//! Parser options: a small builder in the style of regex-automata's `Config`.

/// The default nesting limit: the same as the validating skip kernel's
/// ([`jitson_kernels::skip::DEFAULT_MAX_DEPTH`]).
pub const DEFAULT_MAX_DEPTH: usize = jitson_kernels::skip::DEFAULT_MAX_DEPTH;

/// What an object that repeats a key becomes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DuplicateKeys {
    /// The object keeps one member per key: at the position of the key's **first**
    /// occurrence, with the value of its **last** occurrence (what serde_json's Value does,
    /// and what its `preserve_order` map does for the position).
    #[default]
    LastWins,
    /// A repeated key is an error ([`crate::ErrorKind::DuplicateKey`]) at the repeated key.
    Deny,
}

/// What a well-formed number that no 64-bit type holds becomes: an integer beyond `u64`
/// (positive) or `i64` (negative), or a float beyond the range of `f64` (`1e400`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BigNumbers {
    /// serde_json's behaviour: a big integer becomes the nearest `f64`; a number beyond the
    /// range of `f64` is an error ([`crate::ErrorKind::NumberOutOfRange`]).
    #[default]
    Float,
    /// Both are errors ([`crate::ErrorKind::NumberOutOfRange`]).
    Error,
    /// Both are kept as their raw token, [`crate::value::Value::BigNumber`] (written back
    /// unchanged).
    Raw,
}

/// How [`crate::value::parse_with`] reads a document.
///
/// ```
/// use jitson::value::{BigNumbers, DuplicateKeys, ParseOptions};
///
/// let options = ParseOptions::new()
///     .max_depth(64)
///     .duplicate_keys(DuplicateKeys::Deny)
///     .big_numbers(BigNumbers::Raw)
///     .lossy(true);
/// assert_eq!(options.get_max_depth(), 64);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseOptions {
    max_depth: usize,
    duplicate_keys: DuplicateKeys,
    big_numbers: BigNumbers,
    lossy: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions::new()
    }
}

impl ParseOptions {
    /// The defaults: depth limit [`DEFAULT_MAX_DEPTH`], last duplicate key wins, big numbers
    /// as serde_json treats them, strict UTF-8 and surrogates.
    pub const fn new() -> ParseOptions {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            duplicate_keys: DuplicateKeys::LastWins,
            big_numbers: BigNumbers::Float,
            lossy: false,
        }
    }

    /// The most containers a value may be nested in, itself included: `0` accepts only
    /// scalars, `1` accepts `[1]` but not `[[1]]` (the validating skip kernel's meaning;
    /// serde_json's fixed limit of 128 accepts 127 levels). A deeper container is
    /// [`crate::ErrorKind::DepthLimitExceeded`] at its opening bracket. The parser is
    /// iterative, so any limit is safe for parsing; `Value`'s derived `Debug` recurses once
    /// per level.
    pub const fn max_depth(mut self, limit: usize) -> ParseOptions {
        self.max_depth = limit;
        self
    }

    /// What a repeated object key does ([`DuplicateKeys`]).
    pub const fn duplicate_keys(mut self, policy: DuplicateKeys) -> ParseOptions {
        self.duplicate_keys = policy;
        self
    }

    /// What numbers beyond 64 bits become ([`BigNumbers`]).
    pub const fn big_numbers(mut self, policy: BigNumbers) -> ParseOptions {
        self.big_numbers = policy;
        self
    }

    /// When true, bytes that are not UTF-8 inside strings, and `\u` escapes of lone
    /// surrogates, become U+FFFD instead of errors. Default false (strict, like serde_json).
    pub const fn lossy(mut self, yes: bool) -> ParseOptions {
        self.lossy = yes;
        self
    }

    /// See [`max_depth`](Self::max_depth).
    pub const fn get_max_depth(&self) -> usize {
        self.max_depth
    }

    /// See [`duplicate_keys`](Self::duplicate_keys).
    pub const fn get_duplicate_keys(&self) -> DuplicateKeys {
        self.duplicate_keys
    }

    /// See [`big_numbers`](Self::big_numbers).
    pub const fn get_big_numbers(&self) -> BigNumbers {
        self.big_numbers
    }

    /// See [`lossy`](Self::lossy).
    pub const fn get_lossy(&self) -> bool {
        self.lossy
    }
}
