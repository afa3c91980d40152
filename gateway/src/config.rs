//! The gateway's configuration: one TOML file (see the crate docs for an example).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::{fmt, fs, io};

use hyper::{Method, Uri};
use jitson::engine::{Tokens, TranscodeOptions, Unknown};
use serde::Deserialize;

/// The whole configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// Directory of `NAME.schema.json` files, watched for changes.
    pub schema_dir: PathBuf,
    /// Whether the schemas' `format`s are checked (else annotations).
    pub assert_formats: bool,
    /// Keywords the schemas may use as annotations beyond the draft's (see
    /// [`Loader::annotation_keyword`](jitson::schema::Loader::annotation_keyword)).
    pub annotation_keywords: Vec<String>,
    /// The dialect of schemas that name none (see
    /// [`Loader::default_dialect`](jitson::schema::Loader::default_dialect)); draft 2020-12
    /// when `None`.
    pub dialect: Option<String>,
    /// Largest request or response body accepted, in bytes.
    pub max_body_bytes: usize,
    /// The most Cranelift IR instructions a schema's native code may have, per tier (see
    /// [`Options::native_size_limit`](jitson::engine::Options::native_size_limit)); a schema
    /// over it is served by the interpreter.
    pub native_size_limit: usize,
    /// How often the schema directory is polled.
    pub poll_interval_ms: u64,
    /// How long a changed schema file must stay unchanged before it is published.
    pub debounce_ms: u64,
    /// The routes, tried in order.
    pub routes: Vec<Route>,
}

/// One route: requests with this method and path go to this upstream, checked against this
/// schema.
#[derive(Clone, Debug)]
pub struct Route {
    /// The HTTP method.
    pub method: Method,
    /// The path: exact, or a prefix when it ends in `/*`.
    pub path: String,
    /// Where requests are forwarded (`http://host:port`, no path).
    pub upstream: Uri,
    /// The schema request bodies must satisfy; none for a pass-through route. A name, for
    /// the directory's `NAME.schema.json`, or a reference to a schema in a container of the
    /// directory (`openapi.json#/components/schemas/Pet`, see [`Route::is_reference`]).
    pub schema: Option<String>,
    /// The schema upstream response bodies must satisfy (a failure is a `502`); named as
    /// `schema` is.
    pub response_schema: Option<String>,
    /// How valid request bodies are rewritten before forwarding (needs `schema`); none to
    /// forward them byte for byte.
    pub transcode: Option<TranscodeOptions>,
}

impl Route {
    /// Whether the schema name `name` is a reference (it has a `#`): the schema it names in
    /// a container of the schema directory serves under that name.
    pub fn is_reference(name: &str) -> bool {
        name.contains('#')
    }

    /// Whether this route serves `method` and `path`.
    pub fn matches(&self, method: &Method, path: &str) -> bool {
        if *method != self.method {
            return false;
        }
        match self.path.strip_suffix("/*") {
            Some(prefix) => path
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            None => path == self.path,
        }
    }
}

/// Why a configuration was refused.
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Io(PathBuf, io::Error),
    /// The file is not valid TOML for this configuration.
    Toml(String),
    /// A value is well-formed TOML but not acceptable.
    Invalid {
        /// Which setting (e.g. `routes[2].upstream`).
        setting: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            ConfigError::Toml(message) => write!(f, "invalid configuration: {message}"),
            ConfigError::Invalid { setting, reason } => write!(f, "{setting}: {reason}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    listen: String,
    schema_dir: PathBuf,
    #[serde(default)]
    assert_formats: bool,
    #[serde(default)]
    annotation_keywords: Vec<String>,
    #[serde(default)]
    dialect: Option<String>,
    #[serde(default = "default_max_body")]
    max_body_bytes: usize,
    #[serde(default = "default_native_size_limit")]
    native_size_limit: usize,
    #[serde(default = "default_poll")]
    poll_interval_ms: u64,
    #[serde(default = "default_debounce")]
    debounce_ms: u64,
    #[serde(default)]
    routes: Vec<RawRoute>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoute {
    method: String,
    path: String,
    upstream: String,
    schema: Option<String>,
    response_schema: Option<String>,
    transcode: Option<RawTranscode>,
}

/// A route's `[routes.transcode]` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTranscode {
    #[serde(default)]
    unknown: RawUnknown,
    #[serde(default)]
    pick: Vec<String>,
    #[serde(default)]
    redact: Vec<String>,
    /// JSON text of the value redacted values become (default `null`).
    replacement: Option<String>,
    #[serde(default)]
    tokens: RawTokens,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "lowercase")]
enum RawTokens {
    #[default]
    Rewritten,
    Verbatim,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "lowercase")]
enum RawUnknown {
    #[default]
    Keep,
    Drop,
    Deny,
}

fn default_max_body() -> usize {
    1 << 20
}

fn default_native_size_limit() -> usize {
    jitson::engine::DEFAULT_NATIVE_SIZE_LIMIT
}

fn default_poll() -> u64 {
    200
}

fn default_debounce() -> u64 {
    200
}

impl Config {
    /// Reads the file at `path`; a relative `schema_dir` is taken relative to the file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = fs::read_to_string(path).map_err(|e| ConfigError::Io(path.into(), e))?;
        let base = path.parent().unwrap_or(Path::new("."));
        Config::parse(&text, base)
    }

    /// Parses TOML `text`; a relative `schema_dir` is taken relative to `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))?;
        let listen = raw
            .listen
            .parse()
            .map_err(|e| invalid("listen", format!("not a socket address: {e}")))?;
        let routes = raw
            .routes
            .into_iter()
            .enumerate()
            .map(|(i, r)| route(i, r))
            .collect::<Result<_, _>>()?;
        Ok(Config {
            listen,
            schema_dir: base.join(raw.schema_dir),
            assert_formats: raw.assert_formats,
            annotation_keywords: raw.annotation_keywords,
            dialect: raw.dialect,
            max_body_bytes: raw.max_body_bytes,
            native_size_limit: raw.native_size_limit,
            poll_interval_ms: raw.poll_interval_ms,
            debounce_ms: raw.debounce_ms,
            routes,
        })
    }
}

fn invalid(setting: impl Into<String>, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        setting: setting.into(),
        reason: reason.into(),
    }
}

fn route(i: usize, raw: RawRoute) -> Result<Route, ConfigError> {
    let setting = |name: &str| format!("routes[{i}].{name}");
    let method = Method::from_bytes(raw.method.to_ascii_uppercase().as_bytes())
        .map_err(|_| invalid(setting("method"), "not an HTTP method"))?;
    if !raw.path.starts_with('/') || raw.path.starts_with("/-/") {
        let reason = "must start with / and not with /-/ (reserved for the gateway)";
        return Err(invalid(setting("path"), reason));
    }
    let upstream: Uri = raw
        .upstream
        .parse()
        .map_err(|e| invalid(setting("upstream"), format!("not a URI: {e}")))?;
    let plain_http = upstream.scheme_str() == Some("http")
        && upstream.authority().is_some()
        && matches!(upstream.path(), "" | "/")
        && upstream.query().is_none();
    if !plain_http {
        return Err(invalid(setting("upstream"), "must be http://host:port"));
    }
    let transcode = match raw.transcode {
        None => None,
        Some(_) if raw.schema.is_none() => {
            return Err(invalid(setting("transcode"), "needs the route's schema"));
        }
        Some(t) => {
            Some(transcode_options(t).map_err(|reason| invalid(setting("transcode"), reason))?)
        }
    };
    Ok(Route {
        method,
        path: raw.path,
        upstream,
        schema: raw.schema,
        response_schema: raw.response_schema,
        transcode,
    })
}

fn transcode_options(raw: RawTranscode) -> Result<TranscodeOptions, String> {
    let unknown = match raw.unknown {
        RawUnknown::Keep => Unknown::Keep,
        RawUnknown::Drop => Unknown::Drop,
        RawUnknown::Deny => Unknown::Deny,
    };
    let tokens = match raw.tokens {
        RawTokens::Rewritten => Tokens::Rewritten,
        RawTokens::Verbatim => Tokens::Verbatim,
    };
    let mut options = TranscodeOptions::new().unknown(unknown).tokens(tokens);
    if let Some(text) = raw.replacement {
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("replacement is not JSON: {e}"))?;
        options = options.replacement(&value);
    }
    for pointer in &raw.pick {
        options = options
            .pick(pointer)
            .map_err(|e| format!("pick {pointer}: {e}"))?;
    }
    for pointer in &raw.redact {
        options = options
            .redact(pointer)
            .map_err(|e| format!("redact {pointer}: {e}"))?;
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example configuration of the crate's documentation parses, each setting where
    /// its comment says.
    #[test]
    fn the_documented_example_parses() {
        let docs = include_str!("lib.rs");
        let toml: String = (docs.lines())
            .filter_map(|line| line.strip_prefix("//!"))
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
            .skip_while(|line| *line != "```toml")
            .skip(1)
            .take_while(|line| *line != "```")
            .map(|line| format!("{line}\n"))
            .collect();
        let config = Config::parse(&toml, Path::new("/etc/gw")).unwrap();
        let [users, pets] = &config.routes[..] else {
            panic!("two routes: {:?}", config.routes);
        };
        assert!(users.transcode.is_some() && pets.transcode.is_none());
        assert_eq!(
            pets.schema.as_deref(),
            Some("openapi.json#/components/schemas/Pet")
        );
        assert!(Route::is_reference(pets.schema.as_deref().unwrap()));
        assert!(!Route::is_reference(users.schema.as_deref().unwrap()));
    }

    #[test]
    fn parses_a_full_config() {
        let text = r#"
            listen = "127.0.0.1:8080"
            schema_dir = "schemas"
            [[routes]]
            method = "post"
            path = "/users"
            upstream = "http://127.0.0.1:9000"
            schema = "user"
            [routes.transcode]
            unknown = "drop"
            redact = ["/password"]
            replacement = '"***"'
            tokens = "verbatim"
            [[routes]]
            method = "GET"
            path = "/static/*"
            upstream = "http://127.0.0.1:9000/"
        "#;
        let config = Config::parse(text, Path::new("/etc/gw")).unwrap();
        assert_eq!(config.schema_dir, Path::new("/etc/gw/schemas"));
        assert!(!config.assert_formats);
        assert_eq!(config.max_body_bytes, 1 << 20);
        assert_eq!(
            config.native_size_limit,
            jitson::engine::DEFAULT_NATIVE_SIZE_LIMIT
        );
        assert_eq!(config.routes[0].method, Method::POST);
        assert!(config.routes[0].matches(&Method::POST, "/users"));
        assert!(!config.routes[0].matches(&Method::POST, "/users/1"));
        assert!(!config.routes[0].matches(&Method::GET, "/users"));
        let options = config.routes[0].transcode.as_ref().unwrap();
        let schema = r#"{"properties": {"password": {}, "x": {"type": "number"}}}"#;
        let codec = jitson::Codec::new(&jitson::Schema::from_json_str(schema).unwrap());
        let mut out = Vec::new();
        codec
            .transcode(br#"{"password": 1, "x": 1.50}"#, options, &mut out)
            .unwrap();
        assert_eq!(out, br#"{"password":"***","x":1.50}"#);
        assert!(config.routes[1].transcode.is_none());
        assert!(config.routes[1].matches(&Method::GET, "/static"));
        assert!(config.routes[1].matches(&Method::GET, "/static/a/b"));
        assert!(!config.routes[1].matches(&Method::GET, "/staticx"));
    }

    #[test]
    fn refuses_bad_values_naming_the_setting() {
        let base = Path::new(".");
        let with_route = |route: &str| {
            format!("listen = \"127.0.0.1:1\"\nschema_dir = \"s\"\n[[routes]]\n{route}")
        };
        let bad_upstream =
            with_route("method = \"POST\"\npath = \"/a\"\nupstream = \"https://x:1/path\"");
        assert_eq!(
            Config::parse(&bad_upstream, base).unwrap_err().to_string(),
            "routes[0].upstream: must be http://host:port"
        );
        let reserved = with_route("method = \"POST\"\npath = \"/-/x\"\nupstream = \"http://x:1\"");
        assert!(
            Config::parse(&reserved, base)
                .unwrap_err()
                .to_string()
                .starts_with("routes[0].path:")
        );
        let no_schema = with_route(
            "method = \"POST\"\npath = \"/a\"\nupstream = \"http://x:1\"\n[routes.transcode]\nunknown = \"drop\"",
        );
        assert_eq!(
            Config::parse(&no_schema, base).unwrap_err().to_string(),
            "routes[0].transcode: needs the route's schema"
        );
        let bad_pointer = with_route(
            "method = \"POST\"\npath = \"/a\"\nupstream = \"http://x:1\"\nschema = \"s\"\n[routes.transcode]\npick = [\"x\"]",
        );
        assert!(
            Config::parse(&bad_pointer, base)
                .unwrap_err()
                .to_string()
                .starts_with("routes[0].transcode: pick x: ")
        );
        let unknown = "listen = \"127.0.0.1:1\"\nschema_dir = \"s\"\nlisten_port = 3";
        assert!(matches!(
            Config::parse(unknown, base),
            Err(ConfigError::Toml(_))
        ));
        let listen = "listen = \"localhost\"\nschema_dir = \"s\"";
        assert!(
            Config::parse(listen, base)
                .unwrap_err()
                .to_string()
                .starts_with("listen: not a socket address")
        );
    }

    #[test]
    fn formats_are_asserted_on_request() {
        let text = "listen = \"127.0.0.1:1\"\nschema_dir = \"s\"\nassert_formats = true";
        assert!(Config::parse(text, Path::new("/")).unwrap().assert_formats);
        let text = "listen = \"127.0.0.1:1\"\nschema_dir = \"s\"\n\
                    annotation_keywords = [\"discriminator\", \"x-*\"]";
        let config = Config::parse(text, Path::new("/")).unwrap();
        assert_eq!(config.annotation_keywords, ["discriminator", "x-*"]);
        assert_eq!(config.dialect, None);
        let text = "listen = \"127.0.0.1:1\"\nschema_dir = \"s\"\n\
                    dialect = \"https://spec.openapis.org/oas/3.1/dialect/base\"";
        let config = Config::parse(text, Path::new("/")).unwrap();
        assert_eq!(config.dialect.as_deref(), Some(jitson::schema::OPENAPI_3_1));
    }
}
