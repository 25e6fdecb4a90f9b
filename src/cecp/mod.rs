//! The XBoard/WinBoard front-end (CECP v2) for chu (`variant chu`) and sho (served under
//! XBoard's `shogi`, set up with `setup` the way HaChu does it). A thin adapter over the
//! engine [`Session`] like the USI front-end: the shared reader thread, a controller that
//! never blocks, the session's search worker. The controller plays the engine's moves
//! itself when a search ends.
//!
//! Notation: XBoard squares (`f3`, `g10`), a double move as two legs `f3f4,f4g5` (the engine
//! prints each leg on its own `move` line, a comma after all but the last), `@@@@` for a lion
//! pass, `+` for promotion. In XBoard FENs `w` means sente to move. See protocol-docs/cecp.md.

mod options;

use crate::core::score::mate_plies;
use crate::core::{Color, Move, Square};
use crate::position::notation::{parse_xboard_square, square_to_xboard};
use crate::position::{GenMode, Outcome, OutcomeReason, Position};
use crate::records::xboard::{lion_pass, move_legs, parse_legs, pv_text, Legs};
use crate::search::{Clock, Info, Limits, Observer, SearchResult};
use crate::session::io::{next_event, spawn_stdin_reader, Input, Output, MAX_LINE_BYTES};
use crate::session::options::{self as option_table, Protocol};
use crate::session::text::{parse_number, truncate};
use crate::session::{PositionError, Refusal, Session, Setting, Settings};
use crate::variant::Variant;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::Duration;

/// What reaches the controller: input, and the end of a search.
pub enum Event {
    /// From the GUI.
    Input(Input),
    /// The search with this id ended (a stopped search's event may arrive after a new one
    /// started, so the id is checked).
    SearchDone(u64, SearchResult),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Move,
    Analyze,
}

struct Running {
    id: u64,
    purpose: Purpose,
    /// The position key the search started from (a stale result is dropped).
    key: u64,
}

/// `level MPS BASE INC`.
#[derive(Clone, Copy, Default)]
struct Level {
    moves_per_session: u32,
    /// The session's base time (`level 40 5 0`: 5 minutes; `0:30`: 30 s), which stands for
    /// the clock until XBoard sends `time` (a GUI that never does would otherwise leave the
    /// engine without a clock: `level 0 1 0` spent 4.9 s on move 1 of a 60 s game).
    base_ms: u64,
    increment_ms: u64,
}

/// The base time of `level MPS BASE INC` in ms: minutes (`5`, `0.5`) or minutes and
/// seconds (`0:30`).
fn level_base_ms(text: &str) -> Option<u64> {
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m.parse::<f64>().ok()?, s.parse::<f64>().ok()?),
        None => (text.parse::<f64>().ok()?, 0.0),
    };
    let ms = (minutes * 60.0 + seconds) * 1000.0;
    (ms.is_finite() && ms >= 0.0).then(|| ms.min(1e12) as u64)
}

/// The XBoard adapter over a session.
pub struct Controller {
    out: Arc<Output>,
    events: Sender<Event>,
    session: Session,
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

/// XBoard's thinking output: `ply score time(cs) nodes pv`.
struct Thinking {
    out: Arc<Output>,
    pos: Position,
    show: bool,
}

impl Observer for Thinking {
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
            pv_text(&self.pos, &info.pv)
        ));
    }
}

impl Controller {
    /// A controller writing to `out`; the end of each search comes back through `events`
    /// (to be passed to [`handle`](Controller::handle)). An error if the search worker
    /// cannot start.
    pub fn new(out: Arc<Output>, events: Sender<Event>) -> std::io::Result<Controller> {
        Controller::with_settings(out, events, Settings::for_protocol(Protocol::Xboard))
    }

    /// A controller whose session starts with `settings` (tests and fuzzing).
    pub fn with_settings(
        out: Arc<Output>,
        events: Sender<Event>,
        settings: Settings,
    ) -> std::io::Result<Controller> {
        let notify_out = Arc::clone(&out);
        let session = Session::new(
            settings,
            Arc::new(move |text: &str| notify_out.line(&format!("telluser {text}"))),
        )?;
        Ok(Controller {
            out,
            events,
            session,
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
        })
    }

    /// Handles one event; false to quit.
    pub fn handle(&mut self, event: Event) -> bool {
        match event {
            Event::Input(Input::Line(line)) => self.line(&line),
            Event::Input(Input::Overlong(n)) => {
                self.out.line(&format!(
                    "Error (line too long): {n} bytes, at most {MAX_LINE_BYTES}"
                ));
                true
            }
            Event::Input(Input::Eof) => {
                self.stop_search();
                false
            }
            Event::SearchDone(id, result) => {
                self.search_done(id, result);
                true
            }
        }
    }

    /// The position, if one is set.
    fn pos(&self) -> Option<&Position> {
        self.session.position()
    }

    /// The variant played.
    fn variant(&self) -> &'static Variant {
        self.session.variant()
    }

    /// Handles one line; false to quit.
    fn line(&mut self, raw: &str) -> bool {
        let line = raw.trim();
        log::debug!("<< {line}");
        let (cmd, arg) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "easy" | "hard" | "bk" | "hover" | "." => {}
            "option" => {
                self.stop_analysis();
                self.set_option(arg)
            }
            "quit" => return false,
            "memory" | "cores" => {
                self.stop_analysis();
                self.setting_command(cmd, arg)
            }
            "protover" | "ping" | "post" | "nopost" => self.setting_command(cmd, arg),
            "level" | "st" | "sd" | "time" | "otim" => self.clock_command(cmd, arg),
            "new" | "variant" | "force" | "go" | "playother" | "result" | "undo" | "remove"
            | "usermove" | "setboard" => self.game_command(cmd, arg),
            "analyze" | "exit" | "hint" | "?" | "lift" | "put" => self.thinking_command(cmd, arg),
            _ => {
                // Protocol v1 style: a bare move.
                if parse_legs(self.variant(), line).is_some() {
                    self.usermove(line);
                } else {
                    self.out
                        .line(&format!("Error (unknown command): {}", truncate(cmd)));
                }
            }
        }
        self.think_if_due();
        true
    }

    /// The engine's own settings and the handshake.
    fn setting_command(&mut self, cmd: &str, arg: &str) {
        match cmd {
            "protover" => self.features(),
            "ping" => {
                // `pong` promises that everything sent before is done (a new hash included).
                self.session.ready();
                self.out.line(&format!("pong {}", truncate(arg)))
            }
            // Zero or less is no size: refused with a word, the old value stays (XBoard
            // sends what the user typed in its settings).
            "memory" => match parse_number(arg) {
                Some(mb) if mb >= 1 => self.session.set(Setting::Value(option_table::HASH, mb)),
                _ => self.bad_argument(cmd, arg),
            },
            "cores" => match parse_number(arg) {
                Some(n) if n >= 1 => self.session.set(Setting::Value(option_table::THREADS, n)),
                _ => self.bad_argument(cmd, arg),
            },
            "post" => self.post = true,
            _ => self.post = false,
        }
    }

    /// Clocks and search limits.
    fn clock_command(&mut self, cmd: &str, arg: &str) {
        let number = parse_number(arg);
        match cmd {
            "level" => self.set_level(arg),
            "st" => self.seconds_per_move = number.map(|s| s.max(0) as u64),
            "sd" => self.max_depth = number.map(|d| d.clamp(1, 120) as i32),
            "time" => self.time_cs = number.map(|t| t.max(0) as u64),
            _ => self.otim_cs = number.map(|t| t.max(0) as u64),
        }
    }

    /// The game: variant, position, moves, who plays what.
    fn game_command(&mut self, cmd: &str, arg: &str) {
        match cmd {
            "usermove" => return self.usermove(arg),
            "setboard" => return self.setboard(arg),
            _ => self.stop_search(),
        }
        match cmd {
            "new" => {
                self.session.new_game();
                self.set_variant(Variant::chu());
                self.engine_color = Some(Color::Gote);
                self.analyzing = false;
                self.max_depth = None;
                self.seconds_per_move = None;
            }
            "variant" => match Variant::by_xboard_name(arg) {
                Some(v) => {
                    self.set_variant(v);
                    if let Some(setup) = v.spec.xboard.setup {
                        self.out.line(setup);
                    }
                }
                None => self
                    .out
                    .line(&format!("Error (unsupported variant): {}", truncate(arg))),
            },
            "force" => self.engine_color = None,
            "go" => self.engine_color = self.pos().map(|p| p.side_to_move()),
            "playother" => self.engine_color = self.pos().map(|p| p.side_to_move().flip()),
            "result" => {
                self.engine_color = None;
                self.game_over = true;
            }
            _ => {
                self.session.undo(if cmd == "undo" { 1 } else { 2 });
                self.game_over = false;
            }
        }
    }

    /// Analysis, hints, move-now and the board markers.
    fn thinking_command(&mut self, cmd: &str, arg: &str) {
        match cmd {
            "analyze" | "exit" => {
                self.stop_search();
                self.analyzing = cmd == "analyze";
            }
            "hint" => {
                if let (Some(mv), Some(pos)) = (self.hint, self.pos()) {
                    self.out.line(&format!("Hint: {}", pv_text(pos, &[mv])));
                }
            }
            "?" => {
                if self
                    .running
                    .as_ref()
                    .is_some_and(|r| r.purpose == Purpose::Move)
                {
                    self.session.stop();
                }
            }
            "lift" => self.lift(arg),
            _ => self.last_put = parse_xboard_square(self.variant(), arg.trim_end_matches(',')),
        }
    }

    fn bad_argument(&self, cmd: &str, arg: &str) {
        self.out
            .line(&format!("Error (bad argument): {cmd} {}", truncate(arg)));
    }

    fn features(&self) {
        let name = format!("Shishi {}", env!("CARGO_PKG_VERSION"));
        let variants: Vec<&str> = Variant::all()
            .iter()
            .map(|v| v.spec.xboard.names[0])
            .collect();
        self.out.line(&format!("feature ping=1 setboard=1 usermove=1 memory=1 smp=1 colors=0 sigint=0 sigterm=0 highlight=1 analyze=1 myname=\"{name}\" variants=\"{}\"", variants.join(",")));
        // The options of XBoard's engine settings dialog (the session's option table).
        for line in options::feature_lines() {
            self.out.line(&line);
        }
        self.out.line("feature done=1");
    }

    /// `option NAME=VALUE` (or `option NAME` for a button), from the engine settings
    /// dialog. A bad name or value is refused with `Error` and changes nothing.
    fn set_option(&mut self, arg: &str) {
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (arg.trim(), None),
        };
        let Some(option) = option_table::find(name, Protocol::Xboard) else {
            self.out
                .line(&format!("Error (unknown option): {}", truncate(name)));
            return;
        };
        match option_table::parse(option, value) {
            Ok(setting) => self.session.set(setting),
            Err(e) => {
                let shown = option.xboard_name.unwrap_or(option.name);
                self.out
                    .line(&format!("Error (bad option value): {}", e.message(shown)))
            }
        }
    }

    fn set_variant(&mut self, variant: &'static Variant) {
        self.session.set(Setting::Variant(variant));
        self.session.set_position_to(Position::startpos(variant));
        self.game_over = false;
        self.hint = None;
    }

    /// `level MPS BASE INC`: BASE in minutes or `m:ss`, INC in seconds (decimals allowed).
    fn set_level(&mut self, arg: &str) {
        let fields: Vec<&str> = arg.split_whitespace().collect();
        let (Some(mps), Some(inc)) = (
            fields.first().and_then(|f| parse_number(f)),
            fields.get(2).and_then(|f| f.parse::<f64>().ok()),
        ) else {
            self.out
                .line(&format!("Error (bad level): {}", truncate(arg)));
            return;
        };
        if fields.len() != 3 || !inc.is_finite() {
            self.out
                .line(&format!("Error (bad level): {}", truncate(arg)));
            return;
        }
        let Some(base_ms) = level_base_ms(fields[1]) else {
            self.out
                .line(&format!("Error (bad level): {}", truncate(arg)));
            return;
        };
        self.level.moves_per_session = mps.clamp(0, 10_000) as u32;
        self.level.base_ms = base_ms;
        self.level.increment_ms = (inc.clamp(0.0, 86_400.0) * 1000.0) as u64;
        self.seconds_per_move = None;
    }

    /// `setboard FEN`: a position that does not parse leaves no position (the engine then
    /// neither moves nor analyses until `new` or a good `setboard`).
    fn setboard(&mut self, fen: &str) {
        self.stop_search();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let side = match fields.get(1) {
            Some(&"b") => "w",
            _ => "b",
        };
        let sfen = format!("{} {side} - 1", fields.first().unwrap_or(&""));
        self.hint = None;
        match self.session.set_position(Some(&sfen), &[]) {
            Ok(()) => self.game_over = false,
            Err(e) => {
                let remedy = match &e {
                    PositionError::Sfen {
                        other_variant: Some(v),
                        ..
                    } => format!("; send 'variant {}' first", v.spec.xboard.names[0]),
                    _ => String::new(),
                };
                self.out
                    .line(&format!("tellusererror Illegal position: {e}{remedy}"))
            }
        }
    }

    fn usermove(&mut self, text: &str) {
        // An illegal move changes nothing: a running search (analysis, pondering) goes on.
        let Some(mut pos) = self.pos().cloned() else {
            self.out.line(&format!(
                "Illegal move (no position is set): {}",
                truncate(text)
            ));
            return;
        };
        let mv = if let Some(outcome) = pos.outcome() {
            Err(format!("the game is over: {}", outcome.reason.describe()))
        } else {
            match parse_legs(pos.variant(), text) {
                None => Err("not a move".to_string()),
                Some(Legs::Pass) => {
                    lion_pass(&mut pos).ok_or_else(|| "no lion can pass".to_string())
                }
                Some(Legs::Squares {
                    from,
                    mid,
                    to,
                    promote,
                }) => {
                    let variant = pos.variant();
                    pos.find_move(from, mid, to, promote).ok_or_else(|| {
                        pos.illegal_reason(from, mid, to, |sq| square_to_xboard(variant, sq))
                    })
                }
            }
        };
        match mv {
            Ok(mv) => {
                self.stop_search();
                self.session.play(mv);
                self.hint = None;
                self.announce_game_end();
            }
            Err(reason) => self
                .out
                .line(&format!("Illegal move ({reason}): {}", truncate(text))),
        }
    }

    /// Prints the result if the game just ended; stops playing.
    fn announce_game_end(&mut self) {
        if let Some(outcome) = self.pos().cloned().and_then(|mut p| p.outcome()) {
            self.out.line(&result_line(outcome));
            self.game_over = true;
        }
    }

    /// Starts a search when it is the engine's turn, or analysis when analysing.
    fn think_if_due(&mut self) {
        if self.running.is_some() {
            return;
        }
        let Some(stm) = self.pos().map(|p| p.side_to_move()) else {
            return;
        };
        if self.analyzing {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.start(limits, Purpose::Analyze);
        } else if !self.game_over && self.engine_color == Some(stm) {
            if let Some(limits) = self.limits() {
                self.start(limits, Purpose::Move);
            }
        }
    }

    fn limits(&self) -> Option<Limits> {
        let pos = self.pos()?;
        let ms = Duration::from_millis;
        // The options' part (skill, repetitions, ...) is the session's.
        let mut limits = Limits {
            depth: self.max_depth,
            ..Limits::default()
        };
        if let Some(st) = self.seconds_per_move {
            limits.movetime = Some(ms(st.saturating_mul(1000)));
        } else if let Some(own) = self
            .time_cs
            .or((self.level.base_ms > 0).then_some(self.level.base_ms / 10))
        {
            let us = pos.side_to_move();
            let other = self.otim_cs.unwrap_or(own);
            let mut time = [ms(own.saturating_mul(10)); 2];
            time[us.flip().index()] = ms(other.saturating_mul(10));
            let mps = self.level.moves_per_session;
            let played = (pos.history().len() / 2) as u32;
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
        Some(limits)
    }

    fn start(&mut self, limits: Limits, purpose: Purpose) {
        let Some(pos) = self.pos().cloned() else {
            return;
        };
        self.next_search_id += 1;
        let id = self.next_search_id;
        let observer = Box::new(Thinking {
            out: Arc::clone(&self.out),
            pos: pos.clone(),
            show: self.post || purpose == Purpose::Analyze,
        });
        let events = self.events.clone();
        let done = Box::new(move |result| {
            let _ = events.send(Event::SearchDone(id, result));
        });
        match self.session.go(limits, false, observer, done) {
            Ok(_) => {
                self.running = Some(Running {
                    id,
                    purpose,
                    key: pos.key(),
                })
            }
            Err(Refusal::GameOver(_)) => self.game_over = true,
            Err(Refusal::NoPosition) => {}
        }
    }

    /// Stops the search and waits for it; its result is discarded.
    /// Stops a running analysis, so that a setting made during it applies at once: the
    /// analysis starts again with it after the command ([`Self::think_if_due`]). A search
    /// for a move is left to finish (its setting applies to the next).
    fn stop_analysis(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.purpose == Purpose::Analyze)
        {
            self.stop_search();
        }
    }

    fn stop_search(&mut self) {
        if self.running.take().is_some() {
            self.session.stop_and_wait();
        }
    }

    /// A search ended on its own (or by `?`): play its move. Results of searches that were
    /// already stopped are ignored.
    fn search_done(&mut self, id: u64, result: SearchResult) {
        if self.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        let Some(r) = self.running.take() else { return };
        let Some(pos) = self.pos().cloned() else {
            return;
        };
        if r.purpose != Purpose::Move
            || r.key != pos.key()
            || self.engine_color != Some(pos.side_to_move())
        {
            self.think_if_due();
            return;
        }
        match result.best {
            Some(mv) => {
                for leg in move_legs(&pos, mv) {
                    self.out.line(&format!("move {leg}"));
                }
                self.session.play(mv);
                self.hint = result.ponder;
                self.announce_game_end();
            }
            None => {
                // No legal move: the engine has lost.
                let us = pos.side_to_move();
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
        let Some(mut pos) = self.session.position().cloned() else {
            return;
        };
        let Some(sq) = parse_xboard_square(pos.variant(), arg.trim_end_matches(',')) else {
            return;
        };
        let mut moves = Vec::new();
        pos.legal_moves(GenMode::Perft, &mut moves);
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
        if pos.piece_on(sq).is(pos.side_to_move()) {
            for mv in moves.iter().filter(|m| m.from() == sq) {
                match mv.mid() {
                    None => {
                        let c = if mv.is_promotion() {
                            'M'
                        } else if pos.piece_on(mv.to()).is_empty() {
                            'Y'
                        } else {
                            'R'
                        };
                        mark(&mut marks, mv.to(), c);
                    }
                    Some(mid) if !pos.piece_on(mid).is_empty() => mark(&mut marks, mid, 'C'),
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
                let c = if mv.to() != from && !pos.piece_on(mv.to()).is_empty() {
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
                    if pos.piece_on(sq).is_empty() {
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
            .line(&format!("highlight {}", color_fen(pos.variant(), &marks)));
    }
}

/// The CECP result line for an outcome (sente is XBoard's white: `1-0` when sente wins).
pub fn result_line(outcome: Outcome) -> String {
    format!(
        "{} {{{}}}",
        crate::records::GameResult::won_by(outcome.winner),
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
