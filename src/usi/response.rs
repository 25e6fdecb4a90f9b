//! Output to the GUI: one writer for all of stdout (one lock, one flush per line, so lines
//! from the controller and the search thread never interleave), and the formatting of
//! `info` and `bestmove` lines.

use crate::core::score::mate_plies;
use crate::position::notation::move_to_usi;
use crate::position::Position;
use crate::search::{Bound, Info, Observer, SearchResult};
use std::io::Write;
use std::sync::Mutex;

/// The one writer of protocol lines.
pub struct Output {
    out: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Writes to stdout.
    pub fn stdout() -> Output {
        Output {
            out: Mutex::new(Box::new(std::io::stdout())),
        }
    }

    /// Writes to any sink (tests).
    pub fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            out: Mutex::new(sink),
        }
    }

    /// Sends one line (a newline is added) and flushes. A closed stdout is ignored: the GUI
    /// is gone, and the engine will see EOF on stdin.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
        log::trace!(">> {text}");
    }

    /// Sends `info string TEXT`.
    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

/// The `score` part of an info line.
pub fn score_text(score: i32, bound: Option<Bound>) -> String {
    let mut s = match mate_plies(score) {
        Some(n) => format!("score mate {n}"),
        None => format!("score cp {score}"),
    };
    match bound {
        Some(Bound::Lower) => s += " lowerbound",
        Some(Bound::Upper) => s += " upperbound",
        _ => {}
    }
    s
}

/// An `info` line (with `pv` last, as USI requires).
pub fn info_line(pos: &Position, info: &Info) -> String {
    let ms = info.time.as_millis() as u64;
    let nps = info.nodes * 1000 / ms.max(1);
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|&m| move_to_usi(pos.variant(), m))
        .collect();
    format!(
        "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score, info.bound),
        info.nodes,
        nps,
        info.hashfull,
        ms,
        pv.join(" ")
    )
}

/// Turns search reports into `info` lines.
pub struct UsiObserver<'a> {
    /// Where to write.
    pub out: &'a Output,
    /// The root position (for move text).
    pub pos: &'a Position,
}

impl Observer for UsiObserver<'_> {
    fn info(&self, info: &Info) {
        self.out.line(&info_line(self.pos, info));
    }
}

/// The `bestmove` line for a finished search. `resign_when_lost`: answer `resign` when the
/// search proved the game lost; with no legal move at all it is always `resign` (there is
/// nothing legal to print).
pub fn bestmove_line(pos: &Position, result: &SearchResult, resign_when_lost: bool) -> String {
    let Some(best) = result.best else {
        return "bestmove resign".to_string();
    };
    if resign_when_lost && mate_plies(result.score).is_some_and(|p| p < 0) {
        return "bestmove resign".to_string();
    }
    let mut line = format!("bestmove {}", pos.move_to_usi(best));
    if let Some(reply) = result.ponder {
        let mut after = pos.clone();
        after.make_move(best);
        if after.is_legal(reply) {
            line += &format!(" ponder {}", after.move_to_usi(reply));
        }
    }
    line
}

/// The answer to `go mate`: the mating line, or `nomate`.
pub fn checkmate_line(pos: &Position, result: &SearchResult) -> String {
    match mate_plies(result.score) {
        Some(p) if p > 0 && !result.pv.is_empty() => {
            let pv: Vec<String> = result
                .pv
                .iter()
                .map(|&m| move_to_usi(pos.variant(), m))
                .collect();
            format!("checkmate {}", pv.join(" "))
        }
        _ => "checkmate nomate".to_string(),
    }
}
