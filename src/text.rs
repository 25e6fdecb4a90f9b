//! Text from outside, made safe to read and to print: numbers and names as GUIs and
//! clients write them, and user text shown in a terminal, a record or a page. A leaf: it
//! uses nothing of the crate, so any layer may take it.

/// Reads a number the way clients write it: `1000`, `-5`, and also `1000.0` or `2.5e3`
/// (Lishogi-Bot writes configured times as decimals). A decimal is rounded to the nearest
/// whole number; `None` for anything else (including NaN and infinities).
pub fn parse_number(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(n) = text.parse::<i64>() {
        return Some(n);
    }
    // Only plain decimal forms: Rust's float parser also takes "inf" and "NaN".
    if !text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    {
        return None;
    }
    let x = text.parse::<f64>().ok().filter(|x| x.is_finite())?;
    Some(x.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64)
}

/// Text from outside (a record's names and ids, an engine's words) made safe to print on a
/// terminal or on one line of a record: control characters (C0, DEL, C1: escape sequences
/// that clear a screen or set a window title start with one) and the bidirectional controls
/// that turn a line around (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C) become `�`.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || is_bidi_control(c) {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}

/// Unicode's explicit direction controls (embeddings, overrides, isolates, marks), which turn
/// the text after them around.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Words from outside quoted in a message: [`printable`] and at most 60 characters.
pub fn quoted(text: &str) -> String {
    truncate(&printable(text))
}

/// At most 60 characters of user text in messages.
pub fn truncate(text: &str) -> String {
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(60).collect::<String>())
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_text_is_printable_and_quoted_short() {
        assert_eq!(printable("a\u{1b}[2Jb\u{7}c"), "a\u{fffd}[2Jb\u{fffd}c");
        assert_eq!(
            printable("\u{202e}ecila\u{2066}x"),
            "\u{fffd}ecila\u{fffd}x"
        );
        assert_eq!(printable("将棋 alice"), "将棋 alice");
        assert_eq!(
            quoted(&"x".repeat(1_000_000)),
            format!("{}...", "x".repeat(60))
        );
        assert_eq!(quoted("tab\there"), "tab\u{fffd}here");
    }

    #[test]
    fn numbers_as_clients_write_them() {
        assert_eq!(parse_number("1000"), Some(1000));
        assert_eq!(parse_number(" -500 "), Some(-500));
        assert_eq!(parse_number("1000.0"), Some(1000));
        assert_eq!(parse_number("999.6"), Some(1000));
        assert_eq!(parse_number("2.5e3"), Some(2500));
        assert_eq!(parse_number("1e300"), Some(i64::MAX));
        for bad in ["", "abc", "inf", "NaN", "1,000", "10ms", "."] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn truncation_counts_characters() {
        assert_eq!(truncate("short"), "short");
        let long = "駒".repeat(100);
        assert_eq!(truncate(&long).chars().count(), 63);
    }
}
