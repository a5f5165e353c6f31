//! Plain text helpers every layer shares: plurals (`1 file`, `2 files`), dates from epoch
//! times (civil-from-days, UTC), the line of a byte offset. They sit at the bottom so
//! that no module borrows them from a layer above its own.
//!
//! Owns formatting of numbers and dates only. It must not know symbols, files or the index.

/// `1 file`, `2 files`.
pub fn plural(n: usize, noun: &str) -> String {
    match noun.strip_suffix('y') {
        Some(stem) if n != 1 && !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}{}", if n == 1 { "" } else { "s" }),
    }
}

/// `YYYY-MM-DD` from nanoseconds since the epoch (file times).
pub fn date_of(ns: i64) -> String {
    date_time_of(ns).split(' ').next().unwrap_or("").to_string()
}

/// `YYYY-MM-DD` from seconds since the epoch (git's times).
pub fn date_of_seconds(secs: i64) -> String {
    date_of(secs.saturating_mul(1_000_000_000))
}

/// `YYYY-MM-DD HH:MM UTC` from nanoseconds since the epoch (civil-from-days).
pub fn date_time_of(ns: i64) -> String {
    let secs = ns.div_euclid(1_000_000_000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60)
}

/// The 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}
