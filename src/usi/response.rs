//! The USI answers: `info`, `bestmove` and `checkmate` lines (written through the shared
//! [`Output`]).

use crate::core::score::mate_plies;
use crate::mate::Verdict;
use crate::position::notation::move_to_usi;
use crate::position::Position;
use crate::search::{Bound, Info, Observer, SearchResult};
use crate::session::io::Output;
use std::sync::Arc;

/// An `info string` line.
pub fn info_string(text: &str) -> String {
    format!("info string {text}")
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
pub struct UsiObserver {
    /// Where to write.
    pub out: Arc<Output>,
    /// The root position (for move text).
    pub pos: Position,
    /// Also the line in KIF notation (the KIF_PV option): `info string kif multipv N ...`.
    pub kif_pv: bool,
}

impl Observer for UsiObserver {
    fn info(&self, info: &Info) {
        self.out.line(&info_line(&self.pos, info));
        if self.kif_pv && !info.pv.is_empty() {
            let last_to = self.pos.history().last().map(|u| u.mv.to());
            let line = crate::records::kif_line_marked(&self.pos, &info.pv, last_to);
            // Its multipv number, as the info line's: with MultiPV > 1 the order alone
            // would tie them.
            self.out
                .line(&format!("info string kif multipv {} {line}", info.multipv));
        }
    }

    fn progress(&self, p: &crate::mate::Progress) {
        let ms = p.time.as_millis().max(1) as u64;
        self.out.line(&format!(
            "info time {ms} nodes {} nps {} hashfull {}",
            p.nodes,
            p.nodes * 1000 / ms,
            p.hashfull
        ));
    }
}

/// The `bestmove` line for a finished search. `resign_when_lost`: answer `resign` when the
/// search proved the game lost; with no legal move at all it is always `resign` (there is
/// nothing legal to print).
pub fn bestmove_line(pos: &Position, result: &SearchResult, resign_when_lost: bool) -> String {
    let Some(best) = result.best else {
        return "bestmove resign".to_string();
    };
    if resign_when_lost && result.mate_plies().is_some_and(|p| p < 0) {
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

/// The answer to `go mate`: the solver's proven line; `nomate` when it proved that there is
/// no forced win (with checks, within its ply limit); otherwise `timeout`.
pub fn checkmate_line(pos: &Position, result: &SearchResult) -> String {
    match &result.mate {
        Some(Verdict::Mate(line)) if !line.is_empty() => {
            let line: Vec<String> = line
                .iter()
                .map(|&m| move_to_usi(pos.variant(), m))
                .collect();
            format!("checkmate {}", line.join(" "))
        }
        Some(Verdict::NoMate) => "checkmate nomate".to_string(),
        _ => "checkmate timeout".to_string(),
    }
}
