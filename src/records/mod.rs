//! Game records, one home for every format: JSON lines like lishogi's export (here: the
//! [`GameRecord`], with `variant`, `initialSfen`, `moves` as one space-separated USI string,
//! plus result and reason), KIF as lishogi writes and reads it ([`kif`]), PGN with the
//! engines' comments ([`pgn`]) and XBoard's move notation ([`xboard`]). The match runner,
//! the analysis and the tuner read and write games only through this module.

pub mod error;
pub mod kif;
pub mod pgn;
pub mod text_file;
pub mod xboard;

use crate::position::Position;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

pub use error::{KifError, KifProblem, RecordError};
pub use kif::{kif_line, kif_line_marked, to_kif, to_kif_with_header};
pub use pgn::to_pgn;
pub use text_file::decode_text;

/// A variant in JSON: its name.
mod variant_name {
    use crate::variant::Variant;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(variant: &&'static Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(variant.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static Variant, D::Error> {
        let name = String::deserialize(d)?;
        Variant::by_name(&name).ok_or_else(|| {
            let known: Vec<&str> = Variant::all().iter().map(|v| v.name()).collect();
            serde::de::Error::custom(format!(
                "unknown variant '{}' (known: {})",
                crate::text::truncate(&name),
                known.join(", ")
            ))
        })
    }
}

/// How a game ended, as records write it (JSON: the text, `"1-0"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Sente won: `1-0`.
    SenteWon,
    /// Gote won: `0-1`.
    GoteWon,
    /// A draw: `1/2-1/2`.
    Draw,
    /// Not finished (an analysed game cut short): `*`.
    Unfinished,
}

impl Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let text = String::deserialize(d)?;
        GameResult::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "result '{}' is none of 1-0, 0-1, 1/2-1/2, *",
                crate::text::truncate(&text)
            ))
        })
    }
}

impl GameResult {
    /// The result's text (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::SenteWon => "1-0",
            GameResult::GoteWon => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result of a text, if it is one.
    pub fn parse(text: &str) -> Option<GameResult> {
        [
            GameResult::SenteWon,
            GameResult::GoteWon,
            GameResult::Draw,
            GameResult::Unfinished,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }

    /// The result of a game the side `winner` won (`None`: a draw).
    pub fn won_by(winner: Option<crate::core::Color>) -> GameResult {
        match winner {
            Some(crate::core::Color::Sente) => GameResult::SenteWon,
            Some(crate::core::Color::Gote) => GameResult::GoteWon,
            None => GameResult::Draw,
        }
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a record's `reason` begins when the match runner ended the game at its ply limit
/// (`max plies (N)`): a draw by the runner, not by the rules.
pub const MOVE_LIMIT_REASON: &str = "max plies";

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GameRecord {
    /// 1-based game number in the match.
    pub game: usize,
    /// The variant (JSON: its name, `chushogi` or `shoshogi`).
    #[serde(with = "variant_name")]
    pub variant: &'static Variant,
    /// The SFEN the game started from (lishogi: `initialSfen`).
    pub initial_sfen: String,
    /// The moves, USI, space separated.
    pub moves: String,
    /// `1-0` (sente won), `0-1` (gote won) or `1/2-1/2` (`*` only in an analysed game cut
    /// short, never in a match record).
    pub result: GameResult,
    /// Why the game ended.
    pub reason: String,
    /// Whether the loser lost by forfeit (illegal move, crash, no answer, time, ...).
    #[serde(default)]
    pub forfeit: bool,
    /// Engine playing sente.
    pub sente: String,
    /// Engine playing gote.
    pub gote: String,
    /// Milliseconds each move took, in order.
    pub times_ms: Vec<u64>,
    /// The engines' evaluation after each move when they gave one (centipawns or
    /// `mate N`, from the mover's side, with depth).
    pub comments: Vec<String>,
    /// Index of the opening used.
    pub opening: usize,
    /// When the game started (RFC 3339, UTC).
    pub date: String,
}

impl GameRecord {
    /// Whether the match runner drew the game at its ply limit ([`MOVE_LIMIT_REASON`]).
    pub fn ended_at_move_limit(&self) -> bool {
        self.reason.starts_with(MOVE_LIMIT_REASON)
    }

    /// The record as one JSON line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a game record serialises")
    }

    /// Replays the moves on the initial position; the final position, or the error of the
    /// first bad move.
    pub fn replay(&self) -> Result<Position, RecordError> {
        let mut pos = Position::from_sfen(self.variant, &self.initial_sfen)?;
        pos.play_usi_moves(self.moves.split_whitespace())?;
        Ok(pos)
    }

    /// Whether the record can be counted: a known result and moves that replay (each legal,
    /// none after the end). The error says which field is wrong.
    pub fn check(&self) -> Result<(), RecordError> {
        if self.result == GameResult::Unfinished {
            return Err(RecordError::NoResult(self.result));
        }
        self.replay().map(drop)
    }
}

/// The results a record may hold: sente won, gote won, draw.
pub const RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str) -> GameRecord {
        GameRecord {
            game: 1,
            variant: Variant::chu(),
            initial_sfen: Variant::chu().spec.start_sfen.into(),
            moves: moves.into(),
            result: GameResult::SenteWon,
            reason: "royal captured".into(),
            forfeit: false,
            sente: "A".into(),
            gote: "B".into(),
            times_ms: vec![],
            comments: vec![],
            opening: 0,
            date: "2026-11-29T20:00:00Z".into(),
        }
    }

    #[test]
    fn kif_writes_lion_moves_on_two_lines_as_lishogi_does() {
        // lishogi's server layout (its KIF downloads): the number in four places, three
        // spaces and the move; a double move's steps right after the number.
        let kif = to_kif(&record("7i7h 7d7e 7j7i6h")).unwrap();
        assert!(kif.contains("\n   1   7八歩兵 （←7九）\n"), "{kif}");
        assert!(kif.contains("\n   2   7五歩兵 （←7四）\n"), "{kif}");
        assert!(kif.contains("\n   3一歩目 7九獅子 （←7十）\n"), "{kif}");
        assert!(kif.contains("\n   3二歩目 6八獅子 （←7九）\n"), "{kif}");
        assert!(kif.contains("まで3手で先手の勝ち"));
        // Jitto and igui: the second step goes back to the first's origin (no marker).
        let kif = to_kif(&record(
            "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f",
        ))
        .unwrap();
        assert!(kif.contains("   9二歩目 7六獅子 （←7五）"), "{kif}");
        // The first step names its square even on the last move's (shogiops reads no 仝
        // there).
        assert!(kif.contains("  11一歩目 6七獅子 （←7六）"), "{kif}");
        assert!(kif.contains("  11二歩目 7六獅子 （←6七）"), "{kif}");
        // A record that does not say how the game ended is not called a draw.
        let mut open = record("7i7h 7d7e");
        open.result = GameResult::Unfinished;
        let kif = to_kif(&open).unwrap();
        assert!(
            kif.contains("まで2手で中断") && !kif.contains("引き分け"),
            "{kif}"
        );
    }

    #[test]
    fn json_and_pgn_round_trip() {
        let r = record("7i7h 7d7e 7j7i6h");
        let back: GameRecord = serde_json::from_str(&r.to_json_line()).unwrap();
        assert_eq!(back, r);
        assert!(r.to_json_line().contains("\"initialSfen\""));
        assert_eq!(r.replay().unwrap().history().len(), 3);
        let pgn = to_pgn(&r).unwrap();
        assert!(
            pgn.contains("[Variant \"chu\"]") && pgn.contains("f3g5"),
            "{pgn}"
        );
    }
}
