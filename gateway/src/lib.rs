//! `jitson-gateway`: an HTTP reverse proxy that checks JSON bodies against schemas from a
//! watched directory, on jitson's [`Registry`](jitson::registry::Registry).
//!
//! Routes map a method and path to an upstream and, optionally, a schema for request bodies
//! and one for response bodies. A request whose body breaks its schema gets `400` with a JSON
//! error (message, path, line, column, offset, keyword) and never reaches the upstream; a
//! valid body is forwarded byte for byte, or transcoded first when the route says so
//! (unknown members dropped, values picked or redacted). Schemas are the `NAME.schema.json` files of one
//! directory, republished when a file changes (debounced; a broken file is reported and the
//! previous version keeps serving) and on `POST /-/reload`; they may `$ref` the directory's
//! other `.json` (and `.yaml`, `.yml`) files as containers of schemas
//! (`openapi.json#/components/schemas/Pet`, see
//! [`Loader::container_json`](jitson::schema::Loader::container_json)), and a route may name
//! such a schema directly by that reference. `GET /-/schemas` lists what is
//! served (each schema's version, key, compile time and what its codec runs on: `native`,
//! or the interpreter and why), `GET /-/metrics` gives counters in the Prometheus text
//! format.
//!
//! ```toml
//! listen = "127.0.0.1:8080"
//! schema_dir = "schemas"          # relative to this file
//! assert_formats = true           # check "format" (date-time, email, ...); default false
//! annotation_keywords = ["x-*"]  # taken, not checked (OpenAPI extensions)
//! dialect = "https://spec.openapis.org/oas/3.1/dialect/base"  # of schemas without $schema
//! max_body_bytes = 1048576        # default 1 MiB
//! native_size_limit = 250000      # Cranelift instructions per tier; larger schemas: interpreter
//! poll_interval_ms = 200          # default 200
//! debounce_ms = 200               # default 200
//!
//! [[routes]]
//! method = "POST"
//! path = "/users"                 # exact; "/users/*" matches the prefix
//! upstream = "http://127.0.0.1:9000"
//! schema = "user"                 # schemas/user.schema.json; omit for pass-through
//! response_schema = "user"        # optional: check the upstream's answer (502 if bad)
//!
//! [routes.transcode]              # optional (needs schema): rewrite valid bodies compact
//! unknown = "drop"                # keep (default) | drop | deny members the schema does not name
//! pick = ["/id", "/name"]         # keep only these values (JSON Pointers) and their ancestors
//! redact = ["/password"]          # replace these values (after validating them) ...
//! replacement = '"***"'           # ... with this JSON (default null)
//! tokens = "verbatim"             # rewritten (default: as serde_json writes) | verbatim (as sent)
//!
//! [[routes]]                      # a schema in a container of the directory, by reference
//! method = "PUT"
//! path = "/pets/*"
//! upstream = "http://127.0.0.1:9000"
//! schema = "openapi.json#/components/schemas/Pet"
//! ```

mod admin;
pub mod config;
pub mod echo;
pub mod metrics;
mod proxy;
mod reply;
mod server;

pub use config::{Config, ConfigError, Route};
pub use server::{Gateway, State};
