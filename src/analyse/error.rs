//! The errors of an analysis: a job whose position or moves do not stand, a results file
//! that cannot be resumed from (its path, line and what is wrong), a file that cannot be
//! written, a hash table that cannot be had.

use crate::position::notation::{MoveError, MoveListError};
use crate::position::sfen::SfenError;
use crate::records::RecordError;
use crate::search::tt::NoMemory;
use std::path::PathBuf;

/// Why a job or a run was not analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    /// A start position that does not parse.
    #[error("{0}")]
    Sfen(#[from] SfenError),
    /// A move list with a move that is not legal where it stands.
    #[error("{0}")]
    Moves(#[from] MoveListError),
    /// A move that is not legal where it stands.
    #[error("{0}")]
    Move(#[from] MoveError),
    /// The hash table asked for cannot be had.
    #[error(transparent)]
    NoMemory(#[from] NoMemory),
    /// A file that cannot be read, made or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A results file to resume from that is a pipe, a device or a folder: it cannot be
    /// read back (reading a pipe would wait for ever).
    #[error("{}: not a regular file, so no earlier results can be read back from it", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// A line of the results file resumed from that cannot be taken.
    #[error("{}:{line}: {problem}; fix or remove that line", path.display())]
    ResultLine {
        /// The file.
        path: PathBuf,
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        problem: ResultLineProblem,
    },
    /// A game whose annotated KIF cannot be written.
    #[error("annotated KIF: {0}")]
    AnnotatedKif(RecordError),
}

/// What is wrong with a line of a results file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultLineProblem {
    /// Bytes that are not text.
    #[error("not UTF-8")]
    NotText,
    /// Text that is not JSON.
    #[error("not a result line")]
    NotJson,
    /// A judgement none of Shishi's.
    #[error("the judgement {0} is none of Shishi's")]
    UnknownJudgement(String),
    /// JSON without the fields of a result, or with one of the wrong kind or value.
    #[error("not a result line as Shishi writes it ({0})")]
    Field(String),
}

/// An [`AnalyseError::File`] of `path`.
pub(crate) fn file_error(
    path: &std::path::Path,
) -> impl FnOnce(std::io::Error) -> AnalyseError + '_ {
    move |source| AnalyseError::File {
        path: path.to_path_buf(),
        source,
    }
}
