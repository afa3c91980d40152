//! Clean-block copying: every twin against a byte-at-a-time statement of the rule, on
//! hand-made cases with exact answers and on random token soups at every start, placed
//! against a guard page.

mod common;

use common::{MiriSample, Rng, avx2, check_dispatch, for_each_guarded_suffix};
use jitson_kernels::byte_classes::BLOCK;
use jitson_kernels::clean_blocks;

/// One step of the walk, byte by byte: how many bytes of `block` it takes and the bytes it
/// appends, or `None` when the block is not clean.
fn reference_step(block: &[u8]) -> Option<(usize, Vec<u8>)> {
    if block.contains(&b'\\') {
        return None;
    }
    // Whether each byte lies outside strings (quotes count as inside).
    let mut in_string = false;
    let outside: Vec<bool> = block
        .iter()
        .map(|&b| {
            if b == b'"' {
                in_string = !in_string;
                false
            } else {
                !in_string
            }
        })
        .collect();
    let mut take = if in_string {
        block
            .iter()
            .rposition(|&b| b == b'"')
            .expect("an open string has a quote")
    } else {
        BLOCK
    };
    let numeric = |k: usize| outside[k] && b"0123456789-.E+e".contains(&block[k]);
    while take > 0 && numeric(take - 1) {
        take -= 1;
    }
    if take == 0 {
        return None;
    }
    let mut digit_run = 0;
    for k in 0..take {
        if !outside[k] {
            digit_run = 0;
            continue;
        }
        let b = block[k];
        let after_digit = k > 0 && block[k - 1].is_ascii_digit();
        if b".E+".contains(&b) || b == b'e' && after_digit || b == b'-' && block[k + 1] == b'0' {
            return None;
        }
        digit_run = if b.is_ascii_digit() { digit_run + 1 } else { 0 };
        if digit_run > 18 {
            return None;
        }
    }
    let kept = (0..take)
        .filter(|&k| !(outside[k] && b" \t\n\r".contains(&block[k])))
        .map(|k| block[k])
        .collect();
    Some((take, kept))
}

/// The whole walk from `start`, step by step with [`reference_step`].
fn reference(raw: &[u8], start: usize) -> (usize, Vec<u8>) {
    let mut i = start;
    let mut out = Vec::new();
    while let Some((take, kept)) = raw.get(i..i + BLOCK).and_then(reference_step) {
        out.extend(kept);
        i += take;
    }
    (i - start, out)
}

/// Every twin from every start of `raw` (under Miri, a [`MiriSample`] of them), against
/// [`reference`]; returns the reference's answer from the first start.
fn check(raw: &[u8]) -> (usize, Vec<u8>) {
    let mut sample = MiriSample::for_input(raw);
    for start in (0..=raw.len()).filter(|&start| start == 0 || sample.next_runs()) {
        let want = reference(raw, start);
        let run = |copy: &dyn Fn(&mut Vec<u8>) -> usize| {
            let mut out = b"prefix".to_vec();
            let taken = copy(&mut out);
            (taken, out.split_off(6))
        };
        let text = String::from_utf8_lossy(raw);
        assert_eq!(
            run(&|out| clean_blocks::scalar::copy_clean_blocks(raw, start, out)),
            want,
            "scalar from {start} of {text:?}"
        );
        if check_dispatch() {
            assert_eq!(
                run(&|out| clean_blocks::copy_clean_blocks(raw, start, out)),
                want,
                "dispatch from {start} of {text:?}"
            );
        }
        if avx2() {
            // SAFETY: AVX2 support was checked.
            let avx2 =
                run(&|out| unsafe { clean_blocks::avx2::copy_clean_blocks(raw, start, out) });
            assert_eq!(avx2, want, "avx2 from {start} of {text:?}");
        }
    }
    reference(raw, 0)
}

/// `text` padded with spaces to `len` bytes.
fn padded(text: &str, len: usize) -> String {
    format!("{text:<len$}")
}

#[test]
fn exact_answers() {
    let clean = padded(r#"{"a": [1, 22, true, null, "x y"], "b": -7}"#, BLOCK);
    let compact = r#"{"a":[1,22,true,null,"x y"],"b":-7}"#.as_bytes().to_vec();
    assert_eq!(check(clean.as_bytes()), (BLOCK, compact.clone()));
    // Two clean blocks, then fewer than a block's bytes: those are left to the caller.
    let two = format!("{clean}{clean}[1, 2]");
    let twice = [compact.clone(), compact.clone()].concat();
    assert_eq!(check(two.as_bytes()), (2 * BLOCK, twice));
    assert_eq!(check(b"[1, 2]"), (0, Vec::new()));
    // Blocks that are not clean, after a clean one.
    for dirty in [
        r#""a\"b""#,
        "1.5",
        "1e5",
        "2E3",
        "-0",
        "1234567890123456789",
    ] {
        let text = format!("{clean}{}", padded(&format!("[{dirty}]"), BLOCK));
        assert_eq!(check(text.as_bytes()), (BLOCK, compact.clone()), "{dirty}");
    }
    // 18 digits, `-01`'s neighbour `-1`, and letters that only look numeric inside strings.
    let fine = padded(r#"[123456789012345678, -1, "1.5e+3E", "-0"]"#, BLOCK);
    let fine_compact = r#"[123456789012345678,-1,"1.5e+3E","-0"]"#;
    assert_eq!(
        check(fine.as_bytes()),
        (BLOCK, fine_compact.as_bytes().to_vec())
    );
}

#[test]
fn blocks_cut_at_strings_and_numbers() {
    // A string left open at the block's end: taken up to its opening quote.
    let open = format!("{} \"{}\"", "[1,", "x".repeat(BLOCK));
    assert_eq!(check(open.as_bytes()).0, 4);
    // A number the block's end may cut: taken up to its start.
    let cut = format!("[{}, 12345]", " ".repeat(BLOCK - 5));
    assert_eq!(check(cut.as_bytes()).0, BLOCK - 2);
    // A block that is one number token (or a string's body) takes nothing.
    assert_eq!(check("1".repeat(BLOCK + 8).as_bytes()).0, 0);
    let quoted = format!("\"{}\"", "x".repeat(2 * BLOCK));
    assert_eq!(check(quoted.as_bytes()).0, 0);
}

/// Random token soups: mostly clean tokens, some that are not, and bytes from outside JSON.
fn soup(rng: &mut Rng, len: usize) -> Vec<u8> {
    let tokens: &[&str] = &[
        "\"ab\"",
        "\"a b c d e f\"",
        "\"1.5e3\"",
        "1",
        "42",
        "-7",
        "0",
        "true",
        "false",
        "null",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        " ",
        "    ",
        "\n",
        "\t",
        "\r\n",
        "1.5",
        "1e9",
        "-0",
        "\"\\n\"",
        "\\",
        "\"",
        "x",
    ];
    let mut text = Vec::new();
    while text.len() < len {
        if rng.one_in(40) {
            let n = 10 + rng.below(12);
            text.extend(rng.digits(n).bytes());
        } else {
            text.extend(rng.pick(tokens).bytes());
        }
    }
    text.truncate(len);
    text
}

#[test]
fn random_soups_from_every_start() {
    let mut rng = Rng::new(0xc1ea);
    let (rounds, len) = if cfg!(miri) {
        (1, BLOCK + 9)
    } else {
        (100, 4 * BLOCK + 17)
    };
    for _ in 0..rounds {
        check(&soup(&mut rng, len));
    }
}

#[test]
#[cfg_attr(miri, ignore = "mmap and mprotect are not supported under Miri")]
fn reads_nothing_past_the_end() {
    let mut rng = Rng::new(0x9a2d);
    for _ in 0..20 {
        for_each_guarded_suffix(&soup(&mut rng, 3 * BLOCK + 5), |raw| {
            check(raw);
        });
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "megabytes of text: the tests above cover the scalar twin"
)]
fn benchmark_documents() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/bench");
    for name in [
        "twitter.json",
        "citm_catalog.json",
        "canada.json",
        "book.json",
    ] {
        let text = std::fs::read(dir.join(name)).unwrap();
        // Walks of at most 16 blocks from starts spread over the document.
        for start in (0..text.len()).step_by(97) {
            let raw = &text[..text.len().min(start + 16 * BLOCK)];
            let want = reference(raw, start);
            let mut out = Vec::new();
            let taken = clean_blocks::copy_clean_blocks(raw, start, &mut out);
            assert_eq!((taken, out), want, "{name} from {start}");
            let mut out = Vec::new();
            let taken = clean_blocks::scalar::copy_clean_blocks(raw, start, &mut out);
            assert_eq!((taken, out), want, "{name} from {start}, scalar");
        }
    }
}
