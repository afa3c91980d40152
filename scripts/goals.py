#!/usr/bin/env python3
"""Runs the engine and typed benches several times and prints each speed goal of issues #4
and #5 as the median of its per-round ratios, with the range over the rounds.

Shared machines move every timing by tens of percent between minutes; a ratio taken within
one round (jitson and its peer measured minutes apart at most) and then the median over
rounds is what the project quotes.

Usage:
  cargo bench --bench engine --bench typed --no-run     # prints the two executables
  scripts/goals.py --engine target/release/deps/engine-HASH \\
                   --typed target/release/deps/typed-HASH [--rounds 3] [--seconds 2]

Each round runs only the benchmarks the goals use (criterion `--warm-up-time 1
--measurement-time SECONDS`) and reads the median of each from criterion's output.

The issues compare jitson's default build with its peers' best build: with `--peer-engine` and
`--peer-typed` (the same benches built with `RUSTFLAGS="-C target-cpu=native"
CARGO_TARGET_DIR=target-native`), each round times jitson's rows with the first pair of
executables and the peers' rows with the second.
"""
import argparse
import re
import statistics
import subprocess
import sys

DOCS = ["twitter", "citm_catalog", "canada", "book"]

# (goal label, numerator bench, denominator bench, threshold): ratio = numerator's median
# time / denominator's, so above 1 means jitson (the denominator) is faster.
ENGINE_GOALS = [
    ("validate x serde_json+jsonschema (>= 10)", "{d}/serde_json_value+jsonschema", "{d}/jitson_native_validate", 10),
    ("validate x sonic-rs Value (>= 1.5)", "{d}/sonic_rs_value", "{d}/jitson_native_validate", 1.5),
    ("decode x sonic-rs Value (>= 2)", "{d}/decode/sonic_rs_value", "{d}/decode/jitson_native_decode", 2),
    ("encode x sonic-rs to_vec (>= 1.5)", "{d}/encode/sonic_rs_value_to_vec", "{d}/encode/jitson_native_encode", 1.5),
    ("transcode, rewritten (>= 10)", "{d}/transcode/serde_json_value+jsonschema_round_trip", "{d}/transcode/jitson_native_transcode", 10),
    ("transcode, verbatim (>= 10)", "{d}/transcode/serde_json_value+jsonschema_round_trip", "{d}/transcode/jitson_native_transcode_verbatim", 10),
    ("validate x interpreter (>= 3)", "{d}/jitson_interp_validate", "{d}/jitson_native_validate", 3),
    ("decode x interpreter (>= 3)", "{d}/decode/jitson_interp_decode", "{d}/decode/jitson_native_decode", 3),
    ("transcode x interpreter (>= 3)", "{d}/transcode/jitson_interp_transcode", "{d}/transcode/jitson_native_transcode", 3),
    ("transcode verbatim x interpreter (>= 3)", "{d}/transcode/jitson_interp_transcode_verbatim", "{d}/transcode/jitson_native_transcode_verbatim", 3),
]
# Not goals of the issues: validate and decode against sonic-rs on minified copies of the
# pretty-printed documents (the engine bench's `DOC_minified` groups), where whitespace, which
# jitson skips cheaply, no longer weighs in its favour.
MINIFIED_DOCS = ["twitter", "citm_catalog"]
MINIFIED_ROWS = [
    ("minified copy: validate x sonic-rs Value (not a goal)", "{d}_minified/sonic_rs_value", "{d}_minified/jitson_native_validate"),
    ("minified copy: decode x sonic-rs Value (not a goal)", "{d}_minified/sonic_rs_value", "{d}_minified/jitson_native_decode"),
]
TYPED_PEERS = ["serde_json", "sonic_rs", "simd_json"]
TYPED_GOALS = [
    ("typed decode x fastest peer (>= 1.3; book > 1)", "{d}/typed_decode/{p}", "{d}/typed_decode/jitson_one_pass", 1.3),
    ("typed encode x fastest peer (>= 1.3)", "{d}/typed_encode/{p}", "{d}/typed_encode/jitson", 1.3),
]
ABSOLUTE = [
    ("compile, validate tier (ms; twitter < 10, book < 1)", "native_compile/{d}", 1e-3),
    ("compile, both tiers (ms)", "native_compile/{d}+decode", 1e-3),
    ("register a type, one-pass (us; book < 2000)", "typed_register/{d}/one_pass", 1),
]

UNIT = {"ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def medians(output):
    """Criterion's median time per benchmark id, in microseconds."""
    found, name = {}, None
    for line in output.splitlines():
        head = re.match(r"^(\S+/\S+)", line)
        if head:
            name = head.group(1)
        t = re.search(r"time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if t and name:
            found[name] = float(t.group(1)) * UNIT[t.group(2)]
            name = None
    return found


def run(binary, pattern, seconds):
    args = [binary, "--bench", "--warm-up-time", "1", "--measurement-time", str(seconds),
            "--noplot", pattern]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    return medians(done.stdout)


def is_peer(name):
    """Whether a benchmark id times a peer (serde_json, sonic-rs, simd-json, jsonschema)."""
    group, _, last = name.rpartition("/")
    return not last.startswith("jitson") and not group.startswith(("native_compile", "typed_register"))


def pattern(names):
    """A criterion filter matching exactly the benchmark ids in `names`."""
    return "^(" + "|".join(sorted(re.escape(n) for n in names)) + ")$"


def engine_names():
    names = set()
    for _, num, den, _ in ENGINE_GOALS:
        for d in DOCS:
            names.update([num.format(d=d), den.format(d=d)])
    for _, num, den in MINIFIED_ROWS:
        for d in MINIFIED_DOCS:
            names.update([num.format(d=d), den.format(d=d)])
    names.update(f"native_compile/{d}" for d in DOCS)
    names.update(f"native_compile/{d}+decode" for d in DOCS)
    return names


def typed_names():
    names = set()
    for _, num, den, _ in TYPED_GOALS:
        for d in DOCS:
            names.add(den.format(d=d))
            names.update(num.format(d=d, p=p) for p in TYPED_PEERS)
    names.update(f"typed_register/{d}/one_pass" for d in DOCS)
    return names


def summary(values, threshold=None):
    if not values:
        return "-"
    mid = statistics.median(values)
    text = f"{mid:.2f}" if len(values) == 1 else f"{mid:.2f} ({min(values):.2f}-{max(values):.2f})"
    if threshold is not None:
        text += " ok" if mid >= threshold else " MISS"
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the engine bench executable")
    parser.add_argument("--typed", required=True, help="the typed bench executable")
    parser.add_argument("--peer-engine", help="the engine bench built for this CPU: its peer rows")
    parser.add_argument("--peer-typed", help="the typed bench built for this CPU: its peer rows")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2)
    args = parser.parse_args()
    rounds = []
    for r in range(args.rounds):
        print(f"round {r + 1} of {args.rounds} ...", file=sys.stderr)
        found = {}
        for own, peer, names in [(args.engine, args.peer_engine, engine_names()),
                                 (args.typed, args.peer_typed, typed_names())]:
            if peer is None:
                found.update(run(own, pattern(names), args.seconds))
            else:
                found.update(run(own, pattern(n for n in names if not is_peer(n)), args.seconds))
                found.update(run(peer, pattern(n for n in names if is_peer(n)), args.seconds))
        rounds.append(found)

    def ratios(num, den):
        return [r[num] / r[den] for r in rounds if num in r and den in r]

    print("| goal | " + " | ".join(DOCS) + " |")
    print("|---|" + "---|" * len(DOCS))
    for label, num, den, threshold in ENGINE_GOALS:
        cells = [summary(ratios(num.format(d=d), den.format(d=d)), threshold) for d in DOCS]
        print(f"| {label} | " + " | ".join(cells) + " |")
    for label, num, den, threshold in TYPED_GOALS:
        cells = []
        for d in DOCS:
            fastest = [min(r[num.format(d=d, p=p)] for p in TYPED_PEERS) / r[den.format(d=d)]
                       for r in rounds
                       if den.format(d=d) in r and all(num.format(d=d, p=p) in r for p in TYPED_PEERS)]
            # Book's decode goal is a latency below every peer's.
            cells.append(summary(fastest, 1.0 if d == "book" and "decode" in num else threshold))
        print(f"| {label} | " + " | ".join(cells) + " |")
    for label, name, scale in ABSOLUTE:
        cells = [summary([r[name.format(d=d)] * scale for r in rounds if name.format(d=d) in r])
                 for d in DOCS]
        print(f"| {label} | " + " | ".join(cells) + " |")
    for label, num, den in MINIFIED_ROWS:
        cells = [summary(ratios(num.format(d=d), den.format(d=d))) if d in MINIFIED_DOCS else "-"
                 for d in DOCS]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
