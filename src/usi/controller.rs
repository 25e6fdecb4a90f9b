//! The USI controller: owns the engine state (variant, position, options, searcher) and
//! handles one command at a time without ever blocking on a search.
//!
//! A search runs on its own thread with the searcher moved into it; that thread prints the
//! one `bestmove` of its `go` and hands the searcher back through an event. While it runs:
//! `isready` is answered at once; `stop`, `quit` and `ponderhit` reach it through its
//! [`SearchControl`]; `position` is accepted for the next `go`; `setoption` is queued and
//! applied when the search ends; `go` and `usinewgame` first stop it. (protocol-docs/usi.md)

use super::command::{self, Command, GoParams};
use super::options::{self, OptionChange};
use super::response::{bestmove_line, checkmate_line, Output, UsiObserver};
use crate::eval::Evaluator;
use crate::position::{GenMode, Position};
use crate::search::{Clock, Limits, SearchControl, Searcher, MAX_PLY};
use crate::variant::Variant;
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What reaches the controller.
pub enum Event {
    /// A line from the GUI.
    Line(String),
    /// The input was closed.
    Eof,
    /// The search with this id printed its bestmove and is done (a stopped search's event
    /// may arrive after a new search started, so the id is checked).
    SearchDone(u64),
}

/// Whether to go on.
#[derive(PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Leave the loop.
    Quit,
}

struct Running {
    id: u64,
    handle: JoinHandle<Searcher>,
    control: Arc<SearchControl>,
}

/// The engine state behind the USI loop.
pub struct Controller {
    out: Arc<Output>,
    events: Sender<Event>,
    variant: &'static Variant,
    pos: Position,
    searcher: Option<Searcher>,
    running: Option<Running>,
    next_search_id: u64,
    queued: Vec<OptionChange>,
    ponder_option: bool,
    resign_when_lost: bool,
    avoid_repetition: bool,
    name: String,
}

impl Controller {
    /// A controller writing to `out`; `events` is where the search thread reports back.
    pub fn new(out: Arc<Output>, events: Sender<Event>) -> Controller {
        let variant = Variant::chu();
        let mut searcher = Searcher::new(options::DEFAULT_HASH_MB, 1);
        searcher.move_overhead = Duration::from_millis(options::DEFAULT_MOVE_OVERHEAD_MS);
        Controller {
            out,
            events,
            variant,
            pos: Position::startpos(variant),
            searcher: Some(searcher),
            running: None,
            next_search_id: 0,
            queued: Vec::new(),
            ponder_option: false,
            resign_when_lost: false,
            avoid_repetition: false,
            name: format!("Shishi {}", env!("CARGO_PKG_VERSION")),
        }
    }

    /// Handles one event.
    pub fn handle(&mut self, event: Event) -> Flow {
        match event {
            Event::Eof => {
                self.finish_search(true);
                Flow::Quit
            }
            Event::SearchDone(id) => {
                if self.running.as_ref().is_some_and(|r| r.id == id) {
                    self.join();
                }
                Flow::Continue
            }
            Event::Line(line) => {
                let line = line.trim_end_matches(['\r', '\n']);
                log::debug!("<< {line}");
                match command::parse(line) {
                    Ok(cmd) => self.command(cmd),
                    Err(message) => {
                        self.out.info_string(&format!("error: {message}"));
                        Flow::Continue
                    }
                }
            }
        }
    }

    fn command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Empty => {}
            Command::Usi => {
                self.out.line(&format!("id name {}", self.name));
                self.out.line("id author the Shishi developers");
                for line in options::option_lines(self.variant.name()) {
                    self.out.line(&line);
                }
                self.out.line("usiok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => match options::parse(&name, value.as_deref()) {
                Ok(change) => self.set_option(change),
                Err(message) => self.out.info_string(&format!("error: {message}")),
            },
            Command::UsiNewGame => {
                self.finish_search(true);
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            Command::Position { sfen, moves } => self.set_position(sfen.as_deref(), &moves),
            Command::Go(go, warnings) => {
                for w in warnings {
                    self.out.info_string(&format!("warning: {w}"));
                }
                self.go(go);
            }
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.control.stop();
                }
            }
            Command::PonderHit => {
                if let Some(r) = &self.running {
                    r.control.ponderhit();
                }
            }
            Command::GameOver(_) => {
                if let Some(r) = &self.running {
                    r.control.stop();
                }
            }
            Command::Quit => {
                self.finish_search(true);
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(depth) => self.bench(depth),
            Command::Eval => self.eval(),
            Command::Moves => {
                let mut moves = Vec::new();
                self.pos.clone().legal_moves(GenMode::Search, &mut moves);
                let mut text: Vec<String> =
                    moves.iter().map(|&m| self.pos.move_to_usi(m)).collect();
                text.sort();
                self.out.line(&format!("moves {}", text.join(" ")));
            }
        }
        Flow::Continue
    }

    /// Takes the searcher back from a finished search thread (never blocks).
    fn reclaim_if_done(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.join();
        }
    }

    /// Stops (if `stop`) and waits for the running search; its bestmove is printed by the
    /// search thread before it ends.
    fn finish_search(&mut self, stop: bool) {
        if let Some(r) = &self.running {
            if stop {
                r.control.stop();
            }
            self.join();
        }
    }

    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    log::error!("the search thread panicked; starting a fresh searcher");
                    self.searcher = Some(Searcher::new(options::DEFAULT_HASH_MB, 1));
                }
            }
            for change in std::mem::take(&mut self.queued) {
                self.apply(change);
            }
        }
    }

    fn set_option(&mut self, change: OptionChange) {
        self.reclaim_if_done();
        let needs_searcher = matches!(
            change,
            OptionChange::Hash(_)
                | OptionChange::Threads(_)
                | OptionChange::MultiPv(_)
                | OptionChange::MoveOverhead(_)
                | OptionChange::ClearHash
        );
        if needs_searcher && self.running.is_some() {
            self.out
                .info_string("the option will apply when the current search ends");
            self.queued.push(change);
        } else {
            self.apply(change);
        }
    }

    fn apply(&mut self, change: OptionChange) {
        let searcher = self.searcher.as_mut().expect("no search running");
        match change {
            OptionChange::Variant(name) => {
                let variant = Variant::by_name(name).expect("checked by the option parser");
                if variant.name() != self.variant.name() {
                    self.variant = variant;
                    self.pos = Position::startpos(variant);
                }
            }
            OptionChange::Hash(mb) => {
                if let Err(e) = searcher.set_hash(mb) {
                    self.out.info_string(&format!(
                        "error: {e}; keeping a {} MB table",
                        searcher.hash_mb()
                    ));
                }
            }
            OptionChange::Threads(n) => searcher.set_threads(n),
            OptionChange::MultiPv(n) => searcher.multipv = n,
            OptionChange::Ponder(on) => self.ponder_option = on,
            OptionChange::MoveOverhead(ms) => searcher.move_overhead = Duration::from_millis(ms),
            OptionChange::ClearHash => searcher.clear(),
            OptionChange::Resign(on) => self.resign_when_lost = on,
            OptionChange::AvoidRepetition(on) => self.avoid_repetition = on,
            OptionChange::Ignored(name) => self.out.info_string(&format!(
                "option {} is not used by this engine; ignored",
                command::truncate(&name)
            )),
        }
    }

    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) {
        let parsed = match sfen {
            None => Ok(Position::startpos(self.variant)),
            Some(text) => Position::from_sfen(self.variant, text).map_err(|e| {
                // Say so when the SFEN belongs to another variant.
                let other = Variant::all().into_iter().find(|v| {
                    v.name() != self.variant.name() && Position::from_sfen(v, text).is_ok()
                });
                match other {
                    Some(v) => format!(
                        "{e} (this SFEN is {}; set USI_Variant to {} first)",
                        v.name(),
                        v.name()
                    ),
                    None => e.to_string(),
                }
            }),
        };
        let mut pos = match parsed {
            Ok(p) => p,
            Err(message) => {
                self.out
                    .info_string(&format!("error: position not changed: {message}"));
                return;
            }
        };
        if let Err(e) = pos.play_usi_moves(moves.iter().map(String::as_str)) {
            self.out
                .info_string(&format!("error: position not changed: {e}"));
            return;
        }
        self.pos = pos;
    }

    fn limits(&self, go: &GoParams) -> Limits {
        let ms = Duration::from_millis;
        let has_clock = go.btime.is_some()
            || go.wtime.is_some()
            || go.byoyomi.is_some()
            || go.binc.is_some()
            || go.winc.is_some()
            || go.bbyoyomi.is_some()
            || go.wbyoyomi.is_some();
        let clock = has_clock.then(|| {
            let byo = go.byoyomi.unwrap_or(0);
            Clock {
                time: [ms(go.btime.unwrap_or(0)), ms(go.wtime.unwrap_or(0))],
                increment: [ms(go.binc.unwrap_or(0)), ms(go.winc.unwrap_or(0))],
                byoyomi: [
                    ms(go.bbyoyomi.unwrap_or(byo)),
                    ms(go.wbyoyomi.unwrap_or(byo)),
                ],
                moves_to_go: go.movestogo,
            }
        });
        let search_moves = go
            .searchmoves
            .iter()
            .filter_map(|m| self.pos.clone().parse_usi_move(m).ok())
            .collect();
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            mate: None,
            infinite: go.infinite,
            clock,
            search_moves,
            avoid_repetition: self.avoid_repetition,
        };
        if let Some(mate) = go.mate {
            // USI `go mate X`: X is a time in ms (or infinite); look for any mate within reach.
            limits.mate = Some((MAX_PLY as u32 - 8) / 2);
            match mate {
                Some(t) => limits.movetime = Some(ms(t)),
                None => limits.infinite = false,
            }
        }
        // No limit at all means "until stop", as in UCI.
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && limits.mate.is_none()
        {
            limits.infinite = true;
        }
        limits
    }

    fn go(&mut self, go: GoParams) {
        self.finish_search(true);
        let limits = self.limits(&go);
        if go.searchmoves.len() != limits.search_moves.len() {
            self.out
                .info_string("warning: some searchmoves are not legal here and were left out");
        }
        let mate_mode = go.mate.is_some();
        let control = Arc::new(SearchControl::new(go.ponder));
        let mut searcher = self
            .searcher
            .take()
            .expect("the searcher is back after finish_search");
        let (out, pos, events, resign) = (
            Arc::clone(&self.out),
            self.pos.clone(),
            self.events.clone(),
            self.resign_when_lost,
        );
        let thread_control = Arc::clone(&control);
        self.next_search_id += 1;
        let id = self.next_search_id;
        let spawned = std::thread::Builder::new()
            .name("usi-search".into())
            .spawn(move || {
                let observer = UsiObserver {
                    out: &out,
                    pos: &pos,
                };
                let result = searcher.search(&pos, &limits, &thread_control, &observer);
                out.line(&if mate_mode {
                    checkmate_line(&pos, &result)
                } else {
                    bestmove_line(&pos, &result, resign)
                });
                let _ = events.send(Event::SearchDone(id));
                searcher
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(Running {
                    id,
                    handle,
                    control,
                })
            }
            Err(e) => {
                // Without a thread there is no search; still one bestmove for this go.
                self.out
                    .info_string(&format!("error: cannot start the search thread: {e}"));
                self.out.line("bestmove resign");
                self.searcher = Some(Searcher::new(options::DEFAULT_HASH_MB, 1));
            }
        }
    }

    fn display(&self) {
        let v = self.variant;
        let files = v.spec.files;
        let header: String = (1..=files).rev().map(|f| format!("{f:>3}")).collect();
        self.out.line(&header);
        for y in 0..v.spec.ranks {
            let mut row = String::new();
            for x in 0..files {
                let p = self.pos.piece_on(crate::core::Square::new(x, y));
                let text = if p.is_empty() {
                    ".".to_string()
                } else {
                    crate::position::sfen::piece_sfen(v, p)
                };
                row += &format!("{text:>3}");
            }
            self.out
                .line(&format!("{row}  {}", (b'a' + y as u8) as char));
        }
        self.out.line(&format!("variant {}", v.name()));
        self.out.line(&format!("sfen {}", self.pos.to_sfen()));
        self.out.line(&format!("key {:016x}", self.pos.key()));
        self.out.line(&format!(
            "side to move {}",
            if self.pos.side_to_move() == crate::core::Color::Sente {
                "sente"
            } else {
                "gote"
            }
        ));
    }

    fn perft(&mut self, depth: u32) {
        let threads = self.searcher.as_ref().map_or(1, |s| s.threads());
        let start = std::time::Instant::now();
        let lines = crate::perft::divide(&self.pos, depth, threads);
        for (mv, n) in &lines {
            self.out.line(&format!("{mv} {n}"));
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        self.out.line(&format!("nodes {total}"));
        self.out.info_string(&format!(
            "perft {depth}: {} ms",
            start.elapsed().as_millis()
        ));
    }

    fn bench(&mut self, depth: Option<i32>) {
        self.finish_search(true);
        let threads = self.searcher.as_ref().map_or(1, |s| s.threads());
        let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
        let out = Arc::clone(&self.out);
        let (nodes, time) = crate::bench::run(depth, threads, 16, |l| {
            out.info_string(&format!(
                "position {} nodes {} bestmove {}",
                l.index + 1,
                l.nodes,
                l.best
            ))
        });
        self.out.line(&format!(
            "{nodes} nodes {} nps",
            (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
        ));
    }

    fn eval(&self) {
        let b = Evaluator::for_variant(self.variant).breakdown(&self.pos);
        for (name, value) in [
            ("material", b.material),
            ("placement", b.placement),
            ("promotion", b.promotion),
            ("mobility", b.mobility),
            ("royal safety", b.royal_safety),
            ("lion safety", b.lion_safety),
            ("development", b.development),
            ("tempo", b.tempo),
        ] {
            self.out.line(&format!("{name:<14}{value:>7}"));
        }
        self.out
            .line(&format!("{:<14}{:>7}  (sente's view)", "total", b.total()));
        self.out.line(&format!(
            "{:<14}{:>7}  (side to move)",
            "eval",
            Evaluator::for_variant(self.variant).evaluate(&self.pos)
        ));
    }
}
