//! The USI options: their `option` lines and the parsing of `setoption` values.
//!
//! Names are matched without regard to case, spaces or underscores, so `Move Overhead`,
//! `Move_Overhead` and `move_overhead` are one option; `Hash`/`USI_Hash` and
//! `MultiPV`/`USI_MultiPV` are aliases, as lishogi's tools send both spellings. Options the
//! engine does not use (`USI_AnalyseMode`, `Skill_Level`, ...) are accepted and ignored.

use crate::variant::Variant;

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest hash size accepted, in MB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 512;
/// Most MultiPV lines.
pub const MAX_MULTIPV: usize = 64;
/// Default move overhead in ms.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;

/// A parsed `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// `USI_Variant`.
    Variant(&'static str),
    /// `USI_Hash` / `Hash`, in MB.
    Hash(usize),
    /// `Threads`.
    Threads(usize),
    /// `MultiPV` / `USI_MultiPV`.
    MultiPv(usize),
    /// `USI_Ponder`.
    Ponder(bool),
    /// `Move Overhead`, in ms.
    MoveOverhead(u64),
    /// `Clear Hash` (button).
    ClearHash,
    /// `ResignWhenLost`: answer `bestmove resign` in a position proven lost.
    Resign(bool),
    /// `AvoidRepetition`: do not repeat an earlier position when another move exists (for
    /// games against engines that call a repetition illegal, such as HaChu).
    AvoidRepetition(bool),
    /// An option the engine does not have.
    Ignored(String),
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
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name USI_Ponder type check default false".to_string(),
        format!("option name Move_Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 10000"),
        "option name Clear_Hash type button".to_string(),
        "option name ResignWhenLost type check default false".to_string(),
        "option name AvoidRepetition type check default false".to_string(),
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
    match text.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "option {name}: '{}' is not a number from {min} to {max}; keeping the old value",
            super::command::truncate(text)
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

/// Parses `setoption name NAME value VALUE`.
pub fn parse(name: &str, value: Option<&str>) -> Result<OptionChange, String> {
    match key(name).as_str() {
        "usivariant" | "ucivariant" => {
            let wanted = value.unwrap_or("").trim();
            Variant::by_name(wanted)
                .map(|v| OptionChange::Variant(v.name()))
                .ok_or_else(|| {
                    let known: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
                    format!(
                        "option USI_Variant: unknown variant '{}' (known: {}); keeping the old one",
                        super::command::truncate(wanted),
                        known.join(", ")
                    )
                })
        }
        "usihash" | "hash" => {
            spin("USI_Hash", value, 1, MAX_HASH_MB as u64).map(|n| OptionChange::Hash(n as usize))
        }
        "threads" => {
            spin("Threads", value, 1, MAX_THREADS as u64).map(|n| OptionChange::Threads(n as usize))
        }
        "multipv" | "usimultipv" => {
            spin("MultiPV", value, 1, MAX_MULTIPV as u64).map(|n| OptionChange::MultiPv(n as usize))
        }
        "usiponder" | "ponder" => check("USI_Ponder", value).map(OptionChange::Ponder),
        "moveoverhead" => spin("Move_Overhead", value, 0, 10_000).map(OptionChange::MoveOverhead),
        "clearhash" => Ok(OptionChange::ClearHash),
        "resignwhenlost" => check("ResignWhenLost", value).map(OptionChange::Resign),
        "avoidrepetition" => check("AvoidRepetition", value).map(OptionChange::AvoidRepetition),
        _ => Ok(OptionChange::Ignored(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_and_bad_values() {
        assert_eq!(parse("USI_Hash", Some("128")), Ok(OptionChange::Hash(128)));
        assert_eq!(parse("Hash", Some("128")), Ok(OptionChange::Hash(128)));
        assert_eq!(
            parse("USI_MultiPV", Some("3")),
            Ok(OptionChange::MultiPv(3))
        );
        assert_eq!(
            parse("Move Overhead", Some("100")),
            Ok(OptionChange::MoveOverhead(100))
        );
        assert_eq!(parse("Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(
            parse("USI_Variant", Some("shoshogi")),
            Ok(OptionChange::Variant("shoshogi"))
        );
        assert_eq!(
            parse("USI_AnalyseMode", Some("true")),
            Ok(OptionChange::Ignored("USI_AnalyseMode".into()))
        );
        assert!(parse("Threads", Some("0")).is_err());
        assert!(parse("Threads", Some("many")).is_err());
        assert!(parse("USI_Hash", None).is_err());
        assert!(parse("USI_Variant", Some("daishogi"))
            .unwrap_err()
            .contains("known: chushogi, shoshogi"));
        assert!(parse("USI_Ponder", Some("maybe")).is_err());
    }
}
