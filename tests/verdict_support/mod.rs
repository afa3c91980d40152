//! Shared by the schema loading tests: a schema's verdicts on values, which the reference
//! validator, the interpreter and native code must give alike.

use jitson::engine::{Backend, Options};
use jitson::{Codec, Schema};
use serde_json::Value;

/// Whether each value is valid against `schema`: the reference validator's verdicts, which
/// the interpreter and native code must give too (a disagreement panics).
pub fn verdicts(schema: &Schema, values: &[Value]) -> Vec<bool> {
    let native = Codec::with_options(schema, Options::new().backend(Backend::Native));
    let interp = Codec::new(schema);
    (values.iter())
        .map(|value| {
            let ok = schema.validate_value(value).is_ok();
            let bytes = serde_json::to_vec(value).unwrap();
            assert_eq!(
                interp.validate(&bytes).is_ok(),
                ok,
                "interpreter on {value}"
            );
            assert_eq!(
                native.validate(&bytes).is_ok(),
                ok,
                "native code on {value}"
            );
            ok
        })
        .collect()
}
