#!/usr/bin/env python3
"""Writes testdata/dynamic-ref/cases.json: random schemas whose `$dynamicRef`s resolve by
dynamic scope, random instances, and python-jsonschema's verdict on each instance.

`tests/dynamic_ref_cases.rs` checks jitson's reference validator, interpreter and native code
against these verdicts. python-jsonschema (with `referencing`) is the oracle because it
follows the evaluation path for the dynamic scope through every kind of reference; the Rust
`jsonschema` crate 0.61 loses the scope after a `$dynamicRef` lands in another resource
(a case here shows it). No `$ref` in these schemas names an anchor: `referencing` resolves
a `$ref` to a `$dynamicAnchor` by dynamic scope too, where the specification resolves every
`$ref` statically (jitson does; see `tests/schema_loader.rs`).

Usage (python-jsonschema 4.26.0, as the committed file was made):
  pip install jsonschema==4.26.0
  scripts/dynamic_ref_cases.py [--seed 1] [--schemas 400] > testdata/dynamic-ref/cases.json
"""

import argparse
import json
import random
import sys

from jsonschema import Draft202012Validator

NAMES = ["a", "b", "c", "ab"]
ANCHORS = ["a", "b"]
RESOURCES = 3
LEAVES = [
    True,
    False,
    {"type": "integer"},
    {"type": "string"},
    {"minimum": 2},
    {"const": 1},
    {"type": ["boolean", "null"]},
]
SCALARS = [1, 3, -1, 2.5, "s", True, None]


def sub(rng, depth, anchors):
    """A subschema: a leaf, a `$dynamicRef` to one of `anchors` (the names its resource
    declares), a `$ref` to a resource, or an object or array schema of such subschemas."""
    pick = rng.randrange(4 if depth == 0 else 8)
    if pick == 0 or (not anchors and pick in (1, 2, 7)):
        return rng.choice(LEAVES)
    anchor = "#" + rng.choice(anchors)
    if pick in (1, 2):
        return {"$dynamicRef": anchor}
    if pick == 3:
        return {"$ref": "r%d" % rng.randrange(RESOURCES)}
    if pick == 4:
        properties = {n: sub(rng, depth - 1, anchors) for n in NAMES if rng.random() < 0.4}
        return {"type": "object", "properties": properties}
    if pick == 5:
        return {"items": sub(rng, depth - 1, anchors)}
    if pick == 6:
        keyword = rng.choice(["allOf", "anyOf", "oneOf"])
        return {keyword: [sub(rng, depth - 1, anchors) for _ in range(1 + rng.randrange(2))]}
    return {"$dynamicRef": anchor, "type": rng.choice(["object", "array"])}


def as_object(schema):
    return schema if isinstance(schema, dict) else {"allOf": [schema]}


def anchor_defs(rng, names):
    """Each of `names` declared as a `$dynamicAnchor` (most often) or a plain `$anchor`."""
    defs = {}
    for name in names:
        keyword = "$dynamicAnchor" if rng.randrange(4) <= 2 else "$anchor"
        definition = dict(as_object(sub(rng, 1, names)))
        definition[keyword] = name
        defs["def_" + name] = definition
    return defs


def schema(rng):
    # The root declares some of the names (its references name only those); each resource
    # declares all of them.
    defs = anchor_defs(rng, [n for n in ANCHORS if rng.random() < 0.6])
    for k in range(RESOURCES):
        resource = dict(as_object(sub(rng, 3, ANCHORS)))
        resource["$id"] = "r%d" % k
        resource["$defs"] = anchor_defs(rng, ANCHORS)
        defs["r%d" % k] = resource
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/root",
        "$ref": "r%d" % rng.randrange(RESOURCES),
        "$defs": defs,
    }


def instance(rng, depth):
    pick = rng.randrange(1 if depth == 0 else 5)
    if pick == 0:
        return rng.choice(SCALARS)
    if pick in (1, 2):
        return {n: instance(rng, depth - 1) for n in NAMES if rng.random() < 0.4}
    return [instance(rng, depth - 1) for _ in range(rng.randrange(4))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--schemas", type=int, default=400)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = []
    while len(cases) < args.schemas:
        root = schema(rng)
        validator = Draft202012Validator(root)
        instances = [instance(rng, 3) for _ in range(20)]
        try:
            verdicts = [validator.is_valid(i) for i in instances]
        except RecursionError:
            # A reference that applies itself in place (jitson rejects it at load time).
            continue
        cases.append({"schema": root, "tests": [
            {"data": i, "valid": v} for i, v in zip(instances, verdicts)
        ]})
    json.dump(cases, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
