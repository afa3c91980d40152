#!/usr/bin/env node
// Writes testdata/ecma-patterns/cases.json: random ECMA-262 regular expressions built from
// the parts jitson's pattern translation rewrites (classes, escapes, `.`, boundaries, control
// escapes, class literals) and the parts it leaves alone, random strings, and whether
// Node's RegExp (with the `u` flag, as JSON Schema's test suite reads patterns) finds each
// pattern in each string. Patterns Node refuses are left out.
//
// tests/ecma_pattern_cases.rs checks jitson's `Pattern` against every verdict.
//
// Usage: scripts/ecma_pattern_cases.js [seed] [patterns] > testdata/ecma-patterns/cases.json

"use strict";

const seed = Number(process.argv[2] || 1);
const wanted = Number(process.argv[3] || 400);

// mulberry32: a small seeded generator, so the file is reproducible.
let state = seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n) => Math.floor(random() * n);
const pick = (items) => items[below(items.length)];

// Characters the strings are made of: ASCII letters and digits, word and non-word
// punctuation, every kind of white space and line terminator, control characters, and
// non-ASCII letters and digits (a BMP one and an astral one).
const ALPHABET = [
  "a", "b", "z", "A", "_", "0", "7", "-", ".", "[", "]", "&", "~", "\\", "{", "}",
  " ", "\t", "\n", "\r", "\u000b", "\u000c", "\u0085", "\u00a0", "\u1680", "\u2000",
  "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\u0001", "\u0008", "\u001f",
  "é", "ß", "١", "😀", "Ω", "λ", "/",
];

// Atoms: the parts translate() rewrites, and plain ones.
const ATOMS = [
  "a", "b", "é", "😀", " ", "-", "_",
  ".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B",
  "\\cA", "\\cj", "\\cZ", "\\t", "\\n", "\\r", "\\x41", "\\u00e9", "\\u{1F600}",
  "\\.", "\\\\", "\\-", "\\[", "\\]", "\\{", "\\}", "\\/",
  "\\p{L}", "\\P{L}", "\\p{Lu}", "\\p{Nd}", "\\p{Script=Greek}", "\\p{White_Space}", "/",
];
const CLASS_ITEMS = [
  "a", "b", "z", "é", "😀", "0-9", "a-z", "\\d", "\\w", "\\s", "\\S", "\\W", "\\D", "\\b",
  "\\cA", "\\cj", ".", "[", "&", "&&", "~", "~~", "\\-", "\\]", "\\\\", "_", " ", "\\u00e9",
  "\\p{L}", "\\P{Nd}",
];

function klass() {
  const negated = random() < 0.3 ? "^" : "";
  const n = below(4);
  let items = "";
  for (let i = 0; i < n; i++) items += pick(CLASS_ITEMS);
  return "[" + negated + items + "]";
}

function atom(depth) {
  const r = random();
  if (r < 0.55) return pick(ATOMS);
  if (r < 0.85) return klass();
  if (depth > 0) return pick(["(", "(?:", "(?<g" + below(1000) + ">"]) + sequence(depth - 1) + ")";
  return pick(ATOMS);
}

function quantified(depth) {
  const a = atom(depth);
  // Assertions take no quantifier under the `u` flag.
  if (a === "\\b" || a === "\\B") return a;
  const q = pick(["", "", "", "*", "+", "?", "{2}", "{1,3}", "*?", "+?"]);
  return a + q;
}

function sequence(depth) {
  let out = "";
  const n = 1 + below(3);
  for (let i = 0; i < n; i++) out += quantified(depth);
  if (random() < 0.15) out += "|" + quantified(depth);
  return out;
}

function pattern() {
  const start = random() < 0.5 ? "^" : "";
  const end = random() < 0.5 ? "$" : "";
  return start + sequence(1) + end;
}

function text() {
  let out = "";
  const n = below(6);
  for (let i = 0; i < n; i++) out += pick(ALPHABET);
  return out;
}

const cases = [];
const seen = new Set();
while (cases.length < wanted) {
  const source = pattern();
  if (seen.has(source)) continue;
  seen.add(source);
  let re;
  try {
    re = new RegExp(source, "u");
  } catch (e) {
    continue;
  }
  const tests = [];
  for (let i = 0; i < 30; i++) {
    const t = text();
    tests.push({ text: t, matches: re.test(t) });
  }
  cases.push({ pattern: source, tests });
}
process.stdout.write(JSON.stringify(cases) + "\n");
