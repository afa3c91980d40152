//! Measures the gateway on loopback: requests per second and latency percentiles through a
//! validating route and a pass-through route (same run, same upstream, same bodies), and the
//! time from a schema file change to the new version serving.
//!
//! `cargo run --release -p jitson-gateway --example loadtest [SECONDS] [CONNECTIONS]`

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use jitson_gateway::echo::Echo;
use jitson_gateway::{Config, Gateway};

const SMALL: &str = r#"{"id": 42, "name": "Ada Lovelace", "email": "ada@example.com", "roles": ["admin", "editor"]}"#;

fn testdata(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("testdata")
        .join(file)
}

/// Drives `connections` clients posting `body` to `path` for `seconds`; returns
/// (requests, latencies sorted).
async fn drive(
    addr: std::net::SocketAddr,
    path: &str,
    body: Bytes,
    seconds: f64,
    connections: usize,
) -> (usize, Vec<Duration>) {
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let (client, body, url) =
                (client.clone(), body.clone(), format!("http://{addr}{path}"));
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let request = Request::builder()
                        .method(Method::POST)
                        .uri(&url)
                        .body(Full::new(body.clone()))
                        .expect("a request");
                    let start = Instant::now();
                    let response = client.request(request).await.expect("a response");
                    assert_eq!(response.status(), StatusCode::OK);
                    response.into_body().collect().await.expect("a body");
                    latencies.push(start.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a client"));
    }
    all.sort();
    (all.len(), all)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(3.0);
    let connections: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    let echo = Echo::start("127.0.0.1:0".parse().unwrap())
        .await
        .expect("echo");
    let dir = std::env::temp_dir().join(format!("jitson-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("example/schemas/user.schema.json"),
        dir.join("user.schema.json"),
    )
    .expect("user schema");
    std::fs::copy(
        testdata("schemas/twitter.schema.json"),
        dir.join("twitter.schema.json"),
    )
    .expect("twitter schema");
    let up = format!("http://{}", echo.addr);
    let config = format!(
        "listen = \"127.0.0.1:0\"\nschema_dir = \".\"\nmax_body_bytes = 4194304\npoll_interval_ms = 50\ndebounce_ms = 50\n\
         [[routes]]\nmethod = \"POST\"\npath = \"/user\"\nupstream = \"{up}\"\nschema = \"user\"\n\
         [[routes]]\nmethod = \"POST\"\npath = \"/twitter\"\nupstream = \"{up}\"\nschema = \"twitter\"\n\
         [[routes]]\nmethod = \"POST\"\npath = \"/pass/*\"\nupstream = \"{up}\"\n"
    );
    let gateway = Gateway::start(Config::parse(&config, &dir).expect("config"))
        .await
        .expect("gateway");
    let addr = gateway.local_addr();
    let twitter = Bytes::from(std::fs::read(testdata("bench/twitter.json")).expect("twitter.json"));
    println!("| body | route | requests/s | p50 | p99 |\n|---|---|---|---|---|");
    for (name, body, checked) in [
        ("user (95 B)", Bytes::from(SMALL), "/user"),
        ("twitter.json (617 KB)", twitter, "/twitter"),
    ] {
        for (route, path) in [("validated", checked), ("pass-through", "/pass/x")] {
            let (count, latencies) = drive(addr, path, body.clone(), seconds, connections).await;
            println!(
                "| {name} | {route} | {:.0} | {:.0?} | {:.0?} |",
                count as f64 / seconds,
                percentile(&latencies, 0.5),
                percentile(&latencies, 0.99)
            );
        }
    }
    let before = gateway.registry().version("user").expect("user").number();
    let start = Instant::now();
    let text = std::fs::read_to_string(dir.join("user.schema.json")).expect("read");
    std::fs::write(
        dir.join("user.schema.json"),
        text.replace("\"maxItems\": 3", "\"maxItems\": 4"),
    )
    .expect("write");
    while gateway.registry().version("user").expect("user").number() == before {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    println!(
        "\nschema file change to new version serving: {:.0?} (poll 50 ms, debounce 50 ms)",
        start.elapsed()
    );
    gateway.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
