//! What the input of a protocol front-end is made of: lines, over-long lines skipped, the
//! end. A leaf shared by the reader (`io`) and the one-thread input (`single_thread`).

/// Longest input line accepted (longer ones are reported and skipped).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader hands on.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line end (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] was skipped; its length so far.
    Overlong(usize),
    /// The input was closed.
    Eof,
}
