//! The gateway's own responses: JSON bodies for errors and admin answers.

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};
use jitson::Error;
use serde_json::{Value, json};

/// Every response body the gateway sends or forwards.
pub type Body = Full<Bytes>;

/// A response with `status` and a JSON body.
pub fn json(status: StatusCode, body: &Value) -> Response<Body> {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    with_type(status, bytes, "application/json")
}

/// A response with `status`, `body` and its content type.
pub fn with_type(status: StatusCode, body: Vec<u8>, content_type: &'static str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// A JSON error `{"error": message}` plus `extra` members.
pub fn error(status: StatusCode, message: &str, extra: Value) -> Response<Body> {
    let mut body = json!({ "error": message });
    if let (Some(body), Value::Object(extra)) = (body.as_object_mut(), extra) {
        body.extend(extra);
    }
    json(status, &body)
}

/// The JSON description of a document that broke schema `schema` version `version`:
/// message, JSON path, line, column, byte offset, and for schema failures the keyword and
/// its JSON Pointer in the schema.
pub fn invalid_document(schema: &str, version: u64, e: &Error) -> Value {
    let position = e.position();
    json!({
        "schema": schema,
        "version": version,
        "message": e.to_string(),
        "path": e.path().to_string(),
        "line": position.line,
        "column": position.column,
        "offset": e.offset(),
        "keyword": e.keyword().map(|k| k.as_str()),
        "schema_pointer": e.schema_pointer(),
    })
}
