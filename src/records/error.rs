//! The errors of game records: a record that does not replay or cannot be counted, and a
//! KIF file that cannot be read (with the file, the line and what is wrong there).

use super::GameResult;
use crate::position::notation::{MoveError, MoveListError};
use crate::position::sfen::SfenError;

/// Why a game record does not replay, cannot be counted or cannot be written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The initial position does not parse in the record's variant.
    #[error("{0}")]
    Sfen(#[from] SfenError),
    /// A move of the list is not legal where it stands.
    #[error("moves: {0}")]
    Moves(#[from] MoveListError),
    /// A move (a lion's path) is not legal where it stands.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// The result is none that counts.
    #[error("result '{0}' is none of {results}", results = super::RESULTS.join(", "))]
    NoResult(GameResult),
}

/// What is wrong at a KIF file's line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KifProblem {
    /// The board diagram has a number of ranks other than the variant's.
    #[error("the board diagram has {found} ranks, {variant} has {expected}")]
    DiagramRanks {
        /// The diagram's ranks.
        found: usize,
        /// The variant.
        variant: &'static str,
        /// The variant's ranks.
        expected: usize,
    },
    /// A rank of the board diagram has a number of squares other than the variant's files.
    #[error("the board diagram's rank has {found} squares, {variant} has {expected} files")]
    DiagramFiles {
        /// The rank's squares.
        found: usize,
        /// The variant.
        variant: &'static str,
        /// The variant's files.
        expected: usize,
    },
    /// A piece name the variant does not have.
    #[error("unknown piece '{0}' in the board diagram")]
    UnknownPiece(String),
    /// The diagram reads, but is no position of the rules.
    #[error("the board diagram is no legal position ({0})")]
    IllegalDiagram(SfenError),
    /// A move after a line that ended the game.
    #[error("a move after the game's end (line {0})")]
    MoveAfterEndLine(usize),
    /// A move after the position's own end (a royal taken, ...).
    #[error("a move after the game's end ({reason} after move {moves})")]
    MoveAfterOutcome {
        /// How the game ended.
        reason: String,
        /// The moves before.
        moves: usize,
    },
    /// A move number out of order (`?`: none).
    #[error("move number {found} where {expected} was expected")]
    MoveNumber {
        /// The number written.
        found: String,
        /// The number due.
        expected: usize,
    },
    /// A lion's first step whose second is not the next line.
    #[error("a lion's first step (一歩目) without its second")]
    FirstStepAlone,
    /// A lion's first step on the file's last move line.
    #[error("a lion's first step (一歩目) without its second (the file ends)")]
    FirstStepAtEnd,
    /// A second step with no first before it.
    #[error("a second step without a first")]
    SecondStepAlone,
    /// A step whose square cannot be read.
    #[error("cannot read the {0} step")]
    UnreadableStep(&'static str),
    /// A move line that cannot be read.
    #[error("cannot read the move '{0}'")]
    UnreadableMove(String),
    /// A move read, but not legal where it stands.
    #[error("{0}")]
    IllegalMove(MoveError),
    /// No move at all.
    #[error("no moves found in the KIF")]
    NoMoves,
}

/// A KIF file that cannot be read as a game: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {problem}{}", .line.map(|n| format!(":{n}")).unwrap_or_default(),
        if .line.is_some() { "; game skipped" } else { "" })]
pub struct KifError {
    /// The file, as the user named it.
    pub file: String,
    /// The line (from 1), when the problem is at one.
    pub line: Option<usize>,
    /// What is wrong.
    pub problem: KifProblem,
}
