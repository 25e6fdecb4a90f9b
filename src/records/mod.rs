//! Game records, one home for every format. A game is one type, [`Game`] (players, start
//! position, moves, times, comments, result, header tags), whatever file it came from:
//! the KIF reader gives one and the KIF writer takes one ([`kif`], as lishogi writes and
//! reads KIF), the match runner's JSON lines hold one in a [`GameRecord`] (lishogi's
//! export shape: `variant`, `initialSfen`, `moves` as one space-separated USI string, plus
//! result and reason), and `shishi analyse` analyses one. Also PGN with the engines'
//! comments ([`pgn`]) and XBoard's move notation ([`xboard`]). The match runner, the
//! analysis and the tuner read and write games only through this module.

pub mod error;
pub mod game;
pub mod kif;
pub mod pgn;
pub mod text_file;
pub mod xboard;

use crate::position::Position;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

pub use error::{KifError, KifProblem, RecordError};
pub use game::{Game, Players};
pub use kif::{game_to_kif, kif_line, kif_line_marked, to_kif};
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

/// One finished game of a match: the [`Game`] and the match's facts about it. Written as
/// one JSON line in lishogi's export shape ([`RecordJson`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "RecordJson", from = "RecordJson")]
pub struct GameRecord {
    /// 1-based game number in the match (JSON: `game`).
    pub number: usize,
    /// The game: players are the engines, comments their evaluations, every move timed,
    /// and a result (`Unfinished` only in an analysed game cut short, never in a match).
    pub game: Game,
    /// Why the game ended.
    pub reason: String,
    /// Whether the loser lost by forfeit (illegal move, crash, no answer, time, ...).
    pub forfeit: bool,
    /// Index of the opening used.
    pub opening: usize,
    /// When the game started (RFC 3339, UTC).
    pub date: String,
}

/// A match record as JSON writes it: lishogi's export fields (`variant`, `initialSfen`,
/// `moves` as one space-separated USI string, `result`) and the match's.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RecordJson {
    game: usize,
    #[serde(with = "variant_name")]
    variant: &'static Variant,
    initial_sfen: String,
    moves: String,
    result: GameResult,
    reason: String,
    #[serde(default)]
    forfeit: bool,
    sente: String,
    gote: String,
    times_ms: Vec<u64>,
    comments: Vec<String>,
    opening: usize,
    date: String,
}

impl From<GameRecord> for RecordJson {
    fn from(r: GameRecord) -> RecordJson {
        let moves = r.game.moves_text();
        RecordJson {
            game: r.number,
            variant: r.game.variant,
            initial_sfen: r.game.start_sfen,
            moves,
            result: r.game.result.unwrap_or(GameResult::Unfinished),
            reason: r.reason,
            forfeit: r.forfeit,
            sente: r.game.players.sente,
            gote: r.game.players.gote,
            times_ms: r.game.times_ms.iter().map(|t| t.unwrap_or(0)).collect(),
            comments: r.game.comments,
            opening: r.opening,
            date: r.date,
        }
    }
}

impl From<RecordJson> for GameRecord {
    fn from(j: RecordJson) -> GameRecord {
        GameRecord {
            number: j.game,
            game: Game {
                variant: j.variant,
                start_sfen: j.initial_sfen,
                moves: j.moves.split_whitespace().map(str::to_string).collect(),
                players: Players {
                    sente: j.sente,
                    gote: j.gote,
                },
                times_ms: j.times_ms.into_iter().map(Some).collect(),
                comments: j.comments,
                result: Some(j.result),
                tags: Vec::new(),
            },
            reason: j.reason,
            forfeit: j.forfeit,
            opening: j.opening,
            date: j.date,
        }
    }
}

impl GameRecord {
    /// The game's result (`Unfinished` if the record has none).
    pub fn result(&self) -> GameResult {
        self.game.result.unwrap_or(GameResult::Unfinished)
    }

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
        self.game.replay()
    }

    /// Whether the record can be counted: a known result and moves that replay (each legal,
    /// none after the end). The error says which field is wrong.
    pub fn check(&self) -> Result<(), RecordError> {
        if self.result() == GameResult::Unfinished {
            return Err(RecordError::NoResult(self.result()));
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
        let moves = moves.split_whitespace().map(String::from).collect();
        GameRecord {
            number: 1,
            game: Game {
                players: Players {
                    sente: "A".into(),
                    gote: "B".into(),
                },
                result: Some(GameResult::SenteWon),
                ..Game::new(Variant::chu(), Variant::chu().spec.start_sfen, moves)
            },
            reason: "royal captured".into(),
            forfeit: false,
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
        open.game.result = None;
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
