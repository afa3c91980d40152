//! Forwarding a checked request to its upstream and bringing the answer back.

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_LENGTH, HOST, HeaderMap, HeaderName, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Request, Response, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;

use crate::config::Route;
use crate::reply::Body;

/// The HTTP client the gateway forwards with (pooled keep-alive connections).
pub type Upstream = Client<HttpConnector, Body>;

/// Why forwarding failed.
#[derive(Debug)]
pub enum ForwardError {
    /// The upstream could not be reached or broke the exchange.
    Unreachable(String),
    /// The upstream's body was larger than the limit.
    TooLarge,
}

/// Headers that describe one connection, not the message: never forwarded.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Sends `body` (exactly these bytes) to the route's upstream with the request's method,
/// path, query and end-to-end headers; returns the upstream's status, headers and body
/// (read whole, at most `limit` bytes).
pub async fn forward(
    client: &Upstream,
    route: &Route,
    parts: &Parts,
    body: Bytes,
    limit: usize,
) -> Result<Response<Bytes>, ForwardError> {
    let uri = upstream_uri(&route.upstream, &parts.uri)?;
    let mut request = Request::builder()
        .method(parts.method.clone())
        .uri(uri)
        .body(Full::new(body))
        .map_err(|e| ForwardError::Unreachable(e.to_string()))?;
    copy_end_to_end(&parts.headers, request.headers_mut());
    if let Some(authority) = route.upstream.authority()
        && let Ok(host) = HeaderValue::from_str(authority.as_str())
    {
        request.headers_mut().insert(HOST, host);
    }
    let response = client
        .request(request)
        .await
        .map_err(|e| ForwardError::Unreachable(e.to_string()))?;
    let (parts, body) = response.into_parts();
    let body = read_limited(body, limit).await?;
    let mut response = Response::from_parts(parts, body);
    strip_hop_by_hop(response.headers_mut());
    Ok(response)
}

/// Reads a whole body of at most `limit` bytes.
pub async fn read_limited(body: Incoming, limit: usize) -> Result<Bytes, ForwardError> {
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(ForwardError::TooLarge),
        Err(e) => Err(ForwardError::Unreachable(e.to_string())),
    }
}

/// The upstream's scheme and authority with the request's path and query.
fn upstream_uri(upstream: &Uri, request: &Uri) -> Result<Uri, ForwardError> {
    let path_and_query = request.path_and_query().map_or("/", |p| p.as_str());
    let mut parts = upstream.clone().into_parts();
    parts.path_and_query = Some(
        path_and_query
            .parse()
            .map_err(|e: hyper::http::uri::InvalidUri| ForwardError::Unreachable(e.to_string()))?,
    );
    Uri::from_parts(parts).map_err(|e| ForwardError::Unreachable(e.to_string()))
}

/// Copies the end-to-end headers except `Host` (set for the upstream) and `Content-Length`
/// (hyper sets it from the body forwarded, which a transcoding route rewrites).
fn copy_end_to_end(from: &HeaderMap, to: &mut HeaderMap) {
    for (name, value) in from {
        if !is_hop_by_hop(name) && name != HOST && name != CONTENT_LENGTH {
            to.append(name.clone(), value.clone());
        }
    }
}

fn strip_hop_by_hop(headers: &mut HeaderMap) {
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
}

fn is_hop_by_hop(name: &HeaderName) -> bool {
    HOP_BY_HOP.contains(&name.as_str())
}
