//! Shishi: a chu shogi and sho shogi engine.
//!
//! Layers, each depending only on those before it: [`core`] (squares, bitboards, moves,
//! scores) -> [`variant`] (piece kinds and rules as data) -> [`position`] (board,
//! make/unmake, move generation, game-end rules) -> [`eval`] and [`search`] -> [`perft`],
//! [`bench`], the engine [`session`] and the front-ends over it ([`usi`], [`cecp`]), and
//! the tools ([`tournament`], [`analyse`], [`tune`]).

// No unsafe code, but the one call out to the browser page in `session::single_thread`.
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
#[cfg(not(target_family = "wasm"))]
pub mod tournament;
pub mod tune;
pub mod usi;
pub mod variant;
