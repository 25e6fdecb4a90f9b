//! What the engine says to XBoard beyond `move`: its features, its thinking lines, the
//! result line, and the colour FEN of the board markers.

use super::options;
use crate::core::score::mate_plies;
use crate::core::Square;
use crate::position::{Outcome, Position};
use crate::records::xboard::pv_text;
use crate::search::{Info, Observer};
use crate::session::io::Output;
use crate::variant::Variant;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The answer to `protover 2`: the features, the options of XBoard's engine settings
/// dialog (the session's option table), and `feature done=1`.
pub fn features() -> Vec<String> {
    let name = format!("Shishi {}", env!("CARGO_PKG_VERSION"));
    let variants: Vec<&str> = Variant::all()
        .iter()
        .map(|v| v.spec.xboard.names[0])
        .collect();
    let mut lines = vec![format!(
        "feature ping=1 setboard=1 usermove=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 \
         highlight=1 analyze=1 myname=\"{name}\" variants=\"{}\"",
        variants.join(",")
    )];
    lines.extend(options::feature_lines());
    lines.push("feature done=1".to_string());
    lines
}

/// XBoard's thinking output: `ply score time(cs) nodes pv`, exact scores only (a mate as
/// 100000 + moves).
pub struct Thinking {
    /// Where the lines go.
    pub out: Arc<Output>,
    /// The position searched (for the PV's notation).
    pub pos: Position,
    /// Whether to print at all (`post`, or analysis).
    pub show: bool,
}

impl Observer for Thinking {
    fn info(&self, info: &Info) {
        if !self.show || info.bound.is_some() {
            return;
        }
        self.out.line(&thinking_line(&self.pos, info));
    }
}

/// One thinking line.
fn thinking_line(pos: &Position, info: &Info) -> String {
    let score = match mate_plies(info.score) {
        Some(p) if p > 0 => 100_000 + (p + 1) / 2,
        Some(p) => -100_000 - (-p + 1) / 2,
        None => info.score,
    };
    let cs = info.time.as_millis() / 10;
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        cs,
        info.nodes,
        pv_text(pos, &info.pv)
    )
}

/// The CECP result line for an outcome (sente is XBoard's white: `1-0` when sente wins).
pub fn result_line(outcome: Outcome) -> String {
    format!(
        "{} {{{}}}",
        crate::records::GameResult::won_by(outcome.winner),
        outcome.reason.describe()
    )
}

/// A COLORFEN: ranks from the top (XBoard's highest rank first), digits for unmarked squares.
pub fn color_fen(variant: &Variant, marks: &BTreeMap<Square, char>) -> String {
    let mut rows = Vec::new();
    for y in 0..variant.spec.ranks {
        let mut row = String::new();
        let mut empty = 0;
        for x in 0..variant.spec.files {
            match marks.get(&Square::new(x, y)) {
                Some(&c) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::score::{mate_in, mated_in};
    use crate::core::Color;
    use crate::position::OutcomeReason;
    use std::time::Duration;

    #[test]
    fn features_name_every_variant_and_end_with_done() {
        let lines = features();
        assert!(lines[0].starts_with("feature ping=1 setboard=1 usermove=1 memory=1"));
        assert!(lines[0].contains("variants=\"chu,shogi\""), "{}", lines[0]);
        assert!(lines.iter().any(|l| l.starts_with("feature option=")));
        assert_eq!(lines.last().unwrap(), "feature done=1");
    }

    #[test]
    fn thinking_lines_give_centiseconds_and_mates_as_xboard_wants() {
        let mut pos = Position::startpos(Variant::chu());
        let pawn_step = pos.parse_usi_path("7i7h").unwrap();
        let mut info = Info {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 35,
            bound: None,
            nodes: 12_345,
            time: Duration::from_millis(1_239),
            hashfull: 0,
            pv: vec![pawn_step],
        };
        assert_eq!(thinking_line(&pos, &info), "7 35 123 12345 f4f5");
        info.score = mate_in(3);
        assert!(thinking_line(&pos, &info).starts_with("7 100002 "));
        info.score = mated_in(4);
        assert!(thinking_line(&pos, &info).starts_with("7 -100002 "));
    }

    #[test]
    fn result_lines_and_colour_fens() {
        let won = Outcome {
            winner: Some(Color::Gote),
            reason: OutcomeReason::RoyalCaptured,
        };
        assert_eq!(result_line(won), "0-1 {royal captured}");
        let variant = Variant::chu();
        let marks = BTreeMap::from([(Square::new(0, 0), 'R'), (Square::new(11, 11), 'Y')]);
        let fen = color_fen(variant, &marks);
        assert!(fen.starts_with("R11/12/"), "{fen}");
        assert!(fen.ends_with("/11Y"), "{fen}");
    }
}
