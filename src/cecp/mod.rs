//! The XBoard/WinBoard front-end (CECP v2) for chu (`variant chu`) and sho (served under
//! XBoard's `shogi`, set up with `setup` the way HaChu does it). A thin adapter over the
//! engine [`Session`] like the USI front-end: the shared reader thread, a controller that
//! never blocks, the session's search worker. The controller plays the engine's moves
//! itself when a search ends.
//!
//! Notation: XBoard squares (`f3`, `g10`), a double move as two legs `f3f4,f4g5` (the engine
//! prints each leg on its own `move` line, a comma after all but the last), `@@@@` for a lion
//! pass, `+` for promotion. In XBoard FENs `w` means sente to move. See protocol-docs/cecp.md.
//!
//! The parts, as in `usi/`: [`command`] (a line to a typed command), [`clock`] (`level`,
//! `st`, `sd`, `time`, `otim` to search limits), [`controller`] (carrying them out),
//! [`replies`] (features, thinking lines, results), [`markers`] (`lift`/`put`
//! highlights) and [`options`] (the settings dialog).

pub mod clock;
pub mod command;
pub mod controller;
pub mod markers;
pub mod options;
pub mod replies;

use crate::search::SearchResult;
use crate::session::io::{next_event, spawn_stdin_reader, Input, Output};
pub use controller::Controller;
pub use replies::{color_fen, result_line};
use std::sync::mpsc;
use std::sync::Arc;

/// What reaches the controller: input, and the end of a search.
pub enum Event {
    /// From the GUI.
    Input(Input),
    /// The search with this id ended (a stopped search's event may arrive after a new one
    /// started, so the id is checked).
    SearchDone(u64, SearchResult),
}

/// Runs the XBoard loop on stdin/stdout. `first` is a line already read (`xboard`).
pub fn run(first: Option<Input>) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel();
    spawn_stdin_reader(tx.clone(), Event::Input)?;
    let mut engine = Controller::new(Arc::new(Output::stdout()), tx)?;
    if let Some(input) = first {
        if !engine.handle(Event::Input(input)) {
            return Ok(());
        }
    }
    while let Some(event) = next_event(&rx) {
        if !engine.handle(event) {
            break;
        }
    }
    engine.stop_search();
    Ok(())
}
