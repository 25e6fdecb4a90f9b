//! One game, whatever file it came from or goes to: the KIF reader and writer, the match
//! runner's JSON records ([`super::GameRecord`]) and `shishi analyse`'s jobs all hold a
//! game as a [`Game`].

use super::{GameResult, RecordError};
use crate::position::Position;
use crate::variant::Variant;

/// The players' names (engines in a match, people in a KIF); empty when unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    /// Sente's (KIF `先手：`).
    pub sente: String,
    /// Gote's (KIF `後手：`).
    pub gote: String,
}

/// One game: its variant and start, the moves with their times and comments, who played,
/// how it ended, and the header tags of its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The variant.
    pub variant: &'static Variant,
    /// The SFEN the game started from (lishogi: `initialSfen`).
    pub start_sfen: String,
    /// The moves, USI (a double move with its mid square, as written).
    pub moves: Vec<String>,
    /// Who played.
    pub players: Players,
    /// Each move's thinking time, ms, where the record has it (empty: none has).
    pub times_ms: Vec<Option<u64>>,
    /// A comment after each move (empty, or shorter than the moves: none after the rest):
    /// in a match record, the engine's evaluation (`+0.35/12`, `mate 5/9`, `book`).
    pub comments: Vec<String>,
    /// The result the record states, if it states one.
    pub result: Option<GameResult>,
    /// Header tags other than the players, in order (a KIF's `棋戦`, `開始日時`, ...).
    pub tags: Vec<(String, String)>,
}

impl Game {
    /// A game of `variant` from `start_sfen` with `moves`, nothing else known.
    pub fn new(variant: &'static Variant, start_sfen: &str, moves: Vec<String>) -> Game {
        Game {
            variant,
            start_sfen: start_sfen.to_string(),
            moves,
            players: Players::default(),
            times_ms: Vec::new(),
            comments: Vec::new(),
            result: None,
            tags: Vec::new(),
        }
    }

    /// The moves as one space-separated USI string (lishogi's `moves`).
    pub fn moves_text(&self) -> String {
        self.moves.join(" ")
    }

    /// Replays the moves on the start position; the final position, or the error of the
    /// first bad move.
    pub fn replay(&self) -> Result<Position, RecordError> {
        let mut pos = Position::from_sfen(self.variant, &self.start_sfen)?;
        pos.play_usi_moves(self.moves.iter().map(String::as_str))?;
        Ok(pos)
    }
}
