//! Shishi: a chu shogi and sho shogi engine.
//!
//! The modules form layers, each importing only those before it; their one list is the
//! table in `docs/architecture.md` (the map of the code), which `scripts/checks/code-shape.py`
//! checks in CI. From the bottom: [`core`] and [`text`], [`variant`], [`position`], then
//! the evaluation, the mate solver and the search, the engine [`session`], and at the top
//! the protocol front-ends ([`usi`], [`cecp`]) and the tools ([`tournament`], [`analyse`],
//! [`tune`]).

// No unsafe code, but the one call out to the browser page in `session::single_thread`, and
// the cache hint and the huge-page advice of `core::prefetch`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

/// `eprintln!` that never panics: messages to the person at the terminal, for whom a closed
/// stderr (`shishi analyse ... 2>&1 | head -2`) is no reason to stop with a panic.
#[macro_export]
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprint!` that never panics (see [`tell!`]).
#[macro_export]
macro_rules! tell_part {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

pub mod analyse;
pub mod bench;
pub mod cecp;
pub mod control;
pub mod core;
pub mod eval;
pub mod mate;
pub mod perft;
pub mod position;
pub mod records;
pub mod search;
pub mod session;
pub mod text;
#[cfg(not(target_family = "wasm"))]
pub mod tournament;
pub mod tune;
pub mod usi;
pub mod variant;
