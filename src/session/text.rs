//! Numbers and names as GUIs and clients write them.

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
