#!/usr/bin/env python3
"""Prints criterion results as a markdown table: median time and throughput per benchmark.

Usage: scripts/criterion_table.py [TARGET_DIR/criterion] [GROUP_PREFIX...]

Reads every `*/new/estimates.json` + `benchmark.json` criterion wrote, and prints one row per
benchmark: group, function, parameter, median time, and median throughput (MB/s for byte
throughput, M elements/s for element throughput), plus the ratio to the fastest row of the group.
"""
import json
import os
import sys


def load(root):
    rows = []
    for dirpath, _dirs, files in os.walk(root):
        if not dirpath.endswith(os.path.join("new")) or "estimates.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        median_ns = est["median"]["point_estimate"]
        tp = bench.get("throughput") or {}
        rate, unit = None, ""
        if "Bytes" in tp or "BytesDecimal" in tp:
            n = tp.get("Bytes", tp.get("BytesDecimal"))
            rate, unit = n / median_ns * 1e9 / 1e6, "MB/s"
        elif "Elements" in tp:
            rate, unit = tp["Elements"] / median_ns * 1e9 / 1e6, "M/s"
        rows.append((bench["group_id"], bench.get("function_id") or "", bench.get("value_str") or "",
                     median_ns, rate, unit))
    return rows


def fmt_time(ns):
    for div, suffix in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if ns >= div:
            return f"{ns / div:.2f} {suffix}"
    return f"{ns:.1f} ns"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
    prefixes = sys.argv[2:]
    rows = [r for r in load(root) if not prefixes or any(r[0].startswith(p) for p in prefixes)]
    rows.sort(key=lambda r: (r[0], r[2], r[1]))
    best = {}
    for g, _f, v, ns, _rate, _u in rows:
        best[(g, v)] = min(best.get((g, v), ns), ns)
    print("| group | input | implementation | median time | throughput | vs fastest |")
    print("|---|---|---|---|---|---|")
    for g, f, v, ns, rate, unit in rows:
        tput = f"{rate:,.0f} {unit}" if rate is not None and rate >= 100 else (
            f"{rate:.2f} {unit}" if rate is not None else "")
        ratio = ns / best[(g, v)]
        print(f"| {g} | {v} | {f} | {fmt_time(ns)} | {tput} | {ratio:.2f}× |")


if __name__ == "__main__":
    main()
