//! [`Counted`]: a string type that counts its live instances, so tests and the `typed` fuzz
//! body (which includes this file by path) can prove that typed decode leaks and
//! double-drops nothing.

use std::sync::atomic::{AtomicIsize, Ordering};

use jitson::schema::builder::TypeExpr;
use jitson::typed::decode::{Bail, Reader};
use jitson::typed::{Definitions, JsonDecode, JsonEncode, JsonType};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Live [`Counted`] values: every one deserialized adds one, every drop takes one.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// How many [`Counted`] values are alive.
pub fn live() -> isize {
    LIVE.load(Ordering::SeqCst)
}

/// A string (its schema is `string`) that counts its live instances.
#[derive(Debug, PartialEq)]
pub struct Counted(pub String);

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Counted, D::Error> {
        let s = String::deserialize(d)?;
        LIVE.fetch_add(1, Ordering::SeqCst);
        Ok(Counted(s))
    }
}

impl<'de> JsonDecode<'de> for Counted {
    fn decode_json(r: &mut Reader<'de>) -> Result<Counted, Bail> {
        let s = String::decode_json(r)?;
        LIVE.fetch_add(1, Ordering::SeqCst);
        Ok(Counted(s))
    }
}

impl Serialize for Counted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

impl JsonEncode for Counted {
    fn encode_json(&self, out: &mut Vec<u8>) {
        self.0.encode_json(out);
    }
}

impl JsonType for Counted {
    type Key = Counted;

    fn type_expr(defs: &mut Definitions) -> TypeExpr {
        String::type_expr(defs)
    }
}
