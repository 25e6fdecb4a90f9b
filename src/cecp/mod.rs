//! The XBoard/WinBoard front-end (CECP v2) for chu (`variant chu`) and sho (served under
//! XBoard's `shogi`, set up with `setup` the way HaChu does it). Same shape as the USI
//! front-end: a reader thread, a controller that never blocks, a search thread. The
//! controller plays the engine's moves itself when a search ends.
//!
//! Notation: XBoard squares (`f3`, `g10`), a double move as two legs `f3f4,f4g5` (the engine
//! prints each leg on its own `move` line, a comma after all but the last), `@@@@` for a lion
//! pass, `+` for promotion. In XBoard FENs `w` means sente to move. See protocol-docs/cecp.md.

pub mod notation;

use crate::core::score::mate_plies;
use crate::core::{Color, Move, Square};
use crate::position::notation::parse_xboard_square;
use crate::position::{GenMode, Outcome, OutcomeReason, Position};
use crate::search::{Clock, Info, Limits, Observer, SearchControl, SearchResult, Searcher};
use crate::usi::response::Output;
use crate::variant::Variant;
use notation::{move_legs, parse_legs, pv_text, Legs};
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// HaChu's `setup` line for sho under XBoard's `shogi` (piece table, board size, parent).
pub const SHO_SETUP: &str = "setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1";

enum Event {
    Line(String),
    Eof,
    /// The search with this id ended (a stopped search's event may arrive after a new one
    /// started, so the id is checked).
    SearchDone(u64),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Move,
    Analyze,
}

struct Running {
    id: u64,
    handle: JoinHandle<(Searcher, SearchResult)>,
    control: Arc<SearchControl>,
    purpose: Purpose,
    /// The position key the search started from (a stale result is dropped).
    key: u64,
}

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Default)]
struct Level {
    moves_per_session: u32,
    increment_ms: u64,
}

struct Cecp {
    out: Arc<Output>,
    events: Sender<Event>,
    variant: &'static Variant,
    pos: Position,
    searcher: Option<Searcher>,
    running: Option<Running>,
    next_search_id: u64,
    engine_color: Option<Color>,
    analyzing: bool,
    post: bool,
    level: Level,
    seconds_per_move: Option<u64>,
    max_depth: Option<i32>,
    time_cs: Option<u64>,
    otim_cs: Option<u64>,
    last_lift: Option<Square>,
    last_put: Option<Square>,
    hint: Option<Move>,
    game_over: bool,
}

/// Runs the XBoard loop on stdin/stdout. `first` is a line already read (`xboard`).
pub fn run(first: Option<String>) {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    std::thread::Builder::new()
        .name("cecp-reader".into())
        .spawn(move || {
            let eof_tx = reader_tx.clone();
            crate::usi::read_lines(
                std::io::stdin().lock(),
                |l| reader_tx.send(Event::Line(l)).is_ok(),
                move || {
                    let _ = eof_tx.send(Event::Eof);
                },
            )
        })
        .expect("spawn the input reader");
    let variant = Variant::chu();
    let mut engine = Cecp {
        out: Arc::new(Output::stdout()),
        events: tx,
        variant,
        pos: Position::startpos(variant),
        searcher: Some(xboard_searcher()),
        running: None,
        next_search_id: 0,
        engine_color: None,
        analyzing: false,
        post: false,
        level: Level::default(),
        seconds_per_move: None,
        max_depth: None,
        time_cs: None,
        otim_cs: None,
        last_lift: None,
        last_put: None,
        hint: None,
        game_over: false,
    };
    if let Some(line) = first {
        if !engine.line(&line) {
            return;
        }
    }
    while let Ok(event) = rx.recv() {
        let go_on = match event {
            Event::Line(line) => engine.line(&line),
            Event::SearchDone(id) => {
                engine.search_done(id);
                true
            }
            Event::Eof => false,
        };
        if !go_on {
            break;
        }
    }
    engine.stop_search(true);
}

/// XBoard adds its own delay to every move (about 70 ms measured under Xvfb), so the
/// engine keeps a larger margin than under USI.
const XBOARD_MOVE_OVERHEAD: Duration = Duration::from_millis(100);

fn xboard_searcher() -> Searcher {
    let mut s = Searcher::new(crate::usi::options::DEFAULT_HASH_MB, 1);
    s.move_overhead = XBOARD_MOVE_OVERHEAD;
    s
}

/// XBoard's thinking output: `ply score time(cs) nodes pv`.
struct Thinking<'a> {
    out: &'a Output,
    pos: &'a Position,
    show: bool,
}

impl Observer for Thinking<'_> {
    fn info(&self, info: &Info) {
        if !self.show || info.bound.is_some() {
            return;
        }
        let score = match mate_plies(info.score) {
            Some(p) if p > 0 => 100_000 + (p + 1) / 2,
            Some(p) => -100_000 - (-p + 1) / 2,
            None => info.score,
        };
        let cs = info.time.as_millis() / 10;
        self.out.line(&format!(
            "{} {} {} {} {}",
            info.depth,
            score,
            cs,
            info.nodes,
            pv_text(self.pos, &info.pv)
        ));
    }
}

impl Cecp {
    /// Handles one line; false to quit.
    fn line(&mut self, raw: &str) -> bool {
        let line = raw.trim();
        log::debug!("<< {line}");
        let (cmd, arg) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "easy" | "hard" | "bk" | "hover" | "." | "option" => {}
            "protover" => self.features(),
            "quit" => return false,
            "new" => {
                self.stop_search(true);
                self.set_variant(Variant::chu());
                self.engine_color = Some(Color::Gote);
                self.analyzing = false;
                self.max_depth = None;
                self.seconds_per_move = None;
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            "variant" => {
                self.stop_search(true);
                match arg {
                    "chu" => self.set_variant(Variant::chu()),
                    "shogi" | "sho" => {
                        self.set_variant(Variant::sho());
                        self.out.line(SHO_SETUP);
                    }
                    other => self
                        .out
                        .line(&format!("Error (unsupported variant): {other}")),
                }
            }
            "force" => {
                self.stop_search(true);
                self.engine_color = None;
            }
            "go" => {
                self.stop_search(true);
                self.engine_color = Some(self.pos.side_to_move());
            }
            "playother" => {
                self.stop_search(true);
                self.engine_color = Some(self.pos.side_to_move().flip());
            }
            "usermove" => self.usermove(arg),
            "setboard" => self.setboard(arg),
            "level" => self.set_level(arg),
            "st" => self.seconds_per_move = arg.parse().ok(),
            "sd" => self.max_depth = arg.parse().ok(),
            "time" => self.time_cs = arg.parse().ok(),
            "otim" => self.otim_cs = arg.parse().ok(),
            "memory" => {
                if let (Ok(mb), Some(s)) = (arg.parse::<usize>(), self.searcher.as_mut()) {
                    if let Err(e) = s.set_hash(mb.clamp(1, crate::usi::options::MAX_HASH_MB)) {
                        self.out.line(&format!("telluser {e}"));
                    }
                }
            }
            "cores" => {
                if let (Ok(n), Some(s)) = (arg.parse::<usize>(), self.searcher.as_mut()) {
                    s.set_threads(n.clamp(1, crate::usi::options::MAX_THREADS));
                }
            }
            "ping" => self.out.line(&format!("pong {arg}")),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.stop_search(true);
                self.analyzing = true;
            }
            "exit" => {
                self.stop_search(true);
                self.analyzing = false;
            }
            "undo" | "remove" => {
                self.stop_search(true);
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n.min(self.pos.history().len()) {
                    self.pos.unmake_move();
                }
                self.game_over = false;
            }
            "hint" => {
                if let Some(mv) = self.hint {
                    self.out
                        .line(&format!("Hint: {}", pv_text(&self.pos, &[mv])));
                }
            }
            "result" => {
                self.stop_search(true);
                self.engine_color = None;
                self.game_over = true;
            }
            "?" => {
                if let Some(r) = &self.running {
                    if r.purpose == Purpose::Move {
                        r.control.stop();
                    }
                }
            }
            "lift" => self.lift(arg),
            "put" => self.last_put = parse_xboard_square(self.variant, arg.trim_end_matches(',')),
            _ => {
                // Protocol v1 style: a bare move.
                if parse_legs(self.variant, line).is_some() {
                    self.usermove(line);
                } else {
                    self.out.line(&format!(
                        "Error (unknown command): {}",
                        crate::usi::command::truncate(cmd)
                    ));
                }
            }
        }
        self.think_if_due();
        true
    }

    fn features(&self) {
        let name = format!("Shishi {}", env!("CARGO_PKG_VERSION"));
        self.out.line(&format!("feature ping=1 setboard=1 usermove=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 highlight=1 analyze=1 myname=\"{name}\" variants=\"chu,shogi\""));
        self.out.line("feature done=1");
    }

    fn set_variant(&mut self, variant: &'static Variant) {
        self.variant = variant;
        self.pos = Position::startpos(variant);
        self.game_over = false;
        self.hint = None;
    }

    fn set_level(&mut self, arg: &str) {
        let fields: Vec<&str> = arg.split_whitespace().collect();
        if fields.len() != 3 {
            self.out.line(&format!("Error (bad level): {arg}"));
            return;
        }
        self.level.moves_per_session = fields[0].parse().unwrap_or(0);
        self.level.increment_ms = fields[2].parse::<f64>().map_or(0, |s| (s * 1000.0) as u64);
        self.seconds_per_move = None;
    }

    fn setboard(&mut self, fen: &str) {
        self.stop_search(true);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let side = match fields.get(1) {
            Some(&"b") => "w",
            _ => "b",
        };
        let sfen = format!("{} {side} - 1", fields.first().unwrap_or(&""));
        match Position::from_sfen(self.variant, &sfen) {
            Ok(pos) => {
                self.pos = pos;
                self.game_over = false;
                self.hint = None;
            }
            Err(e) => self
                .out
                .line(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn usermove(&mut self, text: &str) {
        self.stop_search(true);
        let mv = match parse_legs(self.variant, text) {
            None => Err("not a move".to_string()),
            Some(Legs::Pass) => {
                let mut moves = Vec::new();
                self.pos.legal_moves(GenMode::Search, &mut moves);
                moves
                    .into_iter()
                    .find(|m| {
                        m.mid().is_some_and(|mid| {
                            m.to() == m.from() && self.pos.piece_on(mid).is_empty()
                        })
                    })
                    .ok_or_else(|| "no lion can pass".to_string())
            }
            Some(Legs::Squares {
                from,
                mid,
                to,
                promote,
            }) => self
                .pos
                .find_move(from, mid, to, promote)
                .ok_or_else(|| self.pos.illegal_reason(from, mid, to)),
        };
        match mv {
            Ok(mv) => {
                self.pos.make_move(mv);
                self.hint = None;
                self.announce_game_end();
            }
            Err(reason) => self.out.line(&format!("Illegal move ({reason}): {text}")),
        }
    }

    /// Prints the result if the game just ended; stops playing.
    fn announce_game_end(&mut self) {
        if let Some(outcome) = self.pos.outcome() {
            self.out.line(&result_line(outcome));
            self.game_over = true;
        }
    }

    /// Starts a search when it is the engine's turn, or analysis when analysing.
    fn think_if_due(&mut self) {
        if self.running.is_some() || self.searcher.is_none() {
            return;
        }
        if self.analyzing {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start(limits, Purpose::Analyze);
        } else if !self.game_over && self.engine_color == Some(self.pos.side_to_move()) {
            let limits = self.limits();
            self.start(limits, Purpose::Move);
        }
    }

    fn limits(&self) -> Limits {
        let ms = Duration::from_millis;
        let mut limits = Limits {
            depth: self.max_depth,
            avoid_repetition: true,
            ..Limits::default()
        };
        if let Some(st) = self.seconds_per_move {
            limits.movetime = Some(ms(st * 1000));
        } else if let Some(own) = self.time_cs {
            let us = self.pos.side_to_move();
            let other = self.otim_cs.unwrap_or(own);
            let mut time = [ms(own * 10); 2];
            time[us.flip().index()] = ms(other * 10);
            let mps = self.level.moves_per_session;
            let played = (self.pos.history().len() / 2) as u32;
            let inc = ms(self.level.increment_ms);
            limits.clock = Some(Clock {
                time,
                increment: [inc; 2],
                byoyomi: [Duration::ZERO; 2],
                moves_to_go: (mps > 0).then(|| mps - played % mps),
            });
        } else if self.max_depth.is_none() {
            limits.movetime = Some(ms(5000));
        }
        limits
    }

    fn start(&mut self, limits: Limits, purpose: Purpose) {
        let control = Arc::new(SearchControl::new(false));
        let mut searcher = self.searcher.take().expect("no search running");
        let (out, pos, events) = (Arc::clone(&self.out), self.pos.clone(), self.events.clone());
        let show = self.post || purpose == Purpose::Analyze;
        let thread_control = Arc::clone(&control);
        let key = self.pos.key();
        self.next_search_id += 1;
        let id = self.next_search_id;
        let handle = std::thread::Builder::new()
            .name("cecp-search".into())
            .spawn(move || {
                let observer = Thinking {
                    out: &out,
                    pos: &pos,
                    show,
                };
                let result = searcher.search(&pos, &limits, &thread_control, &observer);
                let _ = events.send(Event::SearchDone(id));
                (searcher, result)
            })
            .expect("spawn the search thread");
        self.running = Some(Running {
            id,
            handle,
            control,
            purpose,
            key,
        });
    }

    /// Stops (if asked) and waits for the search; a move search's result is discarded.
    fn stop_search(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.control.stop();
            }
            if let Ok((searcher, _)) = r.handle.join() {
                self.searcher = Some(searcher);
            } else {
                self.searcher = Some(xboard_searcher());
            }
        }
    }

    /// A search ended on its own (or by `?`): play its move. Events of searches that were
    /// already stopped and joined are ignored.
    fn search_done(&mut self, id: u64) {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        let Some(r) = self.running.take() else { return };
        let (searcher, result) = match r.handle.join() {
            Ok(v) => v,
            Err(_) => (
                xboard_searcher(),
                SearchResult {
                    best: None,
                    ponder: None,
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    pv: Vec::new(),
                },
            ),
        };
        self.searcher = Some(searcher);
        if r.purpose != Purpose::Move
            || r.key != self.pos.key()
            || self.engine_color != Some(self.pos.side_to_move())
        {
            self.think_if_due();
            return;
        }
        match result.best {
            Some(mv) => {
                for leg in move_legs(&self.pos, mv) {
                    self.out.line(&format!("move {leg}"));
                }
                self.pos.make_move(mv);
                self.hint = result.ponder;
                self.announce_game_end();
            }
            None => {
                // No legal move: the engine has lost.
                let us = self.pos.side_to_move();
                self.out.line(&result_line(Outcome {
                    winner: Some(us.flip()),
                    reason: OutcomeReason::NoLegalMoves,
                }));
                self.game_over = true;
            }
        }
        self.think_if_due();
    }

    /// The board-marker extension: legal targets of the lifted piece.
    fn lift(&mut self, arg: &str) {
        let Some(sq) = parse_xboard_square(self.variant, arg.trim_end_matches(',')) else {
            return;
        };
        let mut moves = Vec::new();
        self.pos.legal_moves(GenMode::Perft, &mut moves);
        let mut marks: BTreeMap<Square, char> = BTreeMap::new();
        let mark = |marks: &mut BTreeMap<Square, char>, sq: Square, c: char| {
            let rank = |c: char| match c {
                'C' => 3,
                'M' => 2,
                'R' => 1,
                _ => 0,
            };
            let e = marks.entry(sq).or_insert(c);
            if rank(c) > rank(*e) {
                *e = c;
            }
        };
        if self.pos.piece_on(sq).is(self.pos.side_to_move()) {
            for mv in moves.iter().filter(|m| m.from() == sq) {
                match mv.mid() {
                    None => {
                        let c = if mv.is_promotion() {
                            'M'
                        } else if self.pos.piece_on(mv.to()).is_empty() {
                            'Y'
                        } else {
                            'R'
                        };
                        mark(&mut marks, mv.to(), c);
                    }
                    Some(mid) if !self.pos.piece_on(mid).is_empty() => mark(&mut marks, mid, 'C'),
                    Some(_) => {}
                }
            }
            self.last_lift = Some(sq);
            self.last_put = None;
        } else if let (Some(from), true) = (self.last_lift, self.last_put == Some(sq)) {
            // Second leg of a double move: from the mid square just put on.
            for mv in moves
                .iter()
                .filter(|m| m.from() == from && m.mid() == Some(sq))
            {
                let c = if mv.to() != from && !self.pos.piece_on(mv.to()).is_empty() {
                    'R'
                } else {
                    'Y'
                };
                mark(&mut marks, mv.to(), c);
            }
            // Stopping on the mid square itself ends the move there.
            if moves
                .iter()
                .any(|m| m.from() == from && m.to() == sq && m.mid().is_none())
            {
                mark(
                    &mut marks,
                    sq,
                    if self.pos.piece_on(sq).is_empty() {
                        'Y'
                    } else {
                        'R'
                    },
                );
            }
        }
        if marks.is_empty() {
            return;
        }
        self.out
            .line(&format!("highlight {}", color_fen(self.variant, &marks)));
    }
}

/// The CECP result line for an outcome (sente is XBoard's white: `1-0` when sente wins).
pub fn result_line(outcome: Outcome) -> String {
    format!(
        "{} {{{}}}",
        crate::position::result_text(outcome.winner),
        outcome.reason.describe()
    )
}

/// A COLORFEN: ranks from the top (XBoard's highest rank first), digits for unmarked squares.
pub fn color_fen(variant: &Variant, marks: &BTreeMap<Square, char>) -> String {
    let mut rows = Vec::new();
    for y in 0..variant.spec.ranks {
        let mut row = String::new();
        let mut empty = 0;
        for x in 0..variant.spec.files {
            match marks.get(&Square::new(x, y)) {
                Some(&c) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}
