//! A tiny echo upstream, for the README example, the end-to-end tests and the load
//! measurement: it answers every request with `200`, the request's body, and the headers
//! `x-echo-method` and `x-echo-path`.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::HeaderValue;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A running echo server.
pub struct Echo {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Requests answered so far.
    pub requests: Arc<AtomicU64>,
    task: JoinHandle<()>,
}

impl Echo {
    /// Binds `addr` (port 0 for any) and serves until dropped.
    pub async fn start(addr: SocketAddr) -> io::Result<Echo> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        counter.fetch_add(1, Ordering::Relaxed);
                        echo(request)
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Echo {
            addr,
            requests,
            task,
        })
    }
}

impl Drop for Echo {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn echo(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, hyper::Error> {
    let method = request.method().to_string();
    let path = request.uri().path().to_string();
    let body = request.into_body().collect().await?.to_bytes();
    let mut response = Response::new(Full::new(body));
    let headers = response.headers_mut();
    for (name, value) in [("x-echo-method", method), ("x-echo-path", path)] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    Ok(response)
}
