//! [`TypeKey`]: the stable 128-bit identity of a canonical schema plus codegen options.

use crate::schema::Schema;
use crate::schema::encode::encode_schema;
use std::fmt;

/// A stable 128-bit structural hash of a schema's canonical form and an options word.
///
/// Equal schemas (however spelled or built) with equal options have equal keys, on every run
/// and platform: the key is FNV-1a-128 over the canonical byte encoding, not a `Hasher`.
/// Object field order is part of the canonical form (encode writes fields in schema order),
/// so `{"a","b"}` and `{"b","a"}` have different keys; `enum` order is too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeKey(u128);

/// FNV-1a-128 offset basis.
const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
/// FNV-1a-128 prime: 2^88 + 2^8 + 0x3b.
const PRIME: u128 = 0x0000000001000000000000000000013B;

impl TypeKey {
    /// The key of `schema` compiled with the codegen options `options` (a bit set the engine
    /// defines; every option that changes generated code must be in it).
    pub fn of(schema: &Schema, options: u64) -> TypeKey {
        let mut bytes = options.to_le_bytes().to_vec();
        bytes.extend(encode_schema(schema));
        TypeKey(fnv1a_128(&bytes))
    }

    /// The key as a number.
    pub fn as_u128(self) -> u128 {
        self.0
    }
}

impl fmt::Display for TypeKey {
    /// 32 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

fn fnv1a_128(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        // Published FNV-1a-128 test vectors.
        assert_eq!(fnv1a_128(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_eq!(fnv1a_128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
    }
}
