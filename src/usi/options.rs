//! The USI options: their `option` lines and the parsing of `setoption` into session
//! [`Setting`]s.
//!
//! Names are matched without regard to case, spaces or underscores, so `Move Overhead`,
//! `Move_Overhead` and `move_overhead` are one option; `Hash`/`USI_Hash` and
//! `MultiPV`/`USI_MultiPV` are aliases, as lishogi's tools send both spellings. Numbers
//! may be written as decimals (`100.0`). Options the real clients send that the engine
//! does not use are accepted quietly; other unknown names are reported and ignored.

use crate::mate::AttackerMoves;
use crate::search::params::SearchParams;
use crate::session::text::{parse_number, truncate};
use crate::session::{Setting, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};
use crate::variant::Variant;
use std::time::Duration;

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Default move overhead in ms: what a local pipe costs, with room to spare (Stockfish's
/// default too). Main time is shared out after setting it aside for every expected move,
/// so 50 ms left a 5 s + 0.05 s game little more than the increment to think with; a bot
/// on a network sets more (protocol-docs/lishogi.md: 300).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// Largest move overhead in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

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

/// The `option` lines answered to `usi`.
pub fn option_lines(variant: &str) -> Vec<String> {
    let vars: String = Variant::all()
        .iter()
        .map(|v| format!(" var {}", v.name()))
        .collect();
    vec![
        format!("option name USI_Variant type combo default {variant}{vars}"),
        format!("option name USI_Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
        format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        format!("option name USI_MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name USI_Ponder type check default false".to_string(),
        "option name USI_AnalyseMode type check default false".to_string(),
        "option name Skill_Level type spin default 20 min 0 max 20".to_string(),
        format!("option name Move_Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"),
        "option name Clear_Hash type button".to_string(),
        "option name ResignWhenLost type check default false".to_string(),
        "option name AvoidRepetition type check default false".to_string(),
        "option name Mate_AllMoves type check default false".to_string(),
    ]
}

fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

fn spin(name: &str, value: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let text = value.ok_or_else(|| format!("option {name} needs a value ({min} to {max})"))?;
    match parse_number(text) {
        Some(n) if n >= min as i64 && n <= max as i64 => Ok(n as u64),
        _ => Err(format!(
            "option {name}: '{}' is not a number from {min} to {max}; keeping the old value",
            truncate(text)
        )),
    }
}

/// `Skill_Level`: 0 to 20. lishogi's worker sends Fairy-Stockfish's range (-9 and up for
/// its weakest AI levels), so a level below 0 plays as 0 rather than being refused (which
/// would leave the engine at full strength).
fn skill_level(value: Option<&str>) -> Result<Setting, String> {
    let text = value.ok_or("option Skill_Level needs a value (0 to 20)")?;
    match parse_number(text) {
        Some(n) if (-20..=20).contains(&n) => Ok(Setting::SkillLevel(n.max(0) as u8)),
        _ => Err(format!(
            "option Skill_Level: '{}' is not a number from 0 to 20; keeping the old value",
            truncate(text)
        )),
    }
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "option {name} takes true or false; keeping the old value"
        )),
    }
}

fn variant(value: Option<&str>) -> Result<Setting, String> {
    let wanted = value.unwrap_or("").trim();
    Variant::by_name(wanted)
        .map(Setting::Variant)
        .ok_or_else(|| {
            let known: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
            format!(
                "option USI_Variant: unknown variant '{}' (known: {}); keeping the old one",
                truncate(wanted),
                known.join(", ")
            )
        })
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
    let key = key(name);
    let setting = match key.as_str() {
        "usivariant" | "ucivariant" => variant(value),
        "usihash" | "hash" => {
            spin("USI_Hash", value, 1, MAX_HASH_MB as u64).map(|n| Setting::Hash(n as usize))
        }
        "threads" => {
            spin("Threads", value, 1, MAX_THREADS as u64).map(|n| Setting::Threads(n as usize))
        }
        "multipv" | "usimultipv" => {
            spin("MultiPV", value, 1, MAX_MULTIPV as u64).map(|n| Setting::MultiPv(n as usize))
        }
        "usiponder" | "ponder" => check("USI_Ponder", value).map(Setting::Ponder),
        "usianalysemode" | "ucianalysemode" => {
            check("USI_AnalyseMode", value).map(Setting::AnalyseMode)
        }
        "moveoverhead" => spin("Move_Overhead", value, 0, MAX_MOVE_OVERHEAD_MS)
            .map(|ms| Setting::MoveOverhead(Duration::from_millis(ms))),
        "clearhash" => Ok(Setting::ClearHash),
        "skilllevel" => skill_level(value),
        "resignwhenlost" => check("ResignWhenLost", value).map(Setting::ResignWhenLost),
        "avoidrepetition" => check("AvoidRepetition", value).map(Setting::AvoidRepetition),
        "mateallmoves" => check("Mate_AllMoves", value).map(|all| {
            Setting::MateMoves(if all {
                AttackerMoves::All
            } else {
                AttackerMoves::Checks
            })
        }),
        _ if key.starts_with("tune") => search_param(name, value),
        _ if QUIET.contains(&key.as_str()) => return Parsed::Accepted,
        _ => return Parsed::Unknown(name.to_string()),
    };
    match setting {
        Ok(s) => Parsed::Set(s),
        Err(message) => Parsed::Bad(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Parsed::Set(Setting::SkillLevel(0))
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
