//! The engine's options, declared once: name, aliases, type, default, range, XBoard name,
//! where the settings keep the value and what else the session does with it ([`Effect`]).
//! The session's defaults ([`super::Settings::for_protocol`]), the parsing of both
//! protocols' option commands, and USI's `option` and XBoard's `feature option` lines
//! (written by each front-end: `usi/options.rs`, `cecp/options.rs`) all come from
//! [`all`]: the hand-written [`OPTIONS`] and one `Tune_NAME` entry for every search
//! constant of [`SearchParams::TABLE`]. Adding an option is one entry in [`OPTIONS`] (and
//! the field of [`Settings`] the search reads); see docs/architecture.md. Errors are typed
//! ([`OptionError`]); each front-end words them in its own protocol.
//!
//! Names are matched without regard to case, spaces or underscores, so `Skill Level`,
//! `Skill_Level` and `skill_level` are one option. Numbers may be written as decimals
//! (`100.0`), as some GUIs send them.

use super::{Setting, Settings};
use crate::mate::AttackerMoves;
use crate::search::params::SearchParams;
use crate::search::request::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::skill;
use crate::text::{parse_number, truncate};
use crate::variant::Variant;
use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

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
pub enum OptionKind {
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

/// What the session does with a value besides keeping it in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing more: the next search reads it (during a search the session says so).
    NextSearch,
    /// Nothing more, and it needs no word during a search: it is read when the search ends
    /// (USI_Ponder, ResignWhenLost).
    AtOnce,
    /// The variant changes: the position becomes its start.
    Variant,
    /// The hash table is made anew at this size (queued to the search worker).
    ResizeHash,
    /// The thread count is cut to what the machine's cores can use, with a notice.
    Threads,
    /// The hash table and histories are forgotten (a button).
    ClearHash,
    /// A search constant of [`SearchParams::TABLE`] is given (a `Tune_NAME` option).
    SearchParam(&'static str),
}

/// One option.
#[derive(Clone, Copy)]
pub struct EngineOption {
    /// The name under USI (and in the docs).
    pub name: &'static str,
    /// Other names accepted under USI (lishogi's tools send both spellings of some).
    pub aliases: &'static [&'static str],
    /// The name in XBoard's engine settings dialog; `None` for an option XBoard sets with a
    /// command of its own (`memory`, `cores`, `variant`, `hard`) or has no use for.
    pub xboard_name: Option<&'static str>,
    /// Type, default, range.
    pub kind: OptionKind,
    /// A different default under XBoard (a check's or a spin's), if any.
    pub xboard_default: Option<i64>,
    /// Numbers accepted below `min` that count as `min` (lishogi's worker sends
    /// `Skill_Level` -9 for its weakest AI).
    pub accepted_min: Option<i64>,
    /// Whether the `usi` answer lists it (the `Tune_NAME` options are not listed, to keep
    /// GUIs' dialogs short; `shishi tune search-params` prints them).
    pub listed: bool,
    /// Where the settings keep a value (a check's as 0 or 1), already within range; `None`
    /// for the variant, buttons and search constants, which the session keeps itself.
    pub store: Option<fn(&mut Settings, i64)>,
    /// What else the session does with a value.
    pub effect: Effect,
}

impl EngineOption {
    /// The default under `protocol`, as a number (a check: 0 or 1).
    pub fn default_number(&self, protocol: Protocol) -> Option<i64> {
        let own = match self.kind {
            OptionKind::Spin { default, .. } => Some(default),
            OptionKind::Check { default } => Some(i64::from(default)),
            OptionKind::Variant | OptionKind::Button => None,
        };
        match protocol {
            Protocol::Xboard => self.xboard_default.or(own),
            Protocol::Usi => own,
        }
    }

    /// `n` within the option's range (a check: 0 or 1), the one place a value is bounded:
    /// the session bounds what front-ends give it outside the parser (XBoard's `memory`
    /// and `cores`).
    pub fn clamp(&self, n: i64) -> i64 {
        match self.kind {
            OptionKind::Spin { min, max, .. } => n.clamp(min, max),
            OptionKind::Check { .. } => i64::from(n != 0),
            OptionKind::Variant | OptionKind::Button => n,
        }
    }
}

impl fmt::Debug for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "EngineOption({})", self.name)
    }
}

/// The table's name of the hash size option (XBoard's `memory` sets it).
pub const HASH: &str = "USI_Hash";
/// The table's name of the thread count option (XBoard's `cores` sets it).
pub const THREADS: &str = "Threads";

/// A spin's kind.
const fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

/// A check's kind.
const fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

/// An entry with the usual fields: listed, no alias, no XBoard name or default, nothing
/// accepted below the range, and read by the next search.
const fn entry(
    name: &'static str,
    kind: OptionKind,
    store: fn(&mut Settings, i64),
) -> EngineOption {
    EngineOption {
        name,
        aliases: &[],
        xboard_name: None,
        kind,
        xboard_default: None,
        accepted_min: None,
        listed: true,
        store: Some(store),
        effect: Effect::NextSearch,
    }
}

/// Every option written by hand, in the order they are listed.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        aliases: &["UCI_Variant"],
        store: None,
        effect: Effect::Variant,
        ..entry("USI_Variant", OptionKind::Variant, |_, _| {})
    },
    EngineOption {
        aliases: &["Hash"],
        effect: Effect::ResizeHash,
        ..entry(HASH, spin(64, 1, 65_536), |s, n| s.hash_mb = n as usize)
    },
    EngineOption {
        effect: Effect::Threads,
        ..entry(THREADS, spin(1, 1, super::MAX_THREADS as i64), |s, n| {
            s.threads = n as usize
        })
    },
    EngineOption {
        aliases: &["MultiPV"],
        xboard_name: Some("MultiPV"),
        ..entry("USI_MultiPV", spin(1, 1, 64), |s, n| s.multipv = n as usize)
    },
    EngineOption {
        aliases: &["Ponder"],
        effect: Effect::AtOnce,
        ..entry("USI_Ponder", check(false), |s, n| s.ponder = n != 0)
    },
    EngineOption {
        aliases: &["UCI_AnalyseMode"],
        ..entry("USI_AnalyseMode", check(false), |s, n| {
            s.analyse_mode = n != 0
        })
    },
    EngineOption {
        xboard_name: Some("Skill Level"),
        accepted_min: Some(-20),
        ..entry(
            "Skill_Level",
            spin(
                skill::MAX_LEVEL as i64,
                skill::MIN_LEVEL as i64,
                skill::MAX_LEVEL as i64,
            ),
            |s, n| s.skill_level = n as i8,
        )
    },
    EngineOption {
        xboard_name: Some("Move Overhead"),
        // XBoard's GUIs on a busy desktop answer slower.
        xboard_default: Some(100),
        ..entry(
            "Move_Overhead",
            spin(DEFAULT_MOVE_OVERHEAD_MS as i64, 0, 10_000),
            |s, n| s.move_overhead = Duration::from_millis(n as u64),
        )
    },
    EngineOption {
        xboard_name: Some("Clear Hash"),
        store: None,
        effect: Effect::ClearHash,
        ..entry("Clear_Hash", OptionKind::Button, |_, _| {})
    },
    EngineOption {
        effect: Effect::AtOnce,
        ..entry("ResignWhenLost", check(false), |s, n| {
            s.resign_when_lost = n != 0
        })
    },
    EngineOption {
        xboard_name: Some("AvoidRepetition"),
        // HaChu, the usual opponent under XBoard, takes any repetition as an illegal move.
        xboard_default: Some(1),
        ..entry("AvoidRepetition", check(false), |s, n| {
            s.avoid_repetition = n != 0
        })
    },
    // For a page that shows the engine's line to a chu player (web/play): the line in
    // KIF notation too, after each info line with a pv.
    entry("KIF_PV", check(false), |s, n| s.kif_pv = n != 0),
    entry("Mate_AllMoves", check(false), |s, n| {
        s.mate_moves = if n != 0 {
            AttackerMoves::All
        } else {
            AttackerMoves::Checks
        }
    }),
];

/// Every option: [`OPTIONS`], then a `Tune_NAME` for each search constant (made once).
pub fn all() -> &'static [EngineOption] {
    static ALL: OnceLock<Vec<EngineOption>> = OnceLock::new();
    ALL.get_or_init(|| {
        let tune = SearchParams::TABLE
            .iter()
            .map(|&(param, default, min, max)| EngineOption {
                // Made once for the life of the program, so the name may live as long.
                name: format!("Tune_{param}").leak(),
                listed: false,
                store: None,
                effect: Effect::SearchParam(param),
                ..entry("", spin(default, min, max), |_, _| {})
            });
        OPTIONS.iter().copied().chain(tune).collect()
    })
}

/// The option of exactly this table name (as a [`Setting`] names it).
pub fn named(name: &str) -> Option<&'static EngineOption> {
    all().iter().find(|o| o.name == name)
}

/// Why an option value was not taken (the old value stays).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// (Its message names the option as the table has it: `USI_Variant` for a variant.)
pub enum OptionError {
    /// No option of that name.
    #[error("{}", self.message(self.table_name()))]
    Unknown(String),
    /// A spin, check or combo without a value.
    #[error("{}", self.message(self.table_name()))]
    NeedsValue {
        /// The option.
        name: &'static str,
    },
    /// A number out of range or no number.
    #[error("{}", self.message(self.table_name()))]
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
    #[error("{}", self.message(self.table_name()))]
    NotOnOff {
        /// The option.
        name: &'static str,
    },
    /// A variant the engine does not play.
    #[error("{}", self.message(self.table_name()))]
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

impl OptionError {
    /// The option's name as the table has it (`USI_Variant` for a variant).
    fn table_name(&self) -> &str {
        match self {
            OptionError::UnknownVariant(_) => "USI_Variant",
            _ => self.name(),
        }
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
/// dialog name, or the USI name of an option in the dialog).
pub fn find(name: &str, protocol: Protocol) -> Option<&'static EngineOption> {
    let wanted = key(name);
    all().iter().find(|o| {
        let usi = key(o.name) == wanted || o.aliases.iter().any(|a| key(a) == wanted);
        match protocol {
            Protocol::Usi => usi,
            Protocol::Xboard => {
                o.xboard_name.is_some_and(|x| key(x) == wanted) || (usi && o.xboard_name.is_some())
            }
        }
    })
}

/// The setting for `value` of `option`, checked against its type and range.
pub fn parse(option: &'static EngineOption, value: Option<&str>) -> Result<Setting, OptionError> {
    let name = option.name;
    let number = match option.kind {
        OptionKind::Button => return Ok(Setting::Press(name)),
        OptionKind::Variant => {
            let text = value.ok_or(OptionError::NeedsValue { name })?.trim();
            return Variant::by_name(text)
                .map(Setting::Variant)
                .ok_or_else(|| OptionError::UnknownVariant(text.to_string()));
        }
        OptionKind::Spin { min, max, .. } => {
            let text = value.ok_or(OptionError::NeedsValue { name })?;
            let low = option.accepted_min.unwrap_or(min);
            match parse_number(text) {
                Some(n) if (low..=max).contains(&n) => n.max(min),
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
        OptionKind::Check { .. } => {
            let text = value.ok_or(OptionError::NeedsValue { name })?;
            match text.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => 1,
                "false" | "0" => 0,
                _ => return Err(OptionError::NotOnOff { name }),
            }
        }
    };
    Ok(Setting::Value(name, number))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_and_errors_typed() {
        let skill = find("skill level", Protocol::Usi).unwrap();
        assert_eq!(
            parse(skill, Some("5")),
            Ok(Setting::Value("Skill_Level", 5))
        );
        assert_eq!(
            parse(skill, Some("-9")),
            Ok(Setting::Value("Skill_Level", -9))
        );
        assert_eq!(
            parse(skill, Some("-15")),
            Ok(Setting::Value("Skill_Level", -9))
        );
        assert!(matches!(
            parse(skill, Some("21")),
            Err(OptionError::NotANumber { max: 20, .. })
        ));
        let avoid = find("AvoidRepetition", Protocol::Xboard).unwrap();
        assert_eq!(
            parse(avoid, Some("0")),
            Ok(Setting::Value("AvoidRepetition", 0))
        );
        assert_eq!(
            parse(avoid, Some("maybe")),
            Err(OptionError::NotOnOff {
                name: "AvoidRepetition"
            })
        );
        // Every option the XBoard dialog names is found by that name, and no USI-only one.
        assert!(find("Skill Level", Protocol::Xboard).is_some());
        assert!(find("USI_Hash", Protocol::Xboard).is_none());
        assert!(find("hash", Protocol::Usi).is_some());
    }

    #[test]
    fn every_search_constant_is_a_tune_option_with_its_range() {
        assert_eq!(all().len(), OPTIONS.len() + SearchParams::TABLE.len());
        for &(param, default, min, max) in SearchParams::TABLE {
            let option = find(&format!("tune_{param}"), Protocol::Usi).expect(param);
            assert_eq!(option.effect, Effect::SearchParam(param));
            assert_eq!(option.kind, spin(default, min, max));
            assert!(!option.listed);
            assert_eq!(
                parse(option, Some(&max.to_string())),
                Ok(Setting::Value(option.name, max))
            );
            assert!(parse(option, Some(&(max + 1).to_string())).is_err());
        }
    }

    #[test]
    fn session_defaults_are_the_tables() {
        for protocol in [Protocol::Usi, Protocol::Xboard] {
            let defaults = Settings::for_protocol(protocol);
            for option in all() {
                let (Some(store), Some(default)) = (option.store, option.default_number(protocol))
                else {
                    continue;
                };
                // Its default is what the settings hold: storing it again changes nothing,
                // and storing another value does change them.
                let mut again = defaults;
                store(&mut again, default);
                assert_eq!(again, defaults, "{} {protocol:?}", option.name);
                let other = match option.kind {
                    OptionKind::Spin { min, max, .. } => {
                        if default == max {
                            min
                        } else {
                            max
                        }
                    }
                    _ => 1 - default,
                };
                store(&mut again, other);
                assert_ne!(again, defaults, "{} {protocol:?}", option.name);
            }
        }
        let usi = Settings::for_protocol(Protocol::Usi);
        let xboard = Settings::for_protocol(Protocol::Xboard);
        assert_eq!(
            (
                usi.move_overhead,
                usi.avoid_repetition,
                usi.hash_mb,
                usi.skill_level
            ),
            (Duration::from_millis(10), false, 64, 20)
        );
        assert_eq!(
            (xboard.move_overhead, xboard.avoid_repetition),
            (Duration::from_millis(100), true)
        );
    }

    #[test]
    fn names_are_unique_and_defaults_within_range() {
        for (i, a) in all().iter().enumerate() {
            for b in &all()[i + 1..] {
                assert_ne!(key(a.name), key(b.name), "{} and {}", a.name, b.name);
            }
            for protocol in [Protocol::Usi, Protocol::Xboard] {
                if let Some(n) = a.default_number(protocol) {
                    assert_eq!(a.clamp(n), n, "{} {protocol:?}", a.name);
                }
            }
            // A value kept in the settings or handled by the session, never neither.
            assert_eq!(
                a.store.is_some(),
                matches!(
                    a.effect,
                    Effect::NextSearch | Effect::AtOnce | Effect::ResizeHash | Effect::Threads
                ),
                "{}",
                a.name
            );
        }
    }
}
