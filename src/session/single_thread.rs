//! The engine on one thread: the browser build for a page that is not cross-origin
//! isolated (wasm32-wasip1, no threads and no shared memory). The search runs in the thread
//! that reads the input, so the input is read in two ways:
//! - between commands the front-end's loop waits for a line ([`read_blocking`]: the page's
//!   worker suspends the module until a message comes, with JavaScript Promise
//!   Integration);
//! - during a search, about every 10 ms, the search's stop test lets the input in
//!   ([`poll_during_search`], registered with `control::input_poll`).
//!
//! Lines read wait in the pump's queue and go to the front-end one at a time, when its loop
//! asks ([`deliver_next`]): while the front-end runs a search, the queue holds exactly the
//! lines sent after the command that started it, and the search acts on them at once
//! (`input::act_on_queued`: `ponderhit` releases it, the first command that ends a search
//! ends it, and what comes after that command belongs to a later search). The front-end
//! takes every line, those too, when the search has answered (so `isready` is answered
//! then, after the `bestmove`).

use super::input::{act_on_queued, Input, MAX_LINE_BYTES};
use crate::control::SearchControl;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::Read;
use std::sync::mpsc::Sender;

#[allow(unsafe_code)]
#[link(wasm_import_module = "shishi")]
extern "C" {
    /// Lets the page's messages in (the worker's event loop runs while the module waits)
    /// and says how many bytes of input are waiting to be read.
    fn input_waiting() -> u32;
}

/// The input on its way to the front-end.
struct Pump {
    /// Bytes read that are not yet a whole line.
    partial: Vec<u8>,
    /// The length of an over-long line being skipped, if one is.
    skipping: Option<usize>,
    /// Whole lines read that the front-end has not taken yet, in order.
    queue: VecDeque<Input>,
    /// Hands a line on to the front-end; false when it is gone.
    deliver: Box<dyn FnMut(Input) -> bool>,
    /// The input has ended (its `Eof` is queued).
    ended: bool,
}

thread_local! {
    static PUMP: RefCell<Option<Pump>> = const { RefCell::new(None) };
}

/// Hands the input, a line at a time, wrapped by `wrap`, to `events` (in place of the
/// reader thread of the other builds), and lets a search hear it.
pub fn start_input<E: 'static>(events: Sender<E>, wrap: fn(Input) -> E) {
    PUMP.with(|p| {
        *p.borrow_mut() = Some(Pump {
            partial: Vec::new(),
            skipping: None,
            queue: VecDeque::new(),
            deliver: Box::new(move |input| events.send(wrap(input)).is_ok()),
            ended: false,
        })
    });
    crate::control::input_poll::register(poll_during_search);
}

/// Hands the oldest line read to the front-end; false when none is waiting.
pub fn deliver_next() -> bool {
    PUMP.with(|p| {
        let mut pump = p.borrow_mut();
        let Some(pump) = pump.as_mut() else {
            return false;
        };
        match pump.queue.pop_front() {
            Some(input) => {
                (pump.deliver)(input);
                true
            }
            None => false,
        }
    })
}

/// Waits for input and queues the whole lines read; false once the input has ended.
pub fn read_blocking() -> bool {
    read_some()
}

/// During a search: reads what has come in, if anything, and lets the lines queued behind
/// the search act on it.
#[allow(unsafe_code)]
fn poll_during_search(control: &SearchControl) {
    // SAFETY: an import of the page's worker (shishi.worker.js) that takes no arguments
    // and only reports a count.
    if unsafe { input_waiting() } > 0 {
        read_some();
    }
    PUMP.with(|p| {
        if let Some(pump) = p.borrow().as_ref() {
            act_on_queued(&pump.queue, control);
        }
    });
}

/// Reads once from stdin (blocking when nothing has come) and queues each whole line.
fn read_some() -> bool {
    if PUMP.with(|p| p.borrow().as_ref().is_none_or(|pump| pump.ended)) {
        return false;
    }
    // Larger than stdin's own buffer, so that std reads straight from the descriptor and
    // keeps nothing back.
    let mut buf = vec![0u8; 64 * 1024];
    let read = std::io::stdin().read(&mut buf).unwrap_or(0);
    PUMP.with(|p| {
        let mut pump = p.borrow_mut();
        let Some(pump) = pump.as_mut() else {
            return false;
        };
        if read == 0 {
            pump.ended = true;
            pump.queue.push_back(Input::Eof);
        } else {
            pump.take(&buf[..read]);
        }
        true
    })
}

impl Pump {
    /// Takes bytes read: whole lines are queued, the rest kept.
    fn take(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b != b'\n' {
                match &mut self.skipping {
                    Some(length) => *length += 1,
                    None if self.partial.len() >= MAX_LINE_BYTES => {
                        self.skipping = Some(self.partial.len() + 1);
                        self.partial = Vec::new();
                    }
                    None => self.partial.push(b),
                }
                continue;
            }
            if let Some(length) = self.skipping.take() {
                self.queue.push_back(Input::Overlong(length));
                continue;
            }
            let text = String::from_utf8_lossy(&self.partial);
            let line = text.trim_end_matches('\r').to_string();
            self.partial.clear();
            self.queue.push_back(Input::Line(line));
        }
    }
}
