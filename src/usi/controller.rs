//! The USI controller: parses each line and turns it into a call on the engine
//! [`Session`], which owns the variant, the position, the options and the search worker.
//! It never blocks on a search: the worker prints each `go`'s one `bestmove`; `isready` is
//! answered once option changes are applied (at once while a search runs); `stop`,
//! `ponderhit` and `quit` reach the running search through the session.
//! (protocol-docs/usi.md)

use super::command::{self, Command, GoParams};
use super::options::{self, Parsed};
use super::response::{bestmove_line, checkmate_line, info_string, UsiObserver};
use crate::analyse::{review, AnalysisSettings};
use crate::position::{GenMode, Position};
use crate::search::{Clock, Limits};
use crate::session::io::{Input, Output, MAX_LINE_BYTES};
use crate::session::{PositionError, Refusal, Session, Settings};
use std::sync::Arc;
use std::time::Duration;

/// Whether to go on.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Leave the loop.
    Quit,
}

/// The USI adapter over a session.
pub struct Controller {
    out: Arc<Output>,
    session: Session,
    name: String,
}

impl Controller {
    /// A controller writing to `out`; an error if the search worker cannot start.
    pub fn new(out: Arc<Output>) -> std::io::Result<Controller> {
        let settings = Settings::for_protocol(crate::session::options::Protocol::Usi);
        Controller::with_settings(out, settings)
    }

    /// A controller whose session starts with `settings` (tests and fuzzing use a small
    /// table).
    pub fn with_settings(out: Arc<Output>, settings: Settings) -> std::io::Result<Controller> {
        let notify_out = Arc::clone(&out);
        let session = Session::new(
            settings,
            Arc::new(move |text: &str| notify_out.line(&info_string(text))),
        )?;
        Ok(Controller {
            out,
            session,
            name: format!("Shishi {}", env!("CARGO_PKG_VERSION")),
        })
    }

    /// Handles one input.
    pub fn handle(&mut self, input: Input) -> Flow {
        match input {
            Input::Eof => {
                self.session.stop_and_wait();
                Flow::Quit
            }
            Input::Overlong(n) => {
                self.error(&format!(
                    "an input line of {n} bytes was ignored (too long: at most {MAX_LINE_BYTES} bytes)"
                ));
                Flow::Continue
            }
            Input::Line(line) => {
                log::debug!("<< {line}");
                match command::parse(&line) {
                    Ok(cmd) => self.command(cmd),
                    Err(error) => {
                        self.error(&error.to_string());
                        Flow::Continue
                    }
                }
            }
        }
    }

    fn info(&self, text: &str) {
        self.out.line(&info_string(text));
    }

    fn error(&self, text: &str) {
        self.info(&format!("error: {text}"));
    }

    fn command(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Empty => {}
            Command::Usi => {
                self.out.line(&format!("id name {}", self.name));
                self.out.line("id author the Shishi developers");
                for line in options::option_lines(self.session.variant().name()) {
                    self.out.line(&line);
                }
                self.out.line("usiok");
            }
            Command::IsReady => {
                self.session.ready();
                self.out.line("readyok")
            }
            Command::SetOption { name, value } => match options::parse(&name, value.as_deref()) {
                Parsed::Set(setting) => self.session.set(setting),
                Parsed::Accepted => {}
                Parsed::Unknown(name) => self.info(&format!(
                    "option {} is not used by this engine; ignored",
                    crate::text::truncate(&name)
                )),
                Parsed::Bad(message) => self.error(&message),
            },
            Command::UsiNewGame => self.session.new_game(),
            Command::Position { sfen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.session.set_position(sfen.as_deref(), &moves) {
                    let remedy = match &e {
                        PositionError::Sfen {
                            other_variant: Some(v),
                            ..
                        } => format!("; set USI_Variant to {} first", v.name()),
                        _ => String::new(),
                    };
                    self.error(&format!(
                        "position rejected: {e}{remedy}; there is no position until a good one is set"
                    ));
                }
            }
            Command::Go(go, warnings) => {
                for w in warnings {
                    self.info(&format!("warning: {w}"));
                }
                self.go(go);
            }
            Command::Stop | Command::GameOver(_) => self.session.stop(),
            Command::PonderHit => self.session.ponderhit(),
            Command::Quit => {
                self.session.stop_and_wait();
                return Flow::Quit;
            }
            Command::Display => self.with_position(|c, pos| c.display(pos)),
            Command::Perft(depth) => self.with_position(|c, pos| c.perft(pos, depth)),
            Command::Bench(depth) => self.bench(depth),
            Command::Eval => self.with_position(|c, pos| c.eval(pos)),
            Command::Moves => self.with_position(|c, pos| c.moves(pos)),
            Command::Kif => self.with_position(|c, pos| c.kif(pos)),
            Command::Pieces => self.pieces(),
            Command::KifRead(text) => self.kif_read(&text),
            Command::Review(params) => self.review(params),
        }
        Flow::Continue
    }

    /// Runs a debug command on the position, or says that there is none.
    fn with_position(&mut self, run: impl FnOnce(&Self, &mut Position)) {
        match self.session.position().cloned() {
            Some(mut pos) => run(self, &mut pos),
            None => self.error("no position is set"),
        }
    }

    /// The search limits of `go` in `pos`.
    fn limits(&self, go: &GoParams, pos: &Position) -> Limits {
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
            .filter_map(|m| pos.clone().parse_usi_move(m).ok())
            .collect();
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            infinite: go.infinite,
            clock,
            search_moves,
            // The options' part (skill, repetitions, analyse mode, ...) is the session's.
            ..Limits::default()
        };
        if let Some(mate) = go.mate {
            // USI `go mate X`: X is a time in ms (or infinite) for the mate solver.
            limits.mate = true;
            match mate {
                Some(t) => limits.movetime = Some(ms(t)),
                None => limits.infinite = true,
            }
        }
        // No limit at all means "until stop", as in UCI.
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && !limits.mate
        {
            limits.infinite = true;
        }
        limits
    }

    fn go(&mut self, go: GoParams) {
        // Wait for the running search's answer before looking at the position.
        self.session.stop_and_wait();
        if go.mate_malformed {
            self.error("go mate needs a time in ms or 'infinite' (go mate 5000); nothing searched");
            self.out.line("checkmate timeout");
            return;
        }
        let Some(pos) = self.session.position().cloned() else {
            self.error("go without a position (the last one was rejected); resigning");
            self.out.line(if go.mate.is_some() {
                "checkmate nomate"
            } else {
                "bestmove resign"
            });
            return;
        };
        self.say_kingless_sides(&pos);
        let limits = self.limits(&go, &pos);
        if go.searchmoves.len() != limits.search_moves.len() {
            self.info("warning: some searchmoves are not legal here and were left out");
        }
        let mate_mode = go.mate.is_some();
        let resign = self.session.settings().resign_when_lost;
        let observer = Box::new(UsiObserver {
            out: Arc::clone(&self.out),
            pos: pos.clone(),
            kif_pv: self.session.settings().kif_pv,
        });
        let out = Arc::clone(&self.out);
        let done_pos = pos.clone();
        let done = Box::new(move |result: crate::search::SearchResult| {
            out.line(&if mate_mode {
                checkmate_line(&done_pos, &result)
            } else {
                bestmove_line(&done_pos, &result, resign)
            });
        });
        match self.session.go(limits, go.ponder, observer, done) {
            Ok(_) => {}
            Err(Refusal::NoPosition) => unreachable!("the position was read above"),
            Err(Refusal::GameOver(outcome)) => {
                let us = pos.side_to_move();
                // `mate 0`: the side to move has lost; `mate +0`: it has won (the side that
                // just moved lost by perpetual attack).
                let score = match outcome.winner {
                    None => "cp 0",
                    Some(w) if w == us => "mate +0",
                    Some(_) => "mate 0",
                };
                self.info(&format!(
                    "the game is over ({}); nothing to search",
                    outcome.describe()
                ));
                self.out.line(&format!("info depth 0 score {score}"));
                self.out.line(if mate_mode {
                    "checkmate nomate"
                } else {
                    "bestmove resign"
                });
            }
        }
    }

    /// A side without a royal in the position set is searched as a kingless side (the
    /// attacker of a mating problem: it cannot lose by royal capture; rules, "Kingless
    /// sides"), not as a game it has lost; say so, since a GUI may have meant a game.
    fn say_kingless_sides(&self, pos: &Position) {
        for color in crate::core::Color::ALL {
            if pos.is_kingless(color) {
                self.info(&format!(
                    "{} has no royal: searched as a kingless side (a mating problem's \
                     attacker, which cannot lose by royal capture), not as a lost game",
                    color.name()
                ));
            }
        }
    }

    fn display(&self, pos: &mut Position) {
        let v = pos.variant();
        let files = v.spec.files;
        let header: String = (1..=files).rev().map(|f| format!("{f:>3}")).collect();
        self.out.line(&header);
        for y in 0..v.spec.ranks {
            let mut row = String::new();
            for x in 0..files {
                let p = pos.piece_on(crate::core::Square::new(x, y));
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
        self.out.line(&format!("sfen {}", pos.to_sfen()));
        self.out.line(&format!("key {:016x}", pos.key()));
        self.out
            .line(&format!("side to move {}", pos.side_to_move().name()));
    }

    fn moves(&self, pos: &mut Position) {
        let mut text: Vec<String> = Vec::new();
        if let Some(outcome) = pos.outcome() {
            self.info(&format!("the game is over ({})", outcome.describe()));
        } else {
            let mut moves = Vec::new();
            pos.legal_moves(GenMode::Search, &mut moves);
            text = moves.iter().map(|&m| pos.move_to_usi(m)).collect();
            text.sort();
        }
        self.out
            .line(format!("moves {}", text.join(" ")).trim_end());
    }

    /// `kif`: the game from the position's start as KIF, each line after `kif `, then
    /// `kifok` (a page shows the moves and saves the game without its own notation).
    fn kif(&self, pos: &mut Position) {
        let game = crate::records::Game {
            tags: vec![("棋戦".to_string(), "shishi".to_string())],
            ..game_so_far(pos)
        };
        match crate::records::game_to_kif(&game, "shishi") {
            Ok(kif) => {
                for line in kif.lines() {
                    self.out.line(&format!("kif {line}"));
                }
                self.out.line("kifok");
            }
            Err(e) => self.error(&format!("kif: {e}")),
        }
    }

    /// `review`: the game of the position (or the KIF given) reviewed on the search worker
    /// as `shishi analyse` reviews a game (`analyse::review`), printed as it goes: `review
    /// ply JSON` for each ply, then `review summary JSON`, the annotated KIF as `review kif
    /// LINE`s, and `reviewok`. `stop` ends it after the ply being searched (the summary
    /// says how far it came). A game that cannot be had is an error, and `reviewok` at once.
    fn review(&mut self, params: command::ReviewParams) {
        self.session.stop_and_wait();
        let game = match &params.kif {
            Some(text) => crate::records::kif::read(text, "kif", None)
                .map_err(|e| format!("review: {e}; nothing reviewed")),
            None => match self.session.position() {
                Some(pos) => Ok(game_so_far(&mut pos.clone())),
                None => Err("review: no position is set; nothing reviewed".to_string()),
            },
        };
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                self.error(&e);
                self.out.line("reviewok");
                return;
            }
        };
        let limits = AnalysisSettings::limits(params.depth, params.nodes, params.movetime);
        let control = Arc::new(crate::search::SearchControl::new(false));
        let settings = AnalysisSettings::review(limits, Arc::clone(&control));
        let out = Arc::clone(&self.out);
        self.session.run_task(
            control,
            Box::new(move || {
                let say_ply =
                    |ply: &review::ReviewedPly| out.line(&format!("review ply {}", json(ply)));
                match review::review(&game, &settings, &say_ply) {
                    Ok(end) => {
                        out.line(&format!("review summary {}", json(&end.summary)));
                        for line in end.kif.lines() {
                            out.line(&format!("review kif {line}"));
                        }
                    }
                    Err(e) => out.line(&info_string(&format!("error: review: {e}"))),
                }
                out.line("reviewok");
            }),
        );
    }

    /// `pieces`: `pieces LETTERS=NAME ...` for the variant's kinds (`p=歩兵 +p=金将 ...`),
    /// then `pieces1 LETTERS=KANJI ...`, one kanji each (`p=歩 +p=杏 +b=馬 ...`), so that
    /// a page draws the board in either set without a table of its own.
    fn pieces(&self) {
        let kinds = &self.session.variant().spec.kinds;
        let two: Vec<String> = kinds
            .iter()
            .map(|k| format!("{}={}", k.sfen, k.kif_name))
            .collect();
        self.out.line(&format!("pieces {}", two.join(" ")));
        let one: Vec<String> = kinds
            .iter()
            .map(|k| format!("{}={}", k.sfen, k.one_kanji()))
            .collect();
        self.out.line(&format!("pieces1 {}", one.join(" ")));
    }

    /// `kifread`: a KIF file read as `kifgame variant V sfen SFEN moves M...` (after
    /// `kifresult R`, `1-0`, `0-1` or `1/2-1/2`, when the file states how the game
    /// ended), or an error naming its line.
    fn kif_read(&self, text: &str) {
        match crate::records::kif::read(text, "kif", None) {
            Ok(game) => {
                if let Some(result) = game.result {
                    self.out.line(&format!("kifresult {result}"));
                }
                self.out.line(
                    format!(
                        "kifgame variant {} sfen {} moves {}",
                        game.variant.name(),
                        game.start_sfen,
                        game.moves.join(" ")
                    )
                    .trim_end(),
                )
            }
            Err(e) => self.error(&format!("{e}; the position is as it was")),
        }
    }

    fn perft(&self, pos: &mut Position, depth: u32) {
        self.session.stop_and_wait();
        let threads = self.session.settings().threads;
        let start = std::time::Instant::now();
        let lines = crate::perft::divide(pos, depth, threads);
        for (mv, n) in &lines {
            self.out.line(&format!("{mv} {n}"));
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        self.out.line(&format!("nodes {total}"));
        self.info(&format!(
            "perft {depth}: {} ms",
            start.elapsed().as_millis()
        ));
    }

    fn bench(&mut self, depth: Option<i32>) {
        self.session.stop_and_wait();
        let threads = self.session.settings().threads;
        let given = self.session.settings().search_params;
        let depth = depth.unwrap_or(crate::bench::DEFAULT_DEPTH);
        let out = Arc::clone(&self.out);
        match crate::bench::run(depth, threads, 16, &given, |l| {
            out.line(&info_string(&format!(
                "position {} nodes {} bestmove {}",
                l.index + 1,
                l.nodes,
                l.best
            )))
        }) {
            Ok((nodes, time)) => self.out.line(&format!(
                "{nodes} nodes {} nps",
                (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
            )),
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// The evaluation's terms, as the search would weigh them (with the `Tune_*` options
    /// that change the evaluation, such as `Tune_trade_down_pct`).
    fn eval(&self, pos: &mut Position) {
        let params = self.session.settings().search_options(pos.variant()).params;
        let evaluator = crate::search::evaluator(pos, &params);
        let b = evaluator.breakdown(pos);
        for (name, value) in [
            ("material", b.material),
            ("placement", b.placement),
            ("promotion", b.promotion),
            ("mobility", b.mobility),
            ("royal safety", b.royal_safety),
            ("lion safety", b.lion_safety),
            ("development", b.development),
            ("tempo", b.tempo),
            ("mop-up", b.mopup),
            ("trade-down", b.trade_down),
            ("quiet damping", b.quiet_damping),
        ] {
            self.out.line(&format!("{name:<14}{value:>7}"));
        }
        self.out
            .line(&format!("{:<14}{:>7}  (sente's view)", "total", b.total()));
        self.out.line(&format!(
            "{:<14}{:>7}  (side to move)",
            "eval",
            evaluator.evaluate(pos)
        ));
    }
}

/// The game that led to `pos`: its start (the position with its history taken back) and
/// its moves, with the board's result if the game is over.
fn game_so_far(pos: &mut Position) -> crate::records::Game {
    let mut start = pos.clone();
    let mut moves = Vec::new();
    while let Some(undo) = start.history().last() {
        let mv = undo.mv;
        start.unmake_move();
        moves.push(mv);
    }
    moves.reverse();
    let mut replay = start.clone();
    let text: Vec<String> = moves
        .iter()
        .map(|&mv| {
            let usi = crate::position::notation::move_to_usi(replay.variant(), mv);
            replay.make_move(mv);
            usi
        })
        .collect();
    crate::records::Game {
        result: pos
            .outcome()
            .map(|o| crate::records::GameResult::won_by(o.winner)),
        ..crate::records::Game::new(pos.variant(), &start.to_sfen(), text)
    }
}

/// A value as one line of JSON (`null` if it could not be written, which a value of plain
/// fields never is).
fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        log::error!("a review line could not be written: {e}");
        "null".to_string()
    })
}
