//! The native backend against the interpreter on programs the resolver makes from real
//! schemas: identical validate results (kind, offset, path) and identical decode results
//! (the same error, or documents that encode to the same bytes) on the corpus documents,
//! every JSONTestSuite file, every JSON-Schema-Test-Suite case the engine loads, and
//! thousands of seeded random mutations of the corpus documents.

mod engine_support;
#[path = "../jit/tests/native_support/mod.rs"]
mod native_support;

use engine_support::{
    BY_NAME_ITEMS, BY_NAME_SCHEMA, CONDITIONAL_ITEMS, CONDITIONAL_SCHEMA, DEFAULT_BRANCH_ITEMS,
    DEFAULT_BRANCH_SCHEMA, DEPENDENT_ITEMS, DEPENDENT_SCHEMA, LARGE_ENUM_ITEMS, LARGE_ENUM_SCHEMA,
    MULTIPLE_OF_NUMBERS, MULTIPLE_OF_SCHEMA, PATTERN_ITEMS, PATTERN_SCHEMA,
    UNEVALUATED_BRANCH_ITEMS, UNEVALUATED_BRANCH_SCHEMA, UNEVALUATED_ITEMS,
    UNEVALUATED_ITEMS_ITEMS, UNEVALUATED_ITEMS_SCHEMA, UNEVALUATED_SCHEMA, WHOLE_VALUE_ITEMS,
    WHOLE_VALUE_SCHEMA, multiple_of_documents, suite_support, testdata,
};
use jitson::Schema;
use jitson::document::Document;
use jitson::jit::interp;
use jitson::jit::ir::{DuplicateKeys, ExecOptions, Program};
use jitson::jit::native::{self, NativeCode, Scratch};
use jitson::resolve::resolve;
use jitson::schema::Loader;
use native_support::{Rng, assert_same, assert_same_decode, mutations};
use std::path::Path;

const CORPUS: [&str; 4] = ["twitter", "citm_catalog", "canada", "book"];

/// The `.json` files of a testdata directory, sorted.
fn json_files(dir: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("suite directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

fn corpus_program(name: &str) -> Program {
    let text = testdata(&format!("schemas/{name}.schema.json"));
    resolve(&Schema::from_json_slice(&text).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// Both differential assertions: validate, and decode (the same error, or documents with
/// the same encoding and the same `serde_json::Value`).
fn assert_agree(program: &Program, code: &NativeCode, input: &[u8], options: &ExecOptions) {
    assert_same(program, code, input, options);
    assert_same_decode(program, code, input, options);
    let native = code.decode(input, options, &mut Scratch::new());
    let interp = interp::decode(program, input, options, &mut interp::Scratch::new());
    if let (Ok(native), Ok(interp)) = (native, interp) {
        assert_eq!(
            Document::from(native).to_serde_json(),
            Document::from(interp).to_serde_json(),
            "input {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

fn compile(program: &Program) -> NativeCode {
    native::compile(program).unwrap_or_else(|e| panic!("{e}\n{program}"))
}

#[test]
fn corpus_documents_are_valid_on_both_backends() {
    for name in CORPUS {
        let program = corpus_program(name);
        let code = compile(&program);
        let bytes = testdata(&format!("bench/{name}.json"));
        let options = ExecOptions::default();
        assert_eq!(code.validate(&bytes, &options, &mut Scratch::new()), Ok(()));
        assert_agree(&program, &code, &bytes, &options);
    }
}

#[test]
fn every_document_under_every_corpus_schema() {
    let programs: Vec<Program> = CORPUS.iter().map(|n| corpus_program(n)).collect();
    let codes: Vec<NativeCode> = programs.iter().map(compile).collect();
    let docs: Vec<Vec<u8>> = CORPUS
        .iter()
        .map(|n| testdata(&format!("bench/{n}.json")))
        .chain([testdata("bench/twitterescaped.json")])
        .collect();
    let deny = ExecOptions {
        duplicate_keys: DuplicateKeys::Deny,
        max_depth: 6,
        ..ExecOptions::default()
    };
    for (program, code) in programs.iter().zip(&codes) {
        for doc in &docs {
            assert_agree(program, code, doc, &ExecOptions::default());
            assert_agree(program, code, doc, &deny);
        }
    }
}

#[test]
fn json_test_suite_under_any_and_corpus_schemas() {
    let mut programs = vec![resolve(&Schema::from_json_str("{}").expect("schema"))];
    programs.extend(["twitter", "book"].map(corpus_program));
    let codes: Vec<NativeCode> = programs.iter().map(compile).collect();
    let files = json_files("jsontestsuite");
    assert!(files.len() > 200, "{} files", files.len());
    for path in &files {
        let bytes = std::fs::read(path).expect("suite file");
        for (program, code) in programs.iter().zip(&codes) {
            assert_agree(program, code, &bytes, &ExecOptions::default());
        }
        let name = path.file_name().expect("name").to_string_lossy();
        let got = codes[0].validate(&bytes, &ExecOptions::default(), &mut Scratch::new());
        if name.starts_with("y_") {
            assert_eq!(got, Ok(()), "{name}");
        } else if name.starts_with("n_") {
            assert!(got.is_err(), "{name}");
        }
    }
}

#[test]
fn json_schema_test_suite_cases() {
    let cases = suite_cases(&suite_support::loader(), suite_support::groups());
    assert_eq!(cases, 2506, "suite cases (compact and pretty)");
}

#[test]
fn json_schema_test_suite_format_cases() {
    let mut loader = suite_support::loader();
    loader.assert_formats(true);
    let cases = suite_cases(&loader, suite_support::format_groups());
    assert_eq!(cases, 832, "format cases (compact and pretty)");
}

/// Runs every test of the `groups` that `loader` loads, compact and pretty, on both
/// backends, which must agree; returns how many ran.
fn suite_cases(loader: &Loader, groups: Vec<suite_support::Group>) -> usize {
    let mut cases = 0;
    for group in groups {
        let Ok(schema) = loader.load_value(&group.schema) else {
            continue;
        };
        let program = resolve(&schema);
        let code = compile(&program);
        for test in &group.tests {
            let compact = serde_json::to_vec(&test.data).expect("data");
            let pretty = serde_json::to_vec_pretty(&test.data).expect("data");
            for bytes in [compact, pretty] {
                cases += 1;
                assert_agree(&program, &code, &bytes, &ExecOptions::default());
            }
        }
    }
    cases
}

#[test]
fn mutated_corpus_documents() {
    let rounds = 1_000;
    let mut rng = Rng::new(7);
    for name in CORPUS {
        let program = corpus_program(name);
        let code = compile(&program);
        let bytes = testdata(&format!("bench/{name}.json"));
        // Mutate a window of the document (cut at a random point, closed by the mutation
        // or not): full-size documents would make thousands of runs slow.
        for (i, m) in mutations(&bytes[..bytes.len().min(4096)], rounds, rng.next_u64())
            .into_iter()
            .enumerate()
        {
            assert_agree(&program, &code, &m, &ExecOptions::default());
            if i % 32 == 0 {
                let mut whole = bytes.clone();
                let at = rng.below(whole.len());
                whole[at] = m.get(at % m.len().max(1)).copied().unwrap_or(b'x');
                assert_agree(&program, &code, &whole, &ExecOptions::default());
            }
        }
    }
}

/// Unions whose branch a tag selects: a discriminator with a default branch (its `unmatched`
/// label a branch's block) and externally tagged variants selected by the first member's
/// name. The same verdicts, errors and documents on both backends, item by item and the
/// valid items together (every prefix: see native_fast_paths).
#[test]
fn unions_selected_by_a_tag() {
    for (schema, items) in [
        (DEFAULT_BRANCH_SCHEMA, &DEFAULT_BRANCH_ITEMS[..]),
        (BY_NAME_SCHEMA, &BY_NAME_ITEMS[..]),
    ] {
        let program = resolve(&Schema::from_json_str(schema).unwrap());
        let code = compile(&program);
        let options = ExecOptions::default();
        for item in items {
            assert_agree(&program, &code, format!("[{item}]").as_bytes(), &options);
        }
        // The first seven of each are valid.
        let all = format!("[{}]", items[..7].join(",\n"));
        assert_agree(&program, &code, all.as_bytes(), &options);
        let valid = code.validate(all.as_bytes(), &options, &mut Scratch::new());
        assert_eq!(valid, Ok(()), "{schema}");
    }
}

/// `if` / `then` / `else` (the condition in a `Try`, then one outcome), each item alone
/// and the valid ones together, on both backends.
#[test]
fn conditionals() {
    items_agree_on_both_backends(CONDITIONAL_SCHEMA, &CONDITIONAL_ITEMS, 9, 0xc0d1);
}

/// Rules on arrays and objects as a whole (a `raw-check` after the walk), each item alone
/// and the valid ones together, on both backends, and mutations of them.
#[test]
fn whole_value_rules() {
    items_agree_on_both_backends(WHOLE_VALUE_SCHEMA, &WHOLE_VALUE_ITEMS, 9, 0x0a11);
}

/// `patternProperties` (`key-matches` on the unknown key, the patterns' checks writing
/// nothing), each item alone and the valid ones together, on both backends, and mutations
/// of them.
#[test]
fn pattern_properties() {
    items_agree_on_both_backends(PATTERN_SCHEMA, &PATTERN_ITEMS, 8, 0x9a77);
}

/// `unevaluatedProperties` (an object node of the evaluated members beside the schema's
/// other parts), each item alone and the valid ones together, on both backends, and
/// mutations of them.
#[test]
fn unevaluated_properties() {
    items_agree_on_both_backends(UNEVALUATED_SCHEMA, &UNEVALUATED_ITEMS, 5, 0x0e7a);
}

/// `dependentSchemas` (a conditional per member whose condition is the member's presence),
/// each item alone and the valid ones together, on both backends, and mutations of them.
#[test]
fn dependent_schemas() {
    items_agree_on_both_backends(DEPENDENT_SCHEMA, &DEPENDENT_ITEMS, 6, 0xde9e);
}

/// `unevaluatedProperties` beside branches (a chain of conditionals, one per case), each
/// item alone and the valid ones together, on both backends, and mutations of them.
#[test]
fn unevaluated_beside_branches() {
    items_agree_on_both_backends(
        UNEVALUATED_BRANCH_SCHEMA,
        &UNEVALUATED_BRANCH_ITEMS,
        5,
        0xb4a7,
    );
}

/// `unevaluatedItems` (an array node of the evaluated prefix beside the schema's other
/// parts), each item alone and the valid ones together, on both backends, and mutations of
/// them.
#[test]
fn unevaluated_items() {
    items_agree_on_both_backends(
        UNEVALUATED_ITEMS_SCHEMA,
        &UNEVALUATED_ITEMS_ITEMS,
        9,
        0x17e5,
    );
}

/// Each of `items` (item, pointer) alone in an array under `schema`, then the first
/// `valid` together and 300 mutations of them (from `seed`), on both backends; the valid
/// ones pass.
fn items_agree_on_both_backends(schema: &str, items: &[(&str, &str)], valid: usize, seed: u64) {
    let options = ExecOptions::default();
    let program = resolve(&Schema::from_json_str(schema).unwrap());
    let code = compile(&program);
    for (item, _) in items {
        assert_agree(&program, &code, format!("[{item}]").as_bytes(), &options);
    }
    let valid: Vec<&str> = items[..valid].iter().map(|(item, _)| *item).collect();
    let all = format!("[{}]", valid.join(", "));
    assert_agree(&program, &code, all.as_bytes(), &options);
    for m in mutations(all.as_bytes(), 300, seed) {
        assert_agree(&program, &code, &m, &options);
    }
    let valid = code.validate(all.as_bytes(), &options, &mut Scratch::new());
    assert_eq!(valid, Ok(()));
}

/// A string enumeration looked up by its hash switch, and numbers under `multipleOf`
/// divisors of every spelling, on both backends.
#[test]
fn large_enumerations_and_multiples() {
    let options = ExecOptions::default();
    let program = resolve(&Schema::from_json_str(LARGE_ENUM_SCHEMA).unwrap());
    let code = compile(&program);
    for item in LARGE_ENUM_ITEMS {
        assert_agree(&program, &code, format!("[{item}]").as_bytes(), &options);
    }
    let all = format!("[{}]", LARGE_ENUM_ITEMS[..12].join(", "));
    assert_agree(&program, &code, all.as_bytes(), &options);
    let valid = code.validate(all.as_bytes(), &options, &mut Scratch::new());
    assert_eq!(valid, Ok(()));

    let program = resolve(&Schema::from_json_str(MULTIPLE_OF_SCHEMA).unwrap());
    let code = compile(&program);
    for (_, document) in multiple_of_documents() {
        assert_agree(&program, &code, document.as_bytes(), &options);
    }
    let every = format!("[[{}]]", MULTIPLE_OF_NUMBERS.join(", "));
    assert_agree(&program, &code, every.as_bytes(), &options);
}

#[test]
fn interpreter_and_native_agree_on_a_reused_scratch() {
    let program = corpus_program("citm_catalog");
    let code = compile(&program);
    let bytes = testdata("bench/citm_catalog.json");
    let mut scratch = Scratch::new();
    let mut interp_scratch = interp::Scratch::new();
    let options = ExecOptions::default();
    let encoded = |doc: &interp::Decoded<'_>| {
        let mut out = Vec::new();
        jitson::jit::encode::encode(doc.root(), Default::default(), doc.big_ints(), &mut out);
        out
    };
    for m in mutations(&bytes[..2048], 300, 11)
        .into_iter()
        .chain([bytes.clone()])
    {
        assert_eq!(
            code.validate(&m, &options, &mut scratch),
            interp::validate(&program, &m, &options, &mut interp_scratch)
        );
        let got = code.decode(&m, &options, &mut scratch);
        let expected = interp::decode(&program, &m, &options, &mut interp_scratch);
        assert_eq!(
            got.as_ref().map(encoded).map_err(Clone::clone),
            expected.as_ref().map(encoded).map_err(Clone::clone)
        );
    }
}

#[test]
#[ignore = "diagnostic: prints the size of the corpus programs' Cranelift IR"]
fn corpus_clif_sizes() {
    for name in CORPUS {
        let program = corpus_program(name);
        let clif = native::clif(&program).expect("clif");
        let insts = clif.lines().filter(|l| l.starts_with("    ")).count();
        let calls = clif.matches(" call ").count();
        let ops: usize = program.funcs.iter().map(|f| f.ops.len()).sum();
        println!(
            "{name}: {} functions, {ops} ops, {insts} CLIF instructions, {calls} calls",
            program.funcs.len()
        );
    }
}
