//! The USI front-end (lishogi's chu dialect): a thin text adapter over the engine
//! [`Session`](crate::session::Session). The shared reader thread turns stdin into lines,
//! the [`controller::Controller`] parses and handles them one at a time without blocking on
//! a search, and every protocol line goes to stdout through one
//! [`Output`](crate::session::io::Output). See protocol-docs/usi.md.

pub mod command;
pub mod controller;
pub mod options;
pub mod response;

use crate::session::io::{next_event, spawn_stdin_reader, Input, Output};
use controller::{Controller, Flow};
use std::sync::mpsc;
use std::sync::Arc;

/// Runs the USI loop on stdin/stdout until `quit` or end of input. `first` is a line
/// already read (by the protocol detection in `main`), or its over-long report.
pub fn run(first: Option<Input>) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel();
    spawn_stdin_reader(tx, |i| i)?;
    let mut controller = Controller::new(Arc::new(Output::stdout()))?;
    if let Some(input) = first {
        if controller.handle(input) == Flow::Quit {
            return Ok(());
        }
    }
    while let Some(input) = next_event(&rx) {
        if controller.handle(input) == Flow::Quit {
            break;
        }
    }
    Ok(())
}
