//! The gateway's own endpoints under `/-/`: schemas, metrics, reload.

use std::sync::Arc;

use hyper::{Method, Response, StatusCode};
use serde_json::json;

use crate::reply::{self, Body};
use crate::server::State;

/// Answers `method path` for a path under `/-/`.
pub async fn handle(state: &Arc<State>, method: &Method, path: &str) -> Response<Body> {
    match (method, path) {
        (&Method::GET, "/-/schemas") => schemas(state),
        (&Method::GET, "/-/metrics") => {
            let text = state.metrics.render(&state.registry);
            reply::with_type(
                StatusCode::OK,
                text.into_bytes(),
                "text/plain; version=0.0.4",
            )
        }
        (&Method::POST, "/-/reload") => reload(state).await,
        _ => reply::error(
            StatusCode::NOT_FOUND,
            "no such gateway endpoint",
            json!({ "path": path }),
        ),
    }
}

/// `GET /-/schemas`: every schema served, its version, key, what its codec runs on, and
/// kept versions.
fn schemas(state: &State) -> Response<Body> {
    let registry = &state.registry;
    let list: Vec<_> = registry
        .names()
        .iter()
        .filter_map(|name| {
            let version = registry.version(name)?;
            let kept: Vec<u64> = registry
                .versions(name)
                .ok()?
                .iter()
                .map(|v| v.number)
                .collect();
            Some(json!({
                "name": name,
                "version": version.number(),
                "key": version.key().to_string(),
                "compile_micros": version.compile_time().as_micros() as u64,
                "backend": version.codec().backend().to_string(),
                "versions": kept,
            }))
        })
        .collect();
    reply::json(StatusCode::OK, &json!({ "schemas": list }))
}

/// `POST /-/reload`: rescans the schema directory now; answers what changed.
async fn reload(state: &Arc<State>) -> Response<Body> {
    state.metrics.reloaded();
    let scan = {
        let state = Arc::clone(state);
        tokio::task::spawn_blocking(move || state.watch.reload())
    };
    match scan.await {
        Ok(events) => {
            let events: Vec<String> = events.iter().map(|e| e.to_string()).collect();
            reply::json(StatusCode::OK, &json!({ "events": events }))
        }
        Err(e) => reply::error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "reload failed",
            json!({ "detail": e.to_string() }),
        ),
    }
}
