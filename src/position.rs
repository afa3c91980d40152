//! Line and column of a byte offset, computed on failure from the input.
//!
//! jitson reports positions exactly as serde_json does, so that an error message names the
//! same place for the same input:
//!
//! - `line` is 1-based: one plus the number of line feeds (`\n`) before the offending byte.
//!   Only `\n` ends a line (a lone `\r` does not).
//! - `column` counts **bytes**, not characters: the number of bytes of the line from its
//!   start up to and including the offending byte, so the first byte of a line is column 1.
//!   A line feed belongs to the next line: an offending `\n` (say, inside a string) is
//!   reported as column 0 of the line it starts.
//! - When the input ended too early the offset is the input's length, and the position is
//!   that of the last byte (column 0 for an empty input or one ending in a line feed).

use std::fmt;

/// A 1-based line and a byte column, as described in the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The line, counting from 1.
    pub line: usize,
    /// The column in bytes (see the module documentation for the convention).
    pub column: usize,
}

impl Position {
    /// The position of the byte at `offset` in `input` (an offset at or past the end names
    /// the end of the input).
    pub fn of(input: &[u8], offset: usize) -> Position {
        let end = offset.saturating_add(1).min(input.len());
        let seen = &input[..end];
        let line_start = memchr::memrchr(b'\n', seen).map_or(0, |nl| nl + 1);
        Position {
            line: 1 + memchr::memchr_iter(b'\n', seen).count(),
            column: end - line_start,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} column {}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::Position;

    fn at(input: &str, offset: usize) -> (usize, usize) {
        let p = Position::of(input.as_bytes(), offset);
        (p.line, p.column)
    }

    #[test]
    fn columns_count_bytes_through_the_offending_byte() {
        assert_eq!(at("[1 2]", 3), (1, 4));
        assert_eq!(at("é1x", 3), (1, 4));
        assert_eq!(at("[\n  1 x]", 6), (2, 5));
    }

    #[test]
    fn a_line_feed_starts_its_line_at_column_zero() {
        assert_eq!(at("\"a\nb\"", 2), (2, 0));
    }

    #[test]
    fn the_end_of_input_is_the_last_byte() {
        assert_eq!(at("", 0), (1, 0));
        assert_eq!(at("[1", 2), (1, 2));
        assert_eq!(at("[1\n", 3), (2, 0));
        assert_eq!(at("[1", usize::MAX), (1, 2));
    }
}
