//! `#[serde(with = "as_text")]`: a `u64` written as a JSON string of its digits, read back
//! from one (a field serde reads and writes through functions of the user's).

use serde::{Deserialize, Deserializer, Serializer};

/// Writes the number as a string.
pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// Reads the number from a string of its digits.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    String::deserialize(d)?
        .parse()
        .map_err(serde::de::Error::custom)
}
