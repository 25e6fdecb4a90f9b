//! The errors of a match: a command-line value that does not parse, a record file that
//! cannot be resumed from (its path, line and what is wrong), an engine that does not
//! start, a file that cannot be written.

use crate::records::RecordError;
use std::path::PathBuf;

/// Why a match did not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A command-line value that does not parse.
    #[error("{flag}: {problem}")]
    Argument {
        /// The flag (`--tc`, `--engine`, `--sprt`, ...).
        flag: &'static str,
        /// What is wrong with its value.
        problem: ArgumentProblem,
    },
    /// An engine with a clock of its own while the match's is not a Fischer clock.
    #[error("--engine {0}: tc= (time odds) needs a Fischer clock for the match (--tc)")]
    TimeOddsNeedFischer(String),
    /// `--resume` without the file to resume from.
    #[error("--resume needs --jsonl")]
    ResumeNeedsJsonl,
    /// Two engines of one name: records could not tell them apart.
    #[error("two engines are named '{0}': --resume needs distinct names (name=...)")]
    SameNames(String),
    /// A record of the file resumed from that does not belong to this match.
    #[error("{} line {line}: {problem}", path.display())]
    Record {
        /// The file.
        path: PathBuf,
        /// Its line (from 1).
        line: usize,
        /// What is wrong (boxed: the other errors are small).
        problem: Box<RecordProblem>,
    },
    /// An engine that does not start or finish its handshake.
    #[error("engine {name} ({cmd}): {}; no game was played", start_failure(error))]
    EngineStart {
        /// The engine's name.
        name: String,
        /// Its command.
        cmd: String,
        /// How it failed.
        error: EngineError,
    },
    /// A file that cannot be read, made or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The match's runtime could not be made.
    #[error("could not start the match's runtime: {0}")]
    Runtime(std::io::Error),
}

/// What is wrong with a command-line value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentProblem {
    /// A clock that is not `SECONDS+SECONDS` within bounds.
    #[error("'{text}' is not SECONDS+SECONDS (each from 0 to {max_seconds}, not both 0)")]
    Clock {
        /// The value given.
        text: String,
        /// The longest clock.
        max_seconds: u64,
    },
    /// A part of a list that is not `KEY=VALUE`.
    #[error("'{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// A key the flag does not have.
    #[error("unknown key '{key}' ({known})")]
    UnknownKey {
        /// The key given.
        key: String,
        /// The keys there are.
        known: &'static str,
    },
    /// An engine without its command.
    #[error("cmd=PATH is required")]
    NoCommand,
    /// A protocol other than USI or CECP.
    #[error("proto must be usi or cecp, not '{0}'")]
    Proto(String),
    /// SPRT bounds that cannot decide.
    #[error("needs alpha > 0, beta > 0, alpha + beta < 1, and finite elo0 < elo1")]
    SprtBounds,
    /// A tally that is not three whole numbers `W-L-D`.
    #[error("'{0}' is not WINS-LOSSES-DRAWS (three whole numbers, e.g. 598-571-183)")]
    NotATally(String),
    /// A count that is not a whole number from 0 up.
    #[error("'{0}' is not a whole number of games")]
    NotACount(String),
}

/// What is wrong with a line of the record file resumed from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordProblem {
    /// Bytes that are not text.
    #[error("not UTF-8 text: this is no record file of `shishi match`")]
    NotText,
    /// A line that is no record (often one cut short when a match was stopped).
    #[error("not a whole game record ({0}); if the match was stopped while writing it, remove that line and resume again")]
    NotARecord(String),
    /// A record that does not replay or count.
    #[error("game {game}: {error}")]
    Invalid {
        /// Its game number.
        game: usize,
        /// What is wrong.
        error: RecordError,
    },
    /// A game of another variant.
    #[error("a {found} game, but this match plays {wanted}")]
    OtherVariant {
        /// The record's variant.
        found: &'static str,
        /// The match's.
        wanted: String,
    },
    /// A game number outside the schedule.
    #[error("game {game} is not in this match's schedule of {games} games")]
    NotScheduled {
        /// Its game number.
        game: usize,
        /// The schedule's games.
        games: usize,
    },
    /// A game recorded twice.
    #[error("game {game} again (first on line {first})")]
    Again {
        /// Its game number.
        game: usize,
        /// The line of its first record.
        first: usize,
    },
    /// A game between other engines or from another opening than the schedule's.
    #[error("game {game} was {sente} - {gote} from opening {opening}, but this match schedules {scheduled_sente} - {scheduled_gote} from opening {scheduled_opening} (other engines, --games, --openings or --repeat?)")]
    OtherPairing {
        /// Its game number.
        game: usize,
        /// The record's sente.
        sente: String,
        /// The record's gote.
        gote: String,
        /// The record's opening.
        opening: usize,
        /// The schedule's sente.
        scheduled_sente: String,
        /// The schedule's gote.
        scheduled_gote: String,
        /// The schedule's opening.
        scheduled_opening: usize,
    },
}

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended (its exit status in words, as the system gives it).
    Crashed(String),
    /// It closed its output but its process lives on.
    ClosedOutput,
    /// No answer before the deadline.
    Timeout,
    /// It could not be started.
    Start(String),
    /// It started but its handshake failed (the words say how, with a hint).
    Handshake(String),
}

/// How an engine failed to start, in words.
fn start_failure(error: &EngineError) -> String {
    match error {
        EngineError::Start(e) => format!("could not start: {e}"),
        EngineError::Handshake(e) => e.clone(),
        EngineError::Timeout => "did not finish its handshake within 10 s".into(),
        EngineError::Crashed(status) => format!("exited during its handshake ({status})"),
        EngineError::ClosedOutput => "closed its output during its handshake".into(),
    }
}

/// A [`MatchError::File`] of `path`.
pub fn file_error(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::File {
        path: path.to_path_buf(),
        source,
    }
}
