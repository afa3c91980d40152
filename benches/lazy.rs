//! Lazy access by path over raw JSON (`jitson::lazy`) against sonic-rs's lazy getters and
//! serde_json's parse-everything route, on twitter.json, in the same run.
//!
//! Throughput is the whole document's size per second in every group, so rows compare
//! directly (a get reads only a prefix of it).
//!
//! - `lazy_get`: `statuses[50].user.screen_name`, checked (validating what is skipped) against
//!   `sonic_rs::get`, unchecked against `sonic_rs::get_unchecked`.
//! - `lazy_get_many`: ten paths spread over the document (shared prefixes included): one
//!   `get_many` traversal against ten separate gets, ten gets through one `lazy::Document`
//!   (the node cache), `sonic_rs::get_many` and ten `sonic_rs::get`s.
//! - `lazy_set`: replace `statuses[50].user.screen_name`; serde_json parses, modifies and
//!   writes the whole document.
//!
//! Peers are measured in their best build:
//!
//! ```sh
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target-native \
//!     cargo bench --bench lazy -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jitson::lazy::{self, Mode, Options, Pointer};

const TARGET: &str = "/statuses/50/user/screen_name";

const MANY: [&str; 10] = [
    "/statuses/0/id_str",
    "/statuses/0/user/screen_name",
    "/statuses/10/user/followers_count",
    "/statuses/25/text",
    "/statuses/50/user/screen_name",
    "/statuses/50/user/id",
    "/statuses/75/retweet_count",
    "/statuses/99/id",
    "/search_metadata/count",
    "/search_metadata/max_id_str",
];

fn twitter() -> Vec<u8> {
    let path = format!("{}/testdata/bench/twitter.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The same path for sonic-rs: numeric tokens as indices.
fn sonic_path(pointer: &str) -> Vec<sonic_rs::PointerNode> {
    pointer
        .split('/')
        .skip(1)
        .map(|token| match token.parse::<usize>() {
            Ok(index) => sonic_rs::PointerNode::from(index),
            Err(_) => sonic_rs::PointerNode::from(token),
        })
        .collect()
}

fn get(c: &mut Criterion) {
    let input = twitter();
    let pointer = Pointer::parse(TARGET).unwrap();
    let sonic = sonic_path(TARGET);
    let unchecked = Options::new().mode(Mode::Unchecked);
    let expected = br#""IwiAlohomora""#;
    assert_eq!(
        lazy::get(&input, &pointer).unwrap().unwrap().raw(),
        expected
    );
    assert_eq!(
        sonic_rs::get(&input[..], &sonic)
            .unwrap()
            .as_raw_str()
            .as_bytes(),
        expected
    );

    let mut group = c.benchmark_group("lazy_get/twitter");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("jitson_checked", |b| {
        b.iter(|| black_box(lazy::get(black_box(&input), &pointer).unwrap()))
    });
    group.bench_function("sonic_rs_get", |b| {
        b.iter(|| black_box(sonic_rs::get(black_box(&input[..]), &sonic).unwrap()))
    });
    group.bench_function("jitson_unchecked", |b| {
        b.iter(|| black_box(unchecked.get(black_box(&input), &pointer).unwrap()))
    });
    group.bench_function("sonic_rs_get_unchecked", |b| {
        b.iter(|| {
            // SAFETY: twitter.json is valid JSON.
            black_box(unsafe { sonic_rs::get_unchecked(black_box(&input[..]), &sonic) }.unwrap())
        })
    });
    group.finish();
}

fn get_many(c: &mut Criterion) {
    let input = twitter();
    let pointers: Vec<Pointer<'_>> = MANY.iter().map(|p| Pointer::parse(p).unwrap()).collect();
    let sonic: Vec<_> = MANY.iter().map(|p| sonic_path(p)).collect();
    let mut tree = sonic_rs::PointerTree::new();
    for path in &sonic {
        tree.add_path(path);
    }
    let ours = lazy::get_many(&input, &pointers).unwrap();
    let theirs = sonic_rs::get_many(&input[..], &tree).unwrap();
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(
            a.unwrap().raw(),
            b.as_ref().unwrap().as_raw_str().as_bytes()
        );
    }
    let unchecked = Options::new().mode(Mode::Unchecked);

    let mut group = c.benchmark_group("lazy_get_many/twitter");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("jitson_get_many", |b| {
        b.iter(|| black_box(lazy::get_many(black_box(&input), &pointers).unwrap()))
    });
    group.bench_function("jitson_10x_get", |b| {
        b.iter(|| {
            for pointer in &pointers {
                black_box(lazy::get(black_box(&input), pointer).unwrap());
            }
        })
    });
    group.bench_function("jitson_10x_get_node_cache", |b| {
        b.iter(|| {
            let mut doc = lazy::Document::new(black_box(&input));
            for pointer in &pointers {
                black_box(doc.get(pointer).unwrap());
            }
        })
    });
    group.bench_function("sonic_rs_get_many", |b| {
        b.iter(|| black_box(sonic_rs::get_many(black_box(&input[..]), &tree).unwrap()))
    });
    group.bench_function("sonic_rs_10x_get", |b| {
        b.iter(|| {
            for path in &sonic {
                black_box(sonic_rs::get(black_box(&input[..]), path).unwrap());
            }
        })
    });
    group.bench_function("jitson_get_many_unchecked", |b| {
        b.iter(|| black_box(unchecked.get_many(black_box(&input), &pointers).unwrap()))
    });
    group.bench_function("sonic_rs_get_many_unchecked", |b| {
        b.iter(|| {
            // SAFETY: twitter.json is valid JSON.
            black_box(
                unsafe { sonic_rs::get_many_unchecked(black_box(&input[..]), &tree) }.unwrap(),
            )
        })
    });
    group.finish();
}

fn set(c: &mut Criterion) {
    let input = twitter();
    let pointer = Pointer::parse(TARGET).unwrap();
    let new = br#""renamed""#;
    let mut group = c.benchmark_group("lazy_set/twitter");
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.bench_function("jitson_set", |b| {
        b.iter(|| black_box(lazy::set(black_box(&input), &pointer, new).unwrap()))
    });
    group.bench_function("serde_json_parse_modify_to_vec", |b| {
        b.iter(|| {
            let mut doc: serde_json::Value = serde_json::from_slice(black_box(&input)).unwrap();
            *doc.pointer_mut(TARGET).unwrap() = serde_json::Value::from("renamed");
            black_box(serde_json::to_vec(&doc).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, get, get_many, set);
criterion_main!(benches);
