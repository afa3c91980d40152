//! The server: accepts connections, routes each request, checks its body, forwards it.

use std::collections::BTreeSet;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioIo};
use jitson::engine::{Backend, Options};
use jitson::registry::watch::{DirectorySource, DirectoryWatch};
use jitson::registry::{Registry, RegistryOptions, Version};
use jitson::schema::Loader;
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::admin;
use crate::config::{Config, Route};
use crate::metrics::{Metrics, Outcome};
use crate::proxy::{self, ForwardError, Upstream};
use crate::reply::{self, Body};

/// What every request handler shares.
pub struct State {
    /// The configuration the gateway started with.
    pub config: Config,
    /// The schemas served.
    pub registry: Arc<Registry>,
    /// The running directory watch (also used by `POST /-/reload`).
    pub watch: DirectoryWatch,
    /// Counters.
    pub metrics: Metrics,
    client: Upstream,
}

/// A running gateway: its address, shared state, and a way to stop it.
pub struct Gateway {
    addr: SocketAddr,
    state: Arc<State>,
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl Gateway {
    /// Loads the schema directory, starts watching it, binds `config.listen` and serves.
    /// Schema files that do not load are reported on stderr and skipped.
    pub async fn start(config: Config) -> io::Result<Gateway> {
        // Validation runs on native code (the interpreter when it cannot be made here).
        let codec =
            (Options::new().backend(Backend::Native)).native_size_limit(config.native_size_limit);
        let registry = Arc::new(Registry::with_options(RegistryOptions::new().codec(codec)));
        let mut loader = Loader::new();
        loader.assert_formats(config.assert_formats);
        for keyword in &config.annotation_keywords {
            loader.annotation_keyword(keyword);
        }
        if let Some(dialect) = &config.dialect {
            loader.default_dialect(dialect);
        }
        let mut source =
            DirectorySource::new(Arc::clone(&registry), &config.schema_dir).loader(loader);
        // A route's schema named by reference serves under that reference.
        let references: BTreeSet<&String> = (config.routes.iter())
            .flat_map(|route| [&route.schema, &route.response_schema])
            .flatten()
            .filter(|name| Route::is_reference(name))
            .collect();
        for reference in references {
            source = source.reference(reference.as_str(), reference);
        }
        source
            .scan()
            .iter()
            .for_each(|e| eprintln!("jitson-gateway: {e}"));
        let watch = source.watch(
            Duration::from_millis(config.poll_interval_ms),
            Duration::from_millis(config.debounce_ms),
            |e| eprintln!("jitson-gateway: {e}"),
        )?;
        let listener = TcpListener::bind(config.listen).await?;
        let addr = listener.local_addr()?;
        let metrics = Metrics::new(
            config
                .routes
                .iter()
                .map(|r| format!("{} {}", r.method, r.path)),
        );
        let state = Arc::new(State {
            config,
            registry,
            watch,
            metrics,
            client: Client::builder(TokioExecutor::new()).build_http(),
        });
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(accept_loop(listener, Arc::clone(&state), stopped));
        Ok(Gateway {
            addr,
            state,
            stop,
            task,
        })
    }

    /// The address it listens on (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The schema registry it serves from.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.state.registry
    }

    /// Its counters.
    pub fn metrics(&self) -> &Metrics {
        &self.state.metrics
    }

    /// Stops accepting connections (requests in flight finish) and waits for the loop.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>, mut stopped: watch::Receiver<bool>) {
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    eprintln!("jitson-gateway: accept failed: {e}");
                    continue;
                }
            },
            _ = stopped.changed() => return,
        };
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let state = Arc::clone(&state);
                async move { Ok::<_, std::convert::Infallible>(handle(&state, request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Routes one request: a gateway endpoint, a configured route, or `404`.
async fn handle(state: &Arc<State>, request: Request<Incoming>) -> Response<Body> {
    let path = request.uri().path().to_string();
    if path.starts_with("/-/") {
        return admin::handle(state, request.method(), &path).await;
    }
    let method = request.method().clone();
    let Some(index) = state
        .config
        .routes
        .iter()
        .position(|r| r.matches(&method, &path))
    else {
        state.metrics.unrouted();
        let extra = json!({ "method": method.as_str(), "path": path });
        return reply::error(StatusCode::NOT_FOUND, "no route", extra);
    };
    let (response, outcome) = serve_route(state, &state.config.routes[index], request).await;
    state.metrics.count(index, outcome);
    response
}

/// Reads the body, checks it against the route's schema, forwards it, checks the answer.
async fn serve_route(
    state: &State,
    route: &Route,
    request: Request<Incoming>,
) -> (Response<Body>, Outcome) {
    let limit = state.config.max_body_bytes;
    let (parts, body) = request.into_parts();
    let body = match proxy::read_limited(body, limit).await {
        Ok(body) => body,
        Err(ForwardError::TooLarge) => {
            let extra = json!({ "limit": limit });
            return (
                reply::error(StatusCode::PAYLOAD_TOO_LARGE, "body too large", extra),
                Outcome::TooLarge,
            );
        }
        Err(ForwardError::Unreachable(detail)) => {
            let extra = json!({ "detail": detail });
            return (
                reply::error(StatusCode::BAD_REQUEST, "unreadable body", extra),
                Outcome::InvalidBody,
            );
        }
    };
    let body = match &route.schema {
        Some(schema) => match check(state, schema, route, body) {
            Ok(body) => body,
            Err(refusal) => return *refusal,
        },
        None => body,
    };
    let response = match proxy::forward(&state.client, route, &parts, body, limit).await {
        Ok(response) => response,
        Err(e) => {
            let detail = match e {
                ForwardError::TooLarge => format!("upstream body larger than {limit} bytes"),
                ForwardError::Unreachable(detail) => detail,
            };
            let reply = reply::error(
                StatusCode::BAD_GATEWAY,
                "upstream failed",
                json!({ "detail": detail }),
            );
            return (reply, Outcome::UpstreamError);
        }
    };
    if let Some(schema) = &route.response_schema
        && let Err(refusal) = check_response(state, schema, response.body())
    {
        return (refusal.0, Outcome::InvalidResponse);
    }
    (response.map(http_body_util::Full::new), Outcome::Forwarded)
}

/// What a failed check answers: the response and the outcome to count.
type Refusal = Box<(Response<Body>, Outcome)>;

/// Checks a request body against the version of `schema` serving now and, when the route
/// transcodes, rewrites it: the body to forward, or the refusal (`400` with the error's path
/// and position, or `503` when the schema is not loaded).
fn check(state: &State, schema: &str, route: &Route, body: Bytes) -> Result<Bytes, Refusal> {
    let version = serving(state, schema)?;
    let result = match &route.transcode {
        None => version.validate(&body).map(|()| body),
        Some(options) => {
            let mut out = Vec::with_capacity(body.len());
            let result = version.codec().transcode(&body, options, &mut out);
            version.record(result.is_ok());
            result.map(|()| Bytes::from(out))
        }
    };
    result.map_err(|e| {
        refusal(
            schema,
            version.number(),
            &e,
            StatusCode::BAD_REQUEST,
            "invalid body",
        )
    })
}

/// Checks an upstream response body against the version of `schema` serving now.
fn check_response(state: &State, schema: &str, body: &Bytes) -> Result<(), Refusal> {
    let version = serving(state, schema)?;
    version.validate(body).map_err(|e| {
        refusal(
            schema,
            version.number(),
            &e,
            StatusCode::BAD_GATEWAY,
            "invalid upstream response",
        )
    })
}

/// The version serving `schema`, or the `503` refusal.
fn serving(state: &State, schema: &str) -> Result<Arc<Version>, Refusal> {
    state.registry.version(schema).ok_or_else(|| {
        let extra = json!({ "schema": schema });
        let reply = reply::error(StatusCode::SERVICE_UNAVAILABLE, "schema not loaded", extra);
        Box::new((reply, Outcome::NoSchema))
    })
}

fn refusal(
    schema: &str,
    version: u64,
    e: &jitson::Error,
    status: StatusCode,
    message: &str,
) -> Refusal {
    let detail = reply::invalid_document(schema, version, e);
    Box::new((reply::error(status, message, detail), Outcome::InvalidBody))
}
