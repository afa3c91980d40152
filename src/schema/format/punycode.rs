//! Punycode decoding (RFC 3492 section 6.2), for the `xn--` labels of host names.

const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;

/// The code points `input` (a label without its `xn--` prefix) encodes, or `None` when it
/// is no Punycode: a non-ASCII basic part, a byte that is no digit, an overflow, a code
/// point that is no character.
pub(super) fn decode(input: &str) -> Option<Vec<char>> {
    let (basic, deltas) = match input.rfind('-') {
        Some(at) => (&input[..at], &input[at + 1..]),
        None => ("", input),
    };
    if !basic.is_ascii() {
        return None;
    }
    let mut output: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (INITIAL_N, 0u32, INITIAL_BIAS);
    let mut digits = deltas.bytes().peekable();
    while digits.peek().is_some() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let digit = digit_value(digits.next()?)?;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let points = output.len() as u32 + 1;
        bias = adapt(i - old_i, points, old_i == 0);
        n = n.checked_add(i / points)?;
        i %= points;
        output.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(output)
}

/// A Punycode digit's value: `a`–`z` (either case) 0–25, `0`–`9` 26–35.
fn digit_value(b: u8) -> Option<u32> {
    match b {
        b'a'..=b'z' => Some(u32::from(b - b'a')),
        b'A'..=b'Z' => Some(u32::from(b - b'A')),
        b'0'..=b'9' => Some(u32::from(b - b'0') + 26),
        _ => None,
    }
}

/// The threshold of digit position `k` under `bias`.
fn threshold(k: u32, bias: u32) -> u32 {
    k.saturating_sub(bias).clamp(T_MIN, T_MAX)
}

/// The bias after a delta (RFC 3492 section 6.1).
fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(input: &str) -> Option<String> {
        decode(input).map(|c| c.into_iter().collect())
    }

    #[test]
    fn rfc_3492_samples() {
        // Section 7.1: (A) Arabic (Egyptian), (L) Japanese, and a plain one.
        assert_eq!(
            text("egbpdaj6bu4bxfgehfvwxn").as_deref(),
            Some(
                "\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}"
            )
        );
        assert_eq!(
            text("3B-ww4c5e180e575a65lsy2b").as_deref(),
            Some("3年B組金八先生")
        );
        assert_eq!(text("bcher-kva").as_deref(), Some("bücher"));
        assert_eq!(
            text("ihqwcrb4cv8a8dqg056pqjye").as_deref(),
            Some("他们为什么不说中文")
        );
    }

    #[test]
    fn malformed_input() {
        assert_eq!(text("X"), None);
        assert_eq!(text("a!"), None);
        assert_eq!(text("99999999999999"), None);
        assert_eq!(text("é-a"), None);
    }
}
