//! `yaml`: documents given in YAML ([`Loader::document_yaml`]).
//!
//! - Any bytes: read as YAML, they give a document or an error, never a panic (and, under
//!   libFuzzer's limits, in bounded time and memory: aliases are bounded). The JSON text the
//!   YAML reads as is JSON: serde_json refuses it only for depth or a number out of range.
//! - JSON text is YAML: wrapped as `{"const": TEXT}`, a schema document read as YAML loads to
//!   the schema it loads to read as JSON (the same `const` value), or fails alike. Where the
//!   YAML parser refuses JSON text (it limits implicit keys to 1024 characters, say), there
//!   is nothing to compare.

use jitson::schema::{Loader, SchemaErrorKind};

use super::oracle::show;

/// The URI the documents are given under.
const URI: &str = "https://example.com/fuzz.yaml";

/// The body of the `yaml` target.
pub fn run(data: &[u8]) {
    // What the YAML reads as is JSON text; serde_json refuses only what JSON cannot hold.
    if let Err(e) = Loader::new().container_yaml(URI, data)
        && let SchemaErrorKind::Yaml(message) = e.kind()
        && let Some(refusal) = message.strip_prefix("as JSON, ")
    {
        let deep_or_huge = ["recursion limit exceeded", "number out of range"];
        assert!(
            deep_or_huge.iter().any(|m| refusal.starts_with(m)),
            "{} reads as text that is no JSON: {message}",
            show(data)
        );
    }
    if serde_json::from_slice::<serde_json::Value>(data).is_err() {
        return;
    }
    let text = std::str::from_utf8(data).expect("serde_json reads only UTF-8");
    let wrapped = format!("{{\"const\": {text}\n}}");
    let root = serde_json::json!({ "$ref": URI });
    let (mut as_json, mut as_yaml) = (Loader::new(), Loader::new());
    let from_json = (as_json.document_json(URI, wrapped.as_bytes()).map(drop))
        .and_then(|()| as_json.load_value(&root));
    let from_yaml = match as_yaml.document_yaml(URI, wrapped.as_bytes()).map(drop) {
        Err(e) if matches!(e.kind(), SchemaErrorKind::Yaml(_)) => return,
        read => read.and_then(|()| as_yaml.load_value(&root)),
    };
    let agree = match (&from_json, &from_yaml) {
        (Ok(x), Ok(y)) => x == y,
        (Err(x), Err(y)) => x.kind() == y.kind(),
        _ => false,
    };
    assert!(
        agree,
        "{} read as JSON: {from_json:?}; as YAML: {from_yaml:?}",
        show(data)
    );
}
