//! The engine's options, declared once: name, type, default, range, which protocols list
//! them, and the [`Setting`] a value becomes. USI's `option` lines, XBoard's `feature
//! option` lines, the parsing of both protocols' option commands and the session's
//! defaults all come from [`OPTIONS`] (as `search/params.rs` declares the search
//! constants). Errors are typed ([`OptionError`]); each front-end words them in its own
//! protocol.
//!
//! Names are matched without regard to case, spaces or underscores, so `Skill Level`,
//! `Skill_Level` and `skill_level` are one option. Numbers may be written as decimals
//! (`100.0`), as some GUIs send them.

use super::text::{parse_number, truncate};
use super::{Setting, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS};
use crate::mate::AttackerMoves;
use crate::variant::Variant;
use std::fmt;
use std::time::Duration;

/// Default hash size in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Default move overhead in ms under USI: what a local pipe costs, with room to spare
/// (Stockfish's default too). Main time is shared out after setting it aside for every
/// expected move, so 50 ms left a 5 s + 0.05 s game little more than the increment to think
/// with; a bot on a network sets more (protocol-docs/lishogi.md: 300).
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = 10;
/// Default move overhead in ms under XBoard, whose GUIs on a busy desktop answer slower.
pub const XBOARD_MOVE_OVERHEAD_MS: i64 = 100;
/// Largest move overhead in ms.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 10_000;

/// The protocols, for what differs between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// USI (lishogi, shogi GUIs).
    Usi,
    /// XBoard / WinBoard (CECP).
    Xboard,
}

/// An option's type, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Spin {
        /// The value a session starts with.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// On or off.
    Check {
        /// The state a session starts with.
        default: bool,
    },
    /// One of the variants (USI_Variant); the default is the session's.
    Variant,
    /// An action with no value.
    Button,
}

/// A value given to an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's number.
    Number(i64),
    /// A check's state.
    Flag(bool),
    /// A variant.
    Variant(&'static Variant),
    /// A button press.
    Press,
}

/// One option.
pub struct EngineOption {
    /// The name under USI (and in the docs).
    pub name: &'static str,
    /// Other names accepted under USI (lishogi's tools send both spellings of some).
    pub aliases: &'static [&'static str],
    /// The name in XBoard's engine settings dialog; `None` for an option XBoard sets with a
    /// command of its own (`memory`, `cores`, `variant`, `hard`) or has no use for.
    pub xboard_name: Option<&'static str>,
    /// Type, default, range.
    pub kind: Kind,
    /// A different default under XBoard (a check's or a spin's), if any.
    pub xboard_default: Option<i64>,
    /// Numbers accepted below `min` that count as `min` (lishogi's worker sends
    /// `Skill_Level` -9 for its weakest AI).
    pub accepted_min: Option<i64>,
    /// The session's change for a value.
    pub apply: fn(Value) -> Setting,
}

impl EngineOption {
    /// The default under `protocol`, as a number (a check: 0 or 1).
    pub fn default_number(&self, protocol: Protocol) -> Option<i64> {
        let own = match self.kind {
            Kind::Spin { default, .. } => Some(default),
            Kind::Check { default } => Some(i64::from(default)),
            Kind::Variant | Kind::Button => None,
        };
        match protocol {
            Protocol::Xboard => self.xboard_default.or(own),
            Protocol::Usi => own,
        }
    }
}

/// Every option, in the order they are listed.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        name: "USI_Variant",
        aliases: &["UCI_Variant"],
        xboard_name: None,
        kind: Kind::Variant,
        xboard_default: None,
        accepted_min: None,
        apply: |v| match v {
            Value::Variant(v) => Setting::Variant(v),
            _ => unreachable!("a variant option gets a variant"),
        },
    },
    EngineOption {
        name: "USI_Hash",
        aliases: &["Hash"],
        xboard_name: None,
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::Hash(number(v) as usize),
    },
    EngineOption {
        name: "Threads",
        aliases: &[],
        xboard_name: None,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::Threads(number(v) as usize),
    },
    EngineOption {
        name: "USI_MultiPV",
        aliases: &["MultiPV"],
        xboard_name: Some("MultiPV"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as i64,
        },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::MultiPv(number(v) as usize),
    },
    EngineOption {
        name: "USI_Ponder",
        aliases: &["Ponder"],
        xboard_name: None,
        kind: Kind::Check { default: false },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::Ponder(flag(v)),
    },
    EngineOption {
        name: "USI_AnalyseMode",
        aliases: &["UCI_AnalyseMode"],
        xboard_name: None,
        kind: Kind::Check { default: false },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::AnalyseMode(flag(v)),
    },
    EngineOption {
        name: "Skill_Level",
        aliases: &[],
        xboard_name: Some("Skill Level"),
        kind: Kind::Spin {
            default: crate::search::skill::MAX_LEVEL as i64,
            min: crate::search::skill::MIN_LEVEL as i64,
            max: crate::search::skill::MAX_LEVEL as i64,
        },
        xboard_default: None,
        accepted_min: Some(-20),
        apply: |v| {
            let level = number(v).clamp(
                crate::search::skill::MIN_LEVEL as i64,
                crate::search::skill::MAX_LEVEL as i64,
            );
            Setting::SkillLevel(level as i8)
        },
    },
    EngineOption {
        name: "Move_Overhead",
        aliases: &[],
        xboard_name: Some("Move Overhead"),
        kind: Kind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
        xboard_default: Some(XBOARD_MOVE_OVERHEAD_MS),
        accepted_min: None,
        apply: |v| Setting::MoveOverhead(Duration::from_millis(number(v).max(0) as u64)),
    },
    EngineOption {
        name: "Clear_Hash",
        aliases: &[],
        xboard_name: Some("Clear Hash"),
        kind: Kind::Button,
        xboard_default: None,
        accepted_min: None,
        apply: |_| Setting::ClearHash,
    },
    EngineOption {
        name: "ResignWhenLost",
        aliases: &[],
        xboard_name: None,
        kind: Kind::Check { default: false },
        xboard_default: None,
        accepted_min: None,
        apply: |v| Setting::ResignWhenLost(flag(v)),
    },
    EngineOption {
        name: "AvoidRepetition",
        aliases: &[],
        xboard_name: Some("AvoidRepetition"),
        kind: Kind::Check { default: false },
        // HaChu, the usual opponent under XBoard, takes any repetition as an illegal move.
        xboard_default: Some(1),
        accepted_min: None,
        apply: |v| Setting::AvoidRepetition(flag(v)),
    },
    EngineOption {
        name: "Mate_AllMoves",
        aliases: &[],
        xboard_name: None,
        kind: Kind::Check { default: false },
        xboard_default: None,
        accepted_min: None,
        apply: |v| {
            Setting::MateMoves(if flag(v) {
                AttackerMoves::All
            } else {
                AttackerMoves::Checks
            })
        },
    },
];

fn number(v: Value) -> i64 {
    match v {
        Value::Number(n) => n,
        _ => unreachable!("a spin gets a number"),
    }
}

fn flag(v: Value) -> bool {
    match v {
        Value::Flag(on) => on,
        _ => unreachable!("a check gets a flag"),
    }
}

/// Why an option value was not taken (the old value stays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name.
    Unknown(String),
    /// A spin, check or combo without a value.
    NeedsValue {
        /// The option.
        name: &'static str,
    },
    /// A number out of range or no number.
    NotANumber {
        /// The option.
        name: &'static str,
        /// What was given.
        text: String,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// A check given something other than true/false (or 1/0).
    NotOnOff {
        /// The option.
        name: &'static str,
    },
    /// A variant the engine does not play.
    UnknownVariant(String),
}

impl OptionError {
    /// The message, naming the option `shown` (a front-end's own name for it: XBoard's
    /// dialog name, USI's option name).
    pub fn message(&self, shown: &str) -> String {
        match self {
            OptionError::Unknown(name) => format!("no option {}", truncate(name)),
            OptionError::NeedsValue { .. } => format!("option {shown} needs a value"),
            OptionError::NotANumber { text, min, max, .. } => format!(
                "option {shown}: '{}' is not a number from {min} to {max}; keeping the old value",
                truncate(text)
            ),
            OptionError::NotOnOff { .. } => {
                format!("option {shown} takes true or false; keeping the old value")
            }
            OptionError::UnknownVariant(text) => {
                let known: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
                format!(
                    "option {shown}: unknown variant '{}' (known: {}); keeping the old one",
                    truncate(text),
                    known.join(", ")
                )
            }
        }
    }

    /// The option's name as the table has it.
    fn name(&self) -> &str {
        match self {
            OptionError::Unknown(name) | OptionError::UnknownVariant(name) => name,
            OptionError::NeedsValue { name }
            | OptionError::NotANumber { name, .. }
            | OptionError::NotOnOff { name } => name,
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let name = match self {
            OptionError::UnknownVariant(_) => "USI_Variant",
            _ => self.name(),
        };
        f.write_str(&self.message(name))
    }
}

/// The name as matched: lower case, without spaces and underscores.
pub fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The option a name means under `protocol` (USI: its name or an alias; XBoard: its
/// dialog name, or the USI name).
pub fn find(name: &str, protocol: Protocol) -> Option<&'static EngineOption> {
    let wanted = key(name);
    OPTIONS.iter().find(|o| {
        let usi = key(o.name) == wanted || o.aliases.iter().any(|a| key(a) == wanted);
        match protocol {
            Protocol::Usi => usi,
            Protocol::Xboard => {
                o.xboard_name.is_some_and(|x| key(x) == wanted) || (usi && o.xboard_name.is_some())
            }
        }
    })
}

/// The setting for `value` of `option`.
pub fn parse(option: &EngineOption, value: Option<&str>) -> Result<Setting, OptionError> {
    let name = option.name;
    let value = match option.kind {
        Kind::Button => Value::Press,
        Kind::Spin { min, max, .. } => {
            let text = value.ok_or(OptionError::NeedsValue { name })?;
            let low = option.accepted_min.unwrap_or(min);
            match parse_number(text) {
                Some(n) if (low..=max).contains(&n) => Value::Number(n.max(min)),
                _ => {
                    return Err(OptionError::NotANumber {
                        name,
                        text: text.to_string(),
                        min,
                        max,
                    })
                }
            }
        }
        Kind::Check { .. } => {
            let text = value.ok_or(OptionError::NeedsValue { name })?;
            match text.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Value::Flag(true),
                "false" | "0" => Value::Flag(false),
                _ => return Err(OptionError::NotOnOff { name }),
            }
        }
        Kind::Variant => {
            let text = value.ok_or(OptionError::NeedsValue { name })?.trim();
            Value::Variant(
                Variant::by_name(text)
                    .ok_or_else(|| OptionError::UnknownVariant(text.to_string()))?,
            )
        }
    };
    Ok((option.apply)(value))
}

/// The settings that differ from the USI defaults under `protocol`, to apply when a session
/// starts.
pub fn protocol_defaults(protocol: Protocol) -> Vec<Setting> {
    OPTIONS
        .iter()
        .filter(|o| o.xboard_default.is_some() && protocol == Protocol::Xboard)
        .filter_map(|o| {
            let n = o.default_number(protocol)?;
            let value = match o.kind {
                Kind::Check { .. } => Value::Flag(n != 0),
                _ => Value::Number(n),
            };
            Some((o.apply)(value))
        })
        .collect()
}

/// The USI `option` lines, the variant combo's default being `variant`.
pub fn usi_lines(variant: &str) -> Vec<String> {
    OPTIONS
        .iter()
        .map(|o| {
            let name = o.name;
            match o.kind {
                Kind::Spin { default, min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}")
                }
                Kind::Check { default } => {
                    format!("option name {name} type check default {default}")
                }
                Kind::Variant => {
                    let vars: String = Variant::all()
                        .iter()
                        .map(|v| format!(" var {}", v.name()))
                        .collect();
                    format!("option name {name} type combo default {variant}{vars}")
                }
                Kind::Button => format!("option name {name} type button"),
            }
        })
        .collect()
}

/// XBoard's `feature option="..."` lines (protocol 2), with XBoard's defaults.
pub fn xboard_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|o| {
            let name = o.xboard_name?;
            let default = o.default_number(Protocol::Xboard);
            Some(match o.kind {
                Kind::Spin { min, max, .. } => format!(
                    "feature option=\"{name} -spin {} {min} {max}\"",
                    default.unwrap_or(min)
                ),
                Kind::Check { .. } => {
                    format!("feature option=\"{name} -check {}\"", default.unwrap_or(0))
                }
                Kind::Button => format!("feature option=\"{name} -button\""),
                Kind::Variant => return None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_gives_both_protocols_their_lines() {
        let usi = usi_lines("chushogi");
        assert!(
            usi.contains(&"option name Skill_Level type spin default 20 min -9 max 20".to_string())
        );
        assert!(usi.contains(&"option name AvoidRepetition type check default false".to_string()));
        assert!(usi.contains(
            &"option name USI_Variant type combo default chushogi var chushogi var shoshogi"
                .to_string()
        ));
        let xboard = xboard_lines();
        assert_eq!(
            xboard,
            [
                "feature option=\"MultiPV -spin 1 1 64\"",
                "feature option=\"Skill Level -spin 20 -9 20\"",
                "feature option=\"Move Overhead -spin 100 0 10000\"",
                "feature option=\"Clear Hash -button\"",
                "feature option=\"AvoidRepetition -check 1\"",
            ]
        );
        // Every option the XBoard lines name is found by that name, and no USI-only one.
        assert!(find("Skill Level", Protocol::Xboard).is_some());
        assert!(find("USI_Hash", Protocol::Xboard).is_none());
        assert!(find("hash", Protocol::Usi).is_some());
    }

    #[test]
    fn values_are_checked_and_errors_typed() {
        let skill = find("skill level", Protocol::Usi).unwrap();
        assert_eq!(parse(skill, Some("5")), Ok(Setting::SkillLevel(5)));
        assert_eq!(parse(skill, Some("-9")), Ok(Setting::SkillLevel(-9)));
        assert_eq!(parse(skill, Some("-15")), Ok(Setting::SkillLevel(-9)));
        assert!(matches!(
            parse(skill, Some("21")),
            Err(OptionError::NotANumber { max: 20, .. })
        ));
        let avoid = find("AvoidRepetition", Protocol::Xboard).unwrap();
        assert_eq!(parse(avoid, Some("0")), Ok(Setting::AvoidRepetition(false)));
        assert_eq!(
            parse(avoid, Some("maybe")),
            Err(OptionError::NotOnOff {
                name: "AvoidRepetition"
            })
        );
        assert_eq!(
            protocol_defaults(Protocol::Xboard),
            [
                Setting::MoveOverhead(Duration::from_millis(100)),
                Setting::AvoidRepetition(true)
            ]
        );
        assert!(protocol_defaults(Protocol::Usi).is_empty());
    }
}
