//! Counters of the gateway and their Prometheus text rendering (`GET /-/metrics`).

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use jitson::registry::{Registry, Stats, Version};

/// What happened to one request on a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Forwarded, and the upstream's answer returned.
    Forwarded,
    /// The body broke the route's schema (`400`).
    InvalidBody,
    /// The body was larger than `max_body_bytes` (`413`).
    TooLarge,
    /// The route's schema is not loaded (`503`).
    NoSchema,
    /// The upstream could not be reached or its body not read (`502`).
    UpstreamError,
    /// The upstream's body broke the route's response schema (`502`).
    InvalidResponse,
}

impl Outcome {
    const ALL: [Outcome; 6] = [
        Outcome::Forwarded,
        Outcome::InvalidBody,
        Outcome::TooLarge,
        Outcome::NoSchema,
        Outcome::UpstreamError,
        Outcome::InvalidResponse,
    ];

    fn label(self) -> &'static str {
        match self {
            Outcome::Forwarded => "forwarded",
            Outcome::InvalidBody => "invalid_body",
            Outcome::TooLarge => "too_large",
            Outcome::NoSchema => "no_schema",
            Outcome::UpstreamError => "upstream_error",
            Outcome::InvalidResponse => "invalid_response",
        }
    }
}

/// Per-route outcome counters, plus requests that matched no route and reloads.
#[derive(Debug)]
pub struct Metrics {
    routes: Vec<(String, [AtomicU64; 6])>,
    unrouted: AtomicU64,
    reloads: AtomicU64,
}

impl Metrics {
    /// Counters for routes named `names` (by index).
    pub fn new(names: impl IntoIterator<Item = String>) -> Metrics {
        Metrics {
            routes: names
                .into_iter()
                .map(|name| (name, Default::default()))
                .collect(),
            unrouted: AtomicU64::new(0),
            reloads: AtomicU64::new(0),
        }
    }

    /// Counts one request on route `route`.
    pub fn count(&self, route: usize, outcome: Outcome) {
        let i = Outcome::ALL.iter().position(|&o| o == outcome).unwrap_or(0);
        self.routes[route].1[i].fetch_add(1, Relaxed);
    }

    /// The count of `outcome` on route `route`.
    pub fn get(&self, route: usize, outcome: Outcome) -> u64 {
        let i = Outcome::ALL.iter().position(|&o| o == outcome).unwrap_or(0);
        self.routes[route].1[i].load(Relaxed)
    }

    /// Counts a request no route served.
    pub fn unrouted(&self) {
        self.unrouted.fetch_add(1, Relaxed);
    }

    /// Counts a `POST /-/reload`.
    pub fn reloaded(&self) {
        self.reloads.fetch_add(1, Relaxed);
    }

    /// All counters, and the registry's per-schema ones, in the Prometheus text format.
    pub fn render(&self, registry: &Registry) -> String {
        let mut out = String::new();
        header(
            &mut out,
            "jitson_gateway_requests_total",
            "counter",
            "Requests by route and outcome.",
        );
        for (name, counts) in &self.routes {
            for (outcome, count) in Outcome::ALL.iter().zip(counts) {
                let labels = format!("route=\"{}\",outcome=\"{}\"", escape(name), outcome.label());
                sample(
                    &mut out,
                    "jitson_gateway_requests_total",
                    &labels,
                    count.load(Relaxed),
                );
            }
        }
        header(
            &mut out,
            "jitson_gateway_unrouted_total",
            "counter",
            "Requests no route served.",
        );
        sample(
            &mut out,
            "jitson_gateway_unrouted_total",
            "",
            self.unrouted.load(Relaxed),
        );
        header(
            &mut out,
            "jitson_gateway_reloads_total",
            "counter",
            "Reloads asked through /-/reload.",
        );
        sample(
            &mut out,
            "jitson_gateway_reloads_total",
            "",
            self.reloads.load(Relaxed),
        );
        render_schemas(&mut out, registry);
        out
    }
}

/// How one per-schema series reads its value.
type SchemaValue = fn(&Stats, &Version) -> String;

fn render_schemas(out: &mut String, registry: &Registry) {
    let names = registry.names();
    let series: [(&str, &str, &str, SchemaValue); 6] = [
        (
            "jitson_schema_version",
            "gauge",
            "The version serving each schema.",
            |_, v| v.number().to_string(),
        ),
        (
            "jitson_schema_compiles_total",
            "counter",
            "Schemas compiled.",
            |s, _| s.compiles.to_string(),
        ),
        (
            "jitson_schema_compile_seconds_total",
            "counter",
            "Time spent compiling.",
            |s, _| s.compile_time.as_secs_f64().to_string(),
        ),
        (
            "jitson_schema_rejected_total",
            "counter",
            "Publishes refused.",
            |s, _| s.rejected.to_string(),
        ),
        (
            "jitson_schema_documents_total",
            "counter",
            "Documents checked.",
            |s, _| s.documents.to_string(),
        ),
        (
            "jitson_schema_failures_total",
            "counter",
            "Documents that failed.",
            |s, _| s.failures.to_string(),
        ),
    ];
    for (metric, kind, help, value) in series {
        header(out, metric, kind, help);
        for name in &names {
            if let (Some(stats), Some(version)) = (registry.stats(name), registry.version(name)) {
                let value = value(&stats, &version);
                let _ = writeln!(out, "{metric}{{schema=\"{}\"}} {value}", escape(name));
            }
        }
    }
}

fn header(out: &mut String, metric: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {metric} {help}\n# TYPE {metric} {kind}");
}

fn sample(out: &mut String, metric: &str, labels: &str, value: u64) {
    let _ = match labels.is_empty() {
        true => writeln!(out, "{metric} {value}"),
        false => writeln!(out, "{metric}{{{labels}}} {value}"),
    };
}

/// A label value escaped per the text format (`\`, `"` and newlines).
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_and_schema_series() {
        let metrics = Metrics::new(["POST /a\"b".to_string()]);
        metrics.count(0, Outcome::InvalidBody);
        metrics.count(0, Outcome::InvalidBody);
        metrics.unrouted();
        let registry = Registry::new();
        registry.publish_json("user", "{}").unwrap();
        let text = metrics.render(&registry);
        assert!(text.contains(
            "jitson_gateway_requests_total{route=\"POST /a\\\"b\",outcome=\"invalid_body\"} 2\n"
        ));
        assert!(text.contains("jitson_gateway_unrouted_total 1\n"));
        assert!(text.contains(
            "# TYPE jitson_schema_version gauge\njitson_schema_version{schema=\"user\"} 1\n"
        ));
        assert!(text.contains("jitson_schema_compiles_total{schema=\"user\"} 1\n"));
        assert_eq!(metrics.get(0, Outcome::InvalidBody), 2);
    }
}
