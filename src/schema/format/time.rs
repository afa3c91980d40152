//! RFC 3339 dates, times and durations (`date-time`, `date`, `time`, `duration`). `T` and
//! `Z` may be lower case (RFC 3339 section 5.6, note); digits are ASCII digits only.

/// The value of the ASCII digits `b` (at most 4), if all are digits.
fn number(b: &[u8]) -> Option<u32> {
    b.iter().try_fold(0u32, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
    })
}

/// `full-date`: `YYYY-MM-DD`, a day the month has (29 February in leap years only).
pub(super) fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (number(&b[..4]), number(&b[5..7]), number(&b[8..]))
    else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `full-time`: `HH:MM:SS[.frac]` then `Z` or `±HH:MM`. Second 60 (a leap second) only
/// where the time, moved to UTC by the offset, is 23:59.
pub(super) fn is_time(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (number(&b[..2]), number(&b[3..5]), number(&b[6..8]))
    else {
        return false;
    };
    let mut rest = &b[8..];
    if let [b'.', frac @ ..] = rest {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &frac[digits..];
    }
    let offset_minutes: i64 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(h), Some(m)) = (number(&[*h1, *h2]), number(&[*m1, *m2])) else {
                return false;
            };
            if h > 23 || m > 59 {
                return false;
            }
            let minutes = i64::from(h * 60 + m);
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return false,
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// `date-time`: `full-date`, `T`, `full-time`.
pub(super) fn is_date_time(text: &str) -> bool {
    match text.as_bytes().get(10) {
        Some(b'T' | b't') => is_date(&text[..10]) && is_time(&text[11..]),
        _ => false,
    }
}

/// `duration` (RFC 3339 appendix A): `P`, then weeks alone, or a date part (years, months,
/// days, each only after the one before it: `P1Y2M3D`, `P2M`, `P3D`) with an optional
/// time part, or a time part alone; the time part is `T` and hours, minutes, seconds in
/// the same way. Each element is ASCII digits and its letter.
pub(super) fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    if date.is_empty() && time.is_none() {
        return false;
    }
    if time.is_none() && units(date) == Some(vec![b'W']) {
        return true;
    }
    let date_ok = date.is_empty() || units(date).is_some_and(|u| consecutive(&u, b"YMD"));
    let time_ok =
        time.is_none_or(|t| units(t).is_some_and(|u| !u.is_empty() && consecutive(&u, b"HMS")));
    date_ok && time_ok
}

/// The unit letters of `text`, a run of `digits letter` elements, or `None` when it is not
/// one (a letter without digits, digits without a letter, anything else).
fn units(text: &str) -> Option<Vec<u8>> {
    let mut units = Vec::new();
    let mut digits = 0;
    for c in text.bytes() {
        match c {
            b'0'..=b'9' => digits += 1,
            b'A'..=b'Z' if digits > 0 => {
                units.push(c);
                digits = 0;
            }
            _ => return None,
        }
    }
    (digits == 0).then_some(units)
}

/// Whether `units` is a non-empty run of consecutive letters of `order` (`YM`, `MD`, `YMD`,
/// but not `YD`, `DY` or `W`).
fn consecutive(units: &[u8], order: &[u8]) -> bool {
    let Some(first) = units
        .first()
        .and_then(|u| order.iter().position(|o| o == u))
    else {
        return false;
    };
    order.get(first..first + units.len()) == Some(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_seconds_are_23_59_60_utc() {
        assert!(is_time("23:59:60Z"));
        assert!(is_time("15:59:60-08:00"));
        assert!(is_time("00:29:60-23:30"));
        assert!(is_time("01:29:60+01:30"));
        assert!(!is_time("23:59:60+01:00"));
        assert!(!is_time("22:59:60Z"));
        assert!(!is_time("00:00:61Z"));
    }

    #[test]
    fn times_need_an_offset_of_two_digit_parts() {
        assert!(is_time("08:30:06.283185z"));
        assert!(!is_time("12:00:00"));
        assert!(!is_time("08:30:06-8:000"));
        assert!(!is_time("01:02:03Z+00:30"));
        assert!(!is_time("01:02:03+24:00"));
        assert!(!is_time("1২:00:00Z"));
        assert!(!is_time("08:30:06.Z"));
    }

    #[test]
    fn dates_have_their_months_days() {
        assert!(is_date("2020-02-29"));
        assert!(!is_date("2021-02-29"));
        assert!(is_date("2000-02-29"));
        assert!(!is_date("1900-02-29"));
        assert!(!is_date("2020-04-31"));
        assert!(!is_date("2020-13-01"));
        assert!(!is_date("2020-00-01"));
        assert!(!is_date("2020-01-00"));
        assert!(is_date_time("1963-06-19t08:30:06.283185z"));
        assert!(!is_date_time("1963-06-19 08:30:06Z"));
    }

    #[test]
    fn durations_follow_the_appendix_grammar() {
        for ok in [
            "P4DT12H30M5S",
            "P4Y",
            "PT0S",
            "P0D",
            "P1M",
            "PT1M",
            "PT36H",
            "P2W",
            "P1Y2M",
        ] {
            assert!(is_duration(ok), "{ok}");
        }
        for bad in [
            "PT1D", "P", "P1YT", "PT", "P2D1Y", "P1D2H", "P2S", "P1Y2W", "P1", "P1Y1D", "PT1H1S",
            "P1W2D", "PW",
        ] {
            assert!(!is_duration(bad), "{bad}");
        }
    }
}
