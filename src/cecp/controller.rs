//! The XBoard controller: the commands of one session, carried out in order. It never
//! blocks on a search: a search's end comes back as an [`Event`] and the controller plays
//! the engine's move itself.

use super::clock::TimeControl;
use super::command::{parse, Command};
use super::markers::Markers;
use super::replies::{color_fen, features, result_line, Thinking};
use super::Event;
use crate::core::{Color, Move};
use crate::position::notation::{parse_xboard_square, square_to_xboard};
use crate::position::{Outcome, OutcomeReason, Position};
use crate::records::xboard::{lion_pass, move_legs, parse_legs, pv_text, Legs};
use crate::search::{Limits, SearchResult};
use crate::session::io::{Input, Output, MAX_LINE_BYTES};
use crate::session::options::{self as option_table, Protocol};
use crate::session::{PositionError, Refusal, Session, Setting, Settings};
use crate::text::truncate;
use crate::variant::Variant;
use std::sync::mpsc::Sender;
use std::sync::Arc;

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
    time_control: TimeControl,
    markers: Markers,
    hint: Option<Move>,
    game_over: bool,
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
            time_control: TimeControl::default(),
            markers: Markers::default(),
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
        log::debug!("<< {}", raw.trim());
        match parse(raw) {
            Ok(Command::Quit) => return false,
            Ok(command) => self.command(command),
            Err(e) => self.out.line(&e.to_string()),
        }
        self.think_if_due();
        true
    }

    /// Carries out one command (then a search starts if one is due).
    fn command(&mut self, command: Command) {
        match command {
            Command::Nothing | Command::Quit => {}
            Command::Protover => {
                for line in features() {
                    self.out.line(&line);
                }
            }
            Command::Ping(n) => {
                // `pong` promises that everything sent before is done (a new hash included).
                self.session.ready();
                self.out.line(&format!("pong {}", truncate(&n)))
            }
            Command::Post(on) => self.post = on,
            Command::Memory(mb) => {
                self.stop_analysis();
                self.session.set(Setting::Value(option_table::HASH, mb))
            }
            Command::Cores(n) => {
                self.stop_analysis();
                self.session.set(Setting::Value(option_table::THREADS, n))
            }
            Command::Option { name, value } => {
                self.stop_analysis();
                self.set_option(&name, value.as_deref())
            }
            Command::Level(level) => self.time_control.set_level(level),
            Command::SecondsPerMove(st) => self.time_control.seconds_per_move = st,
            Command::Depth(sd) => self.time_control.max_depth = sd,
            Command::Time(cs) => self.time_control.own_cs = cs,
            Command::OpponentTime(cs) => self.time_control.opponent_cs = cs,
            Command::UserMove(text) => self.usermove(&text),
            Command::SetBoard(fen) => self.setboard(&fen),
            Command::New
            | Command::Variant(_)
            | Command::Force
            | Command::Go
            | Command::PlayOther
            | Command::Result
            | Command::TakeBack(_) => {
                self.stop_search();
                self.game_command(command)
            }
            Command::Analyze(on) => {
                self.stop_search();
                self.analyzing = on;
            }
            Command::Hint => {
                if let (Some(mv), Some(pos)) = (self.hint, self.pos()) {
                    self.out.line(&format!("Hint: {}", pv_text(pos, &[mv])));
                }
            }
            Command::MoveNow => {
                if self
                    .running
                    .as_ref()
                    .is_some_and(|r| r.purpose == Purpose::Move)
                {
                    self.session.stop();
                }
            }
            Command::Lift(square) => self.lift(&square),
            Command::Put(square) => {
                self.markers.put = parse_xboard_square(self.variant(), square.trim_end_matches(','))
            }
            Command::Other(line) => {
                // Protocol v1 style: a bare move.
                if parse_legs(self.variant(), &line).is_some() {
                    self.usermove(&line);
                } else {
                    let name = line.split_whitespace().next().unwrap_or("");
                    self.out
                        .line(&format!("Error (unknown command): {}", truncate(name)));
                }
            }
        }
    }

    /// The game: variant, position, who plays what (a running search is stopped first).
    fn game_command(&mut self, command: Command) {
        match command {
            Command::New => {
                self.session.new_game();
                self.set_variant(Variant::chu());
                self.engine_color = Some(Color::Gote);
                self.analyzing = false;
                self.time_control.max_depth = None;
                self.time_control.seconds_per_move = None;
            }
            Command::Variant(name) => match Variant::by_xboard_name(&name) {
                Some(v) => {
                    self.set_variant(v);
                    if let Some(setup) = v.spec.xboard.setup {
                        self.out.line(setup);
                    }
                }
                None => self
                    .out
                    .line(&format!("Error (unsupported variant): {}", truncate(&name))),
            },
            Command::Force => self.engine_color = None,
            Command::Go => self.engine_color = self.pos().map(|p| p.side_to_move()),
            Command::PlayOther => self.engine_color = self.pos().map(|p| p.side_to_move().flip()),
            Command::Result => {
                self.engine_color = None;
                self.game_over = true;
            }
            Command::TakeBack(plies) => {
                self.session.undo(plies);
                self.game_over = false;
            }
            _ => {}
        }
    }

    /// `option NAME=VALUE` (or `option NAME` for a button), from the engine settings
    /// dialog. A bad name or value is refused with `Error` and changes nothing.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
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
        Some(self.time_control.limits(self.pos()?))
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

    pub(super) fn stop_search(&mut self) {
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

    /// The board-marker extension: the marks of a lifted piece, as `highlight`.
    fn lift(&mut self, arg: &str) {
        let Some(mut pos) = self.session.position().cloned() else {
            return;
        };
        let Some(sq) = parse_xboard_square(pos.variant(), arg.trim_end_matches(',')) else {
            return;
        };
        let marks = self.markers.lift(&mut pos, sq);
        if !marks.is_empty() {
            self.out
                .line(&format!("highlight {}", color_fen(pos.variant(), &marks)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::io::Captured;
    use std::sync::mpsc;

    /// A controller in force mode (it never starts a search by itself), and its output.
    fn controller() -> (Controller, Captured) {
        let printed = Captured::default();
        let (events, _) = mpsc::channel();
        let out = Arc::new(Output::to(Box::new(printed.clone())));
        let mut controller = Controller::new(out, events).unwrap();
        for line in ["xboard", "new", "force"] {
            assert!(controller.line(line));
        }
        printed.take();
        (controller, printed)
    }

    fn send(controller: &mut Controller, printed: &Captured, line: &str) -> Vec<String> {
        assert!(controller.line(line), "{line}");
        let text = printed.take();
        assert!(!text.contains('\u{FFFD}'), "not UTF-8: {text}");
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn ping_features_and_quit() {
        let (mut c, printed) = controller();
        assert_eq!(send(&mut c, &printed, "ping 42"), ["pong 42"]);
        let features = send(&mut c, &printed, "protover 2");
        assert_eq!(features.last().unwrap(), "feature done=1");
        assert!(!c.line("quit"));
    }

    #[test]
    fn moves_are_played_or_refused_with_the_reason() {
        let (mut c, printed) = controller();
        assert!(send(&mut c, &printed, "usermove f4f5").is_empty());
        assert_eq!(c.pos().unwrap().history().len(), 1);
        // A bare move (protocol 1) is a move too.
        assert!(send(&mut c, &printed, "f9f8").is_empty());
        let refused = send(&mut c, &printed, "usermove f5f7");
        assert_eq!(refused.len(), 1);
        assert!(refused[0].starts_with("Illegal move ("), "{refused:?}");
        assert!(refused[0].ends_with(": f5f7"), "{refused:?}");
        assert_eq!(
            send(&mut c, &printed, "frobnicate 3"),
            ["Error (unknown command): frobnicate"]
        );
        assert!(send(&mut c, &printed, "undo").is_empty());
        assert_eq!(c.pos().unwrap().history().len(), 1);
    }

    #[test]
    fn setboard_sets_a_position_or_says_why_not() {
        let (mut c, printed) = controller();
        let sho = "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w";
        let refused = send(&mut c, &printed, &format!("setboard {sho}"));
        assert_eq!(refused.len(), 1);
        assert!(refused[0].starts_with("tellusererror Illegal position:"));
        assert!(
            refused[0].ends_with("; send 'variant shogi' first"),
            "{refused:?}"
        );
        assert!(c.pos().is_none(), "a refused setboard leaves no position");
        assert!(send(&mut c, &printed, "variant shogi")
            .iter()
            .all(|l| l.starts_with("setup")));
        assert!(send(&mut c, &printed, &format!("setboard {sho}")).is_empty());
        assert_eq!(c.variant().name(), "shoshogi");
    }

    #[test]
    fn options_memory_and_levels_are_checked() {
        let (mut c, printed) = controller();
        assert_eq!(
            send(&mut c, &printed, "option No Such=1"),
            ["Error (unknown option): No Such"]
        );
        let bad = send(&mut c, &printed, "option MultiPV=x");
        assert!(
            bad[0].starts_with("Error (bad option value): option MultiPV"),
            "{bad:?}"
        );
        assert!(send(&mut c, &printed, "option MultiPV=2").is_empty());
        assert_eq!(
            send(&mut c, &printed, "memory -1"),
            ["Error (bad argument): memory -1"]
        );
        assert!(send(&mut c, &printed, "memory 8").is_empty());
        assert_eq!(
            send(&mut c, &printed, "level 40"),
            ["Error (bad level): 40"]
        );
        assert!(send(&mut c, &printed, "level 40 0:30 0").is_empty());
        assert_eq!(c.time_control.level.base_ms, 30_000);
        assert!(send(&mut c, &printed, "time 1500").is_empty());
        assert_eq!(c.time_control.own_cs, Some(1500));
    }
}
