//! The gateway end to end on loopback: an echo upstream, the gateway, real HTTP requests.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use jitson_gateway::echo::Echo;
use jitson_gateway::{Config, Gateway};
use serde_json::Value;

const USER: &str = r#"{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "required": ["id"]}"#;
/// The second version carries an extension keyword, which the config takes as an annotation,
/// and an OpenAPI keyword, which the config's dialect (OpenAPI 3.1's) takes.
const USER_V2: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}},
    "required": ["id"], "x-owner": "accounts", "example": {"id": "a"}}"#;

type HttpClient = Client<HttpConnector, Full<Bytes>>;

struct Setup {
    echo: Echo,
    gateway: Gateway,
    dir: SchemaDir,
    client: HttpClient,
}

fn temp_dir() -> SchemaDir {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jitson-gw-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    SchemaDir(dir)
}

async fn setup(max_body: usize) -> Setup {
    setup_with(max_body, "").await
}

/// [`setup`] with more top-level `settings` in the configuration.
async fn setup_with(max_body: usize, settings: &str) -> Setup {
    let echo = Echo::start("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let dir = temp_dir();
    std::fs::write(dir.join("user.schema.json"), USER).unwrap();
    let up = format!("http://{}", echo.addr);
    let config = format!(
        r#"
        listen = "127.0.0.1:0"
        schema_dir = "."
        max_body_bytes = {max_body}
        {settings}
        annotation_keywords = ["x-*"]
        dialect = "https://spec.openapis.org/oas/3.1/dialect/base"
        poll_interval_ms = 20
        debounce_ms = 30
        [[routes]]
        method = "POST"
        path = "/users"
        upstream = "{up}"
        schema = "user"
        [[routes]]
        method = "POST"
        path = "/raw/*"
        upstream = "{up}"
        [[routes]]
        method = "POST"
        path = "/answers"
        upstream = "{up}"
        response_schema = "user"
        [[routes]]
        method = "POST"
        path = "/orders"
        upstream = "{up}"
        schema = "order"
        [[routes]]
        method = "POST"
        path = "/pets"
        upstream = "{up}"
        schema = "api.json#/components/schemas/Pet"
        [[routes]]
        method = "POST"
        path = "/clean"
        upstream = "{up}"
        schema = "user"
        [routes.transcode]
        unknown = "drop"
        redact = ["/name"]
        replacement = '"***"'
        [[routes]]
        method = "POST"
        path = "/down"
        upstream = "http://127.0.0.1:9"
        "#
    );
    let config = Config::parse(&config, &dir).unwrap();
    let gateway = Gateway::start(config).await.unwrap();
    let client = Client::builder(TokioExecutor::new()).build_http();
    Setup {
        echo,
        gateway,
        dir,
        client,
    }
}

impl Setup {
    async fn send(&self, method: Method, path: &str, body: &[u8]) -> (StatusCode, Bytes) {
        let url = format!("http://{}{path}", self.gateway.local_addr());
        let request = Request::builder()
            .method(method)
            .uri(url)
            .header("content-type", "application/json")
            .body(Full::new(Bytes::copy_from_slice(body)))
            .unwrap();
        let response = self.client.request(request).await.unwrap();
        let status = response.status();
        (
            status,
            response.into_body().collect().await.unwrap().to_bytes(),
        )
    }

    async fn post_json(&self, path: &str, body: &str) -> (StatusCode, Value) {
        let (status, bytes) = self.send(Method::POST, path, body.as_bytes()).await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    fn write_schema(&self, name: &str, text: &str) {
        write_atomically(&self.dir, &format!("{name}.schema.json"), text);
    }
}

/// A schema directory under the temp directory, removed when dropped.
struct SchemaDir(PathBuf);

impl std::ops::Deref for SchemaDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for SchemaDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes through a temporary file and a rename, as deploy tools do.
fn write_atomically(dir: &Path, file: &str, text: &str) {
    let tmp = dir.join(format!(".{file}.tmp"));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(tmp, dir.join(file)).unwrap();
}

async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn valid_bodies_are_forwarded_byte_exact_and_invalid_ones_get_400() {
    let s = setup(1 << 20).await;
    let body = b" {\"id\" : 7,\n \"name\":\"a\\u00e9\", \"extra\": [1, 2.50]}  ";
    let (status, echoed) = s.send(Method::POST, "/users?x=1", body).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&echoed[..], body);

    let forwarded = s.echo.requests.load(Ordering::Relaxed);
    let (status, error) = s.post_json("/users", "{\n  \"id\": \"seven\"\n}").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"], "invalid body");
    assert_eq!(error["path"], "$.id");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(2), Some(9))
    );
    assert_eq!(error["offset"], 10);
    assert_eq!(error["keyword"], "type");
    assert_eq!(error["schema"], "user");
    assert_eq!(
        s.echo.requests.load(Ordering::Relaxed),
        forwarded,
        "not forwarded"
    );

    let (status, error) = s.post_json("/users", "{\"id\": 1,").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("EOF while parsing a value at line 1 column 9, path $"),
        "{error}"
    );

    // A transcoding route forwards the rewritten body: unknown members dropped, redacted.
    let (status, echoed) = s
        .send(
            Method::POST,
            "/clean",
            b"{\"id\": 1, \"name\": \"Ada\", \"x\": [1]}",
        )
        .await;
    assert_eq!(
        (status, &echoed[..]),
        (StatusCode::OK, &br#"{"id":1,"name":"***"}"#[..])
    );
    let (status, error) = s.post_json("/clean", r#"{"name": "no id"}"#).await;
    assert_eq!(
        (status, &error["keyword"]),
        (StatusCode::BAD_REQUEST, &Value::from("required"))
    );

    // A pass-through route forwards anything, even non-JSON.
    let (status, echoed) = s.send(Method::POST, "/raw/a/b", b"not json").await;
    assert_eq!((status, &echoed[..]), (StatusCode::OK, &b"not json"[..]));
    s.gateway.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schema_changes_on_disk_take_effect_and_broken_files_leave_the_old_one() {
    let s = setup(1 << 20).await;
    assert_eq!(
        s.post_json("/users", r#"{"id": 1}"#).await.0,
        StatusCode::OK
    );
    s.write_schema("user", USER_V2);
    eventually("the new schema", async || {
        s.post_json("/users", r#"{"id": "1"}"#).await.0 == StatusCode::OK
    })
    .await;
    assert_eq!(
        s.post_json("/users", r#"{"id": 1}"#).await.0,
        StatusCode::BAD_REQUEST
    );
    let version = s.gateway.registry().version("user").unwrap().number();

    s.write_schema(
        "user",
        r#"{"type": "object", "required": ["id"], "then": 3}"#,
    );
    let (status, reload) = s.post_json("/-/reload", "").await;
    assert_eq!(status, StatusCode::OK);
    let events = reload["events"].to_string();
    assert!(events.contains("user not published"), "{events}");
    assert_eq!(
        s.gateway.registry().version("user").unwrap().number(),
        version
    );
    assert_eq!(
        s.post_json("/users", r#"{"id": "1"}"#).await.0,
        StatusCode::OK
    );

    // A schema the route names but that does not exist yet: 503 until its file appears.
    let (status, error) = s.post_json("/orders", "{}").await;
    assert_eq!(
        (status, &error["error"]),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            &Value::from("schema not loaded")
        )
    );
    s.write_schema("order", r#"{"type": "object"}"#);
    eventually("the order schema", async || {
        s.post_json("/orders", "{}").await.0 == StatusCode::OK
    })
    .await;

    // A schema may refer to a container beside it (an OpenAPI document, read in the
    // config's dialect); a change to the container takes effect too.
    let openapi = |required: &str| {
        format!(
            r#"{{"openapi": "3.1.0", "components": {{"schemas": {{"Order":
                {{"type": "object", "required": [{required}], "example": {{"sku": 1}}}}}}}}}}"#
        )
    };
    write_atomically(&s.dir, "openapi.json", &openapi(r#""sku""#));
    s.write_schema(
        "order",
        r##"{"$ref": "openapi.json#/components/schemas/Order"}"##,
    );
    eventually("the order schema of the OpenAPI document", async || {
        s.post_json("/orders", "{}").await.0 == StatusCode::BAD_REQUEST
    })
    .await;
    assert_eq!(
        s.post_json("/orders", r#"{"sku": 1}"#).await.0,
        StatusCode::OK
    );
    write_atomically(&s.dir, "openapi.json", &openapi(""));
    eventually("the changed OpenAPI document", async || {
        s.post_json("/orders", "{}").await.0 == StatusCode::OK
    })
    .await;

    // A route may name a schema in a container directly; an OpenAPI 3.0 document's schemas
    // are read in OpenAPI 3.0's dialect.
    let (status, error) = s.post_json("/pets", "{}").await;
    assert_eq!(
        (status, &error["error"]),
        (
            StatusCode::SERVICE_UNAVAILABLE,
            &Value::from("schema not loaded")
        )
    );
    let api = r#"{"openapi": "3.0.3", "components": {"schemas": {"Pet": {"type": "object",
        "required": ["name"], "properties": {"name": {"type": "string", "nullable": true}},
        "x-table": "pets"}}}}"#;
    write_atomically(&s.dir, "api.json", api);
    eventually("the Pet schema of the OpenAPI 3.0 document", async || {
        s.post_json("/pets", "{}").await.0 == StatusCode::BAD_REQUEST
    })
    .await;
    let (status, echoed) = s.post_json("/pets", r#"{"name": null}"#).await;
    assert_eq!(
        (status, echoed),
        (StatusCode::OK, serde_json::json!({"name": null}))
    );
    assert_eq!(
        s.post_json("/pets", r#"{"name": 1}"#).await.0,
        StatusCode::BAD_REQUEST
    );
    s.gateway.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_upstream_failures_and_response_checks() {
    let s = setup(64).await;
    let big = format!("{{\"id\": 1, \"name\": \"{}\"}}", "x".repeat(100));
    let (status, error) = s.post_json("/users", &big).await;
    assert_eq!(
        (status, &error["limit"]),
        (StatusCode::PAYLOAD_TOO_LARGE, &Value::from(64))
    );
    let (status, error) = s.post_json("/down", "{}").await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::BAD_GATEWAY, &Value::from("upstream failed"))
    );
    let (status, error) = s.post_json("/answers", r#"{"name": "no id"}"#).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY);
    assert_eq!(error["error"], "invalid upstream response");
    assert_eq!(error["keyword"], "required");
    assert_eq!(
        s.post_json("/answers", r#"{"id": 5}"#).await.0,
        StatusCode::OK
    );
    let (status, error) = s.post_json("/nowhere", "{}").await;
    assert_eq!(
        (status, &error["error"]),
        (StatusCode::NOT_FOUND, &Value::from("no route"))
    );
    s.gateway.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_endpoints_list_schemas_and_metrics() {
    let s = setup(1 << 20).await;
    s.post_json("/users", r#"{"id": 1}"#).await;
    s.post_json("/users", r#"{"id": true}"#).await;
    let (status, bytes) = s.send(Method::GET, "/-/schemas", b"").await;
    assert_eq!(status, StatusCode::OK);
    let list: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(list["schemas"][0]["name"], "user");
    assert_eq!(list["schemas"][0]["key"].as_str().unwrap().len(), 32);
    assert!(list["schemas"][0]["backend"].is_string(), "{list}");
    let (status, bytes) = s.send(Method::GET, "/-/metrics", b"").await;
    assert_eq!(status, StatusCode::OK);
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    for line in [
        "jitson_gateway_requests_total{route=\"POST /users\",outcome=\"forwarded\"} 1",
        "jitson_gateway_requests_total{route=\"POST /users\",outcome=\"invalid_body\"} 1",
        "jitson_schema_documents_total{schema=\"user\"} 2",
        "jitson_schema_failures_total{schema=\"user\"} 1",
    ] {
        assert!(text.lines().any(|l| l == line), "missing {line} in\n{text}");
    }
    assert_eq!(
        s.send(Method::GET, "/-/nothing", b"").await.0,
        StatusCode::NOT_FOUND
    );
    s.gateway.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_over_the_native_size_limit_is_served_by_the_interpreter() {
    let s = setup_with(1 << 20, "native_size_limit = 10").await;
    let expected = "interpreter (native code unavailable: the validate code is over the native \
                    size limit of 10 Cranelift instructions)";
    eventually("the user schema's codec to settle", async || {
        let (_, bytes) = s.send(Method::GET, "/-/schemas", b"").await;
        let list: Value = serde_json::from_slice(&bytes).unwrap();
        let schemas = list["schemas"].as_array().unwrap();
        let user = schemas.iter().find(|v| v["name"] == "user").unwrap();
        user["backend"] == expected
    })
    .await;
    assert_eq!(
        s.post_json("/users", r#"{"id": 1}"#).await.0,
        StatusCode::OK
    );
    assert_eq!(
        s.post_json("/users", r#"{"id": true}"#).await.0,
        StatusCode::BAD_REQUEST
    );
    s.gateway.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounded_concurrent_load_is_served_completely_and_in_time() {
    let s = setup(1 << 20).await;
    let start = Instant::now();
    let clients: Vec<_> = (0..8)
        .map(|c| {
            let (client, addr): (HttpClient, SocketAddr) =
                (s.client.clone(), s.gateway.local_addr());
            tokio::spawn(async move {
                let mut statuses = Vec::new();
                for i in 0..50 {
                    let body = if (c + i) % 5 == 0 {
                        r#"{"id": "x"}"#
                    } else {
                        r#"{"id": 1}"#
                    };
                    let request = Request::builder()
                        .method(Method::POST)
                        .uri(format!("http://{addr}/users"))
                        .body(Full::new(Bytes::from(body)))
                        .unwrap();
                    let response = client.request(request).await.unwrap();
                    statuses.push(response.status());
                    response.into_body().collect().await.unwrap();
                }
                statuses
            })
        })
        .collect();
    let mut ok = 0;
    let mut bad = 0;
    for client in clients {
        for status in client.await.unwrap() {
            match status {
                StatusCode::OK => ok += 1,
                StatusCode::BAD_REQUEST => bad += 1,
                other => panic!("unexpected status {other}"),
            }
        }
    }
    assert_eq!((ok, bad), (320, 80));
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "took {:?}",
        start.elapsed()
    );
    s.gateway.shutdown().await;
}
