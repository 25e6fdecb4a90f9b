//! XBoard's engine settings dialog: the `feature option="..."` lines, written from the
//! session's option table (the options with an XBoard name, with XBoard's defaults).

use crate::session::options::{self as table, OptionKind, Protocol};

/// XBoard's `feature option="..."` lines (protocol 2).
pub fn feature_lines() -> Vec<String> {
    table::all()
        .iter()
        .filter_map(|o| {
            let name = o.xboard_name?;
            let default = o.default_number(Protocol::Xboard);
            Some(match o.kind {
                OptionKind::Spin { min, max, .. } => format!(
                    "feature option=\"{name} -spin {} {min} {max}\"",
                    default.unwrap_or(min)
                ),
                OptionKind::Check { .. } => {
                    format!("feature option=\"{name} -check {}\"", default.unwrap_or(0))
                }
                OptionKind::Button => format!("feature option=\"{name} -button\""),
                OptionKind::Variant => return None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialog_lists_the_options_with_an_xboard_name() {
        assert_eq!(
            feature_lines(),
            [
                "feature option=\"MultiPV -spin 1 1 64\"",
                "feature option=\"Skill Level -spin 20 -9 20\"",
                "feature option=\"Move Overhead -spin 100 0 10000\"",
                "feature option=\"Clear Hash -button\"",
                "feature option=\"AvoidRepetition -check 1\"",
            ]
        );
    }
}
