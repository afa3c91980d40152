//! The smoke run: every fuzz body over the seed corpus (fuzz/seeds, testdata/jsontestsuite)
//! and a few thousand deterministic pseudo-random inputs: seeds mutated with bytes and tokens
//! from fuzz/json.dict, and for `schema_gen` random byte strings. A disagreement panics with
//! the input in the message.

use std::path::{Path, PathBuf};

use crate::bodies;
use crate::rng::Rng;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of a directory, sorted by name.
fn files(dir: &Path) -> Vec<Vec<u8>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("seed file"))
        .collect()
}

/// The JSON seeds: fuzz/seeds/json and JSONTestSuite.
fn json_seeds() -> Vec<Vec<u8>> {
    let mut seeds = files(&root().join("fuzz/seeds/json"));
    seeds.extend(files(&root().join("testdata/jsontestsuite")));
    seeds
}

/// The tokens of fuzz/json.dict (quoted, with `\\`, `\"` and `\xNN` escapes).
fn dictionary() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(root().join("fuzz/json.dict")).expect("fuzz/json.dict");
    let tokens: Vec<Vec<u8>> = text
        .lines()
        .filter_map(|line| line.strip_prefix('"')?.strip_suffix('"'))
        .map(|quoted| unescape_token(quoted.as_bytes()))
        .collect();
    assert!(tokens.len() > 40, "{} dictionary tokens", tokens.len());
    tokens
}

/// One dictionary token's bytes.
fn unescape_token(quoted: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = quoted.get(i) {
        match (b, quoted.get(i + 1)) {
            (b'\\', Some(b'x')) => {
                let hex = std::str::from_utf8(&quoted[i + 2..i + 4]).expect("hex digits");
                out.push(u8::from_str_radix(hex, 16).expect("hex escape"));
                i += 4;
            }
            (b'\\', Some(&next)) => {
                out.push(next);
                i += 2;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// `seed` with one to four random edits: a byte or dictionary token replaced or inserted,
/// a run deleted or duplicated, or the tail cut off.
fn mutate(rng: &mut Rng, seed: &[u8], dict: &[Vec<u8>]) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        let end = (at + 1 + rng.below(8)).min(out.len());
        match rng.below(6) {
            0 if at < out.len() => out[at] = rng.next_u64() as u8,
            1 => out.insert(at, rng.next_u64() as u8),
            2 => {
                let token = &dict[rng.below(dict.len())];
                out.splice(at..end.max(at), token.iter().copied());
            }
            3 => {
                let token = &dict[rng.below(dict.len())];
                out.splice(at..at, token.iter().copied());
            }
            4 => {
                out.drain(at..end.max(at));
            }
            _ => {
                let run = out[at..end.max(at)].to_vec();
                out.splice(at..at, run);
            }
        }
    }
    out
}

/// Runs `body` on every seed and on `mutations` mutated seeds (seeded by `seed`).
fn drive(body: fn(&[u8]), seeds: &[Vec<u8>], mutations: usize, seed: u64) {
    for input in seeds {
        body(input);
    }
    let dict = dictionary();
    let mut rng = Rng::new(seed);
    for _ in 0..mutations {
        let source = &seeds[rng.below(seeds.len())];
        body(&mutate(&mut rng, source, &dict));
    }
}

/// Mutations per JSON target (the kernels body, which runs every kernel at many offsets,
/// gets fewer): the whole file stays within about ten seconds.
const MUTATIONS: usize = if cfg!(miri) { 2 } else { 10_000 };
const KERNEL_MUTATIONS: usize = if cfg!(miri) { 2 } else { 3000 };

#[test]
fn every_body_runs_on_the_seeds() {
    let seeds = files(&root().join("fuzz/seeds/json"));
    for (name, body) in bodies::TARGETS {
        for input in &seeds {
            body(input);
        }
        body(b"");
        eprintln!("{name}: {} seeds", seeds.len());
    }
}

#[test]
fn kernels_body() {
    drive(
        bodies::kernels::run,
        &json_seeds(),
        KERNEL_MUTATIONS,
        0x6b65_726e,
    );
}

#[test]
fn parse_body() {
    drive(bodies::parse::run, &json_seeds(), MUTATIONS, 0x7061_7273);
}

#[test]
fn roundtrip_body() {
    drive(
        bodies::roundtrip::run,
        &json_seeds(),
        MUTATIONS,
        0x726f_756e,
    );
}

#[test]
fn schema_validate_body() {
    drive(
        bodies::schema_validate::run,
        &json_seeds(),
        MUTATIONS,
        0x7363_6865,
    );
}

#[test]
fn schema_decode_body() {
    drive(
        bodies::schema_decode::run,
        &json_seeds(),
        MUTATIONS / 4,
        0x6465_636f,
    );
}

#[test]
fn schema_gen_body() {
    let mut rng = Rng::new(0x6765_6e73);
    for _ in 0..if cfg!(miri) { 2 } else { 4000 } {
        let len = rng.below(600);
        let input: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        bodies::schema_gen::run(&input);
    }
}

#[test]
fn yaml_body() {
    let mut seeds = files(&root().join("fuzz/seeds/yaml"));
    seeds.extend(json_seeds());
    drive(bodies::yaml::run, &seeds, MUTATIONS, 0x7961_6d6c);
}

#[test]
fn typed_body() {
    let mut seeds = files(&root().join("fuzz/seeds/typed"));
    // The typed seeds fit their types: the body compares decoded values, not just errors.
    let fits = |seed: &Vec<u8>| {
        jitson::from_slice::<bodies::typed::Message>(seed).is_ok()
            || jitson::from_slice::<bodies::typed::Envelope>(seed).is_ok()
            || jitson::from_slice::<Vec<bodies::typed::Either>>(seed).is_ok()
    };
    assert!(seeds.iter().all(fits));
    seeds.extend(files(&root().join("fuzz/seeds/json")));
    drive(bodies::typed::run, &seeds, MUTATIONS / 4, 0x7479_7065);
}
