//! The USI options: their `option` lines and the parsing of `setoption` into session
//! [`Setting`]s.
//!
//! Names are matched without regard to case, spaces or underscores, so `Move Overhead`,
//! `Move_Overhead` and `move_overhead` are one option; `Hash`/`USI_Hash` and
//! `MultiPV`/`USI_MultiPV` are aliases, as lishogi's tools send both spellings. Numbers
//! may be written as decimals (`100.0`). Options the real clients send that the engine
//! does not use are accepted quietly; other unknown names are reported and ignored.

use crate::search::params::SearchParams;
use crate::session::options::{self as table, Protocol};
use crate::session::text::{parse_number, truncate};
use crate::session::Setting;

pub use crate::session::options::{
    DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS,
};

/// Options lishogi's clients may send that change nothing here (accepted without a word).
const QUIET: &[&str] = &["usiownbook", "ownbook", "uciengineabout"];

/// What a `setoption` amounts to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// A change for the session.
    Set(Setting),
    /// A known option with nothing to change.
    Accepted,
    /// A name the engine does not know.
    Unknown(String),
    /// A bad value (the old one stays); the message says why.
    Bad(String),
}

/// The `option` lines answered to `usi` (from the session's option table).
pub fn option_lines(variant: &str) -> Vec<String> {
    table::usi_lines(variant)
}

/// `Tune_NAME`: a search constant of `search::params` (for tuners; not listed).
fn search_param(name: &str, value: Option<&str>) -> Result<Setting, String> {
    let wanted = name.get(5..).unwrap_or("");
    let Some(&(param, _, min, max)) = SearchParams::TABLE
        .iter()
        .find(|e| e.0.eq_ignore_ascii_case(wanted))
    else {
        return Err(format!(
            "option {}: no such search parameter (shishi tune search-params lists them)",
            truncate(name)
        ));
    };
    let text = value.ok_or_else(|| format!("option {name} needs a value ({min} to {max})"))?;
    match parse_number(text) {
        Some(n) if (min..=max).contains(&n) => Ok(Setting::SearchParam(param, n)),
        _ => Err(format!(
            "option {name}: '{}' is not a number from {min} to {max}; keeping the old value",
            truncate(text)
        )),
    }
}

/// Parses `setoption name NAME value VALUE`.
pub fn parse(name: &str, value: Option<&str>) -> Parsed {
    let key = table::key(name);
    if let Some(option) = table::find(name, Protocol::Usi) {
        return match table::parse(option, value) {
            Ok(setting) => Parsed::Set(setting),
            Err(e) => Parsed::Bad(e.message(option.name)),
        };
    }
    if key.starts_with("tune") {
        return match search_param(name, value) {
            Ok(s) => Parsed::Set(s),
            Err(message) => Parsed::Bad(message),
        };
    }
    if QUIET.contains(&key.as_str()) {
        return Parsed::Accepted;
    }
    Parsed::Unknown(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use std::time::Duration;

    #[test]
    fn aliases_decimals_and_bad_values() {
        assert_eq!(
            parse("USI_Hash", Some("128")),
            Parsed::Set(Setting::Hash(128))
        );
        assert_eq!(
            parse("Hash", Some("128.0")),
            Parsed::Set(Setting::Hash(128))
        );
        assert_eq!(
            parse("USI_MultiPV", Some("3")),
            Parsed::Set(Setting::MultiPv(3))
        );
        assert_eq!(
            parse("Move Overhead", Some("100")),
            Parsed::Set(Setting::MoveOverhead(Duration::from_millis(100)))
        );
        assert_eq!(parse("Clear Hash", None), Parsed::Set(Setting::ClearHash));
        assert_eq!(
            parse("USI_Variant", Some("shoshogi")),
            Parsed::Set(Setting::Variant(Variant::sho()))
        );
        assert_eq!(
            parse("USI_AnalyseMode", Some("true")),
            Parsed::Set(Setting::AnalyseMode(true))
        );
        assert_eq!(
            parse("Skill Level", Some("5")),
            Parsed::Set(Setting::SkillLevel(5))
        );
        assert_eq!(
            parse("Skill_Level", Some("-9")),
            Parsed::Set(Setting::SkillLevel(-9))
        );
        assert!(matches!(parse("Skill_Level", Some("21")), Parsed::Bad(_)));
        assert_eq!(parse("USI_OwnBook", Some("false")), Parsed::Accepted);
        assert_eq!(
            parse("Frobnicate", Some("1")),
            Parsed::Unknown("Frobnicate".into())
        );
        for (name, value) in [
            ("Threads", Some("0")),
            ("Threads", Some("many")),
            ("Threads", Some("100000")),
            ("USI_Hash", None),
            ("USI_Ponder", Some("maybe")),
        ] {
            assert!(
                matches!(parse(name, value), Parsed::Bad(_)),
                "{name} {value:?}"
            );
        }
        let Parsed::Bad(message) = parse("USI_Variant", Some("daishogi")) else {
            panic!("an unknown variant is an error")
        };
        assert!(message.contains("known: chushogi, shoshogi"), "{message}");
    }
}
