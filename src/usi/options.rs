//! The USI options: their `option` lines, written from the session's option table, and
//! the parsing of `setoption` into session [`Setting`]s.
//!
//! Names are matched without regard to case, spaces or underscores, so `Move Overhead`,
//! `Move_Overhead` and `move_overhead` are one option; `Hash`/`USI_Hash` and
//! `MultiPV`/`USI_MultiPV` are aliases, as lishogi's tools send both spellings. Numbers
//! may be written as decimals (`100.0`). Options the real clients send that the engine
//! does not use are accepted quietly; other unknown names are reported and ignored.

use crate::session::options::{self as table, OptionKind, Protocol};
use crate::session::Setting;
use crate::text::truncate;
use crate::variant::Variant;

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

/// The `option` lines answered to `usi`, one for each listed option of the table; the
/// variant combo's default is `variant`, the session's.
pub fn option_lines(variant: &str) -> Vec<String> {
    table::all()
        .iter()
        .filter(|o| o.listed)
        .map(|o| {
            let name = o.name;
            match o.kind {
                OptionKind::Spin { default, min, max } => {
                    format!("option name {name} type spin default {default} min {min} max {max}")
                }
                OptionKind::Check { default } => {
                    format!("option name {name} type check default {default}")
                }
                OptionKind::Variant => {
                    let vars: String = Variant::all()
                        .iter()
                        .map(|v| format!(" var {}", v.name()))
                        .collect();
                    format!("option name {name} type combo default {variant}{vars}")
                }
                OptionKind::Button => format!("option name {name} type button"),
            }
        })
        .collect()
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
        return Parsed::Bad(format!(
            "option {}: no such search parameter (shishi tune search-params lists them)",
            truncate(name)
        ));
    }
    if QUIET.contains(&key.as_str()) {
        return Parsed::Accepted;
    }
    Parsed::Unknown(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_come_from_the_table() {
        let usi = option_lines("chushogi");
        for line in [
            "option name Skill_Level type spin default 20 min -9 max 20",
            "option name AvoidRepetition type check default false",
            "option name USI_Variant type combo default chushogi var chushogi var shoshogi",
            "option name Move_Overhead type spin default 10 min 0 max 10000",
            "option name Clear_Hash type button",
        ] {
            assert!(usi.contains(&line.to_string()), "{line}");
        }
        assert_eq!(
            usi.len(),
            table::OPTIONS.len(),
            "the Tune_ options are not listed"
        );
    }

    #[test]
    fn aliases_decimals_and_bad_values() {
        let value = |name, n| Parsed::Set(Setting::Value(name, n));
        assert_eq!(parse("USI_Hash", Some("128")), value("USI_Hash", 128));
        assert_eq!(parse("Hash", Some("128.0")), value("USI_Hash", 128));
        assert_eq!(parse("USI_MultiPV", Some("3")), value("USI_MultiPV", 3));
        assert_eq!(
            parse("Move Overhead", Some("100")),
            value("Move_Overhead", 100)
        );
        assert_eq!(
            parse("Clear Hash", None),
            Parsed::Set(Setting::Press("Clear_Hash"))
        );
        assert_eq!(
            parse("USI_Variant", Some("shoshogi")),
            Parsed::Set(Setting::Variant(Variant::sho()))
        );
        assert_eq!(
            parse("USI_AnalyseMode", Some("true")),
            value("USI_AnalyseMode", 1)
        );
        assert_eq!(parse("Skill Level", Some("5")), value("Skill_Level", 5));
        assert_eq!(parse("Skill_Level", Some("-9")), value("Skill_Level", -9));
        assert!(matches!(parse("Skill_Level", Some("21")), Parsed::Bad(_)));
        assert_eq!(parse("Tune_lmp_base", Some("4")), value("Tune_lmp_base", 4));
        assert!(matches!(
            parse("Tune_lmp_base", Some("-1000")),
            Parsed::Bad(_)
        ));
        let Parsed::Bad(message) = parse("Tune_no_such", Some("1")) else {
            panic!("an unknown search constant is an error")
        };
        assert!(message.contains("shishi tune search-params"), "{message}");
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
