//! The engine session: what a game with a GUI is made of, whatever the protocol. It owns
//! the variant, the position and its history, the option values and the search worker,
//! and speaks the domain: new game, set position, set option, go, stop, ponderhit, play and
//! undo. The USI and XBoard front-ends are thin text adapters over it; `shishi analyse`
//! runs its searches through the same guarded search ([`worker::search_guarded`]).
//!
//! Rules of the session (protocol-docs/usi.md and cecp.md say them for each protocol):
//! - A position that fails to set leaves **no** position: `go` is refused until a good one
//!   comes, so no answer is ever a move of an older position.
//! - `go` in a finished game is refused with the outcome (the front-end answers it).
//! - A new `go` first stops the running search and waits for its answer.
//! - Options apply to the next search: each `go` takes the session's settings as its
//!   [`SearchOptions`] and [`Task`]. The hash size and `Clear Hash` change the searcher's
//!   tables: they are queued to the worker and apply when the running search, if any, has
//!   ended.

pub mod input;
pub mod io;
pub mod options;
#[cfg(single_thread)]
pub mod single_thread;
pub mod worker;

use crate::position::{Outcome, Position};
use crate::search::{Limits, Observer, Request, SearchControl, SearchOptions, Searcher, Task};
use crate::variant::Variant;
use std::sync::Arc;
use std::time::Duration;
use worker::{Done, SearchJob, SearchWorker, TaskJob};

/// Most search threads accepted as an option value.
pub const MAX_THREADS: usize = 256;
/// Search threads per logical core at most: more only slow the search down (Lazy SMP
/// gains nothing from threads that wait for a core), and with 256 threads on 2 cores a
/// `stop` took up to 300 ms while every thread waited its turn to see it.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The threads a search may use on this machine for a requested count.
pub fn usable_threads(requested: usize) -> usize {
    if cfg!(single_thread) {
        return 1;
    }
    requested.clamp(1, MAX_THREADS.min(logical_cores() * MAX_THREADS_PER_CORE))
}

/// The machine's logical cores. In the browser the system cannot say (WASI has no call for
/// it): the page's worker gives `navigator.hardwareConcurrency` as `SHISHI_CORES` in the
/// module's environment.
fn logical_cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .ok()
        .or_else(|| std::env::var("SHISHI_CORES").ok()?.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// Where the session says things that are not answers (errors of queued changes, ...).
pub type Notify = Arc<dyn Fn(&str) + Send + Sync>;

/// The option values of a session. Each field is kept by its option's entry in
/// [`options::OPTIONS`] (its `store`), which is where its default and range are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Hash table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines reported (MultiPV).
    pub multipv: usize,
    /// Time kept on the clock for every move's communication delays.
    pub move_overhead: Duration,
    /// The GUI may send `go ponder` (USI_Ponder).
    pub ponder: bool,
    /// Answer `resign` in a position proven lost.
    pub resign_when_lost: bool,
    /// Do not repeat an earlier position when another move exists.
    pub avoid_repetition: bool,
    /// Which attacker moves `go mate` tries (Mate_AllMoves: every move, not only checks).
    pub mate_moves: crate::mate::AttackerMoves,
    /// The GUI analyses rather than plays (USI_AnalyseMode: the search scores draws without contempt).
    pub analyse_mode: bool,
    /// Strength, -9 to 20 (20: full; see `search::skill`).
    pub skill_level: i8,
    /// After each USI info line with a pv, the line in KIF notation (`info string kif ...`).
    pub kif_pv: bool,
    /// The search constants given by `Tune_NAME` options (the others are the variant's).
    pub search_params: crate::search::params::GivenParams,
}

impl Settings {
    /// The settings a session starts with under `protocol`: every option's default
    /// under it, from the option table (XBoard's differ in move overhead and repetitions).
    pub fn for_protocol(protocol: options::Protocol) -> Settings {
        let mut settings = Settings::default();
        for option in options::all() {
            if let (Some(store), Some(n)) = (option.store, option.default_number(protocol)) {
                store(&mut settings, n);
            }
        }
        settings
    }

    /// The options of every search of `variant` under these settings.
    pub fn search_options(&self, variant: &Variant) -> SearchOptions {
        SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            skill: crate::search::skill::Skill::new(self.skill_level),
            move_overhead: self.move_overhead,
            avoid_repetition: self.avoid_repetition,
            params: self
                .search_params
                .over(crate::search::params::SearchParams::for_variant(variant)),
        }
    }
}

/// One option change, in domain terms (the front-ends parse their own spellings into it
/// through the option table, `options::parse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Play this variant; the position becomes its start.
    Variant(&'static Variant),
    /// A value for the option of this table name (a check's as 0 or 1); the session bounds
    /// it to the option's range, keeps it and does the option's [`options::Effect`].
    Value(&'static str, i64),
    /// A button of this table name (`Clear_Hash`).
    Press(&'static str),
}

/// Why `go` did not start a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No position is set (the last one sent was rejected).
    NoPosition,
    /// The game in this position is over.
    GameOver(Outcome),
}

/// Why a position was not set. Each front-end words the remedy in its protocol (USI:
/// `USI_Variant`; XBoard: `variant`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The SFEN does not parse in the session's variant. The wording is protocol-neutral:
    /// the variant an SFEN belongs to is named, not how to switch to it.
    #[error("{error}{}", other_variant.map(|v| format!(" (this SFEN is {})", v.name())).unwrap_or_default())]
    Sfen {
        /// What is wrong with it.
        error: crate::position::sfen::SfenError,
        /// Another variant in which it is a good position, if one is.
        other_variant: Option<&'static Variant>,
    },
    /// A move of the list is not legal (the position before it stands, but is not set).
    #[error(transparent)]
    Moves(crate::position::notation::MoveListError),
}

/// The engine session.
pub struct Session {
    variant: &'static Variant,
    position: Option<Position>,
    /// The last position `set_position` made, with the SFEN and moves it was made from: a
    /// GUI sends the whole game before every move, and the next position that only adds
    /// moves to it plays only those (replaying 200 moves took 0.4 ms of every move's
    /// clock). A copy of its own, so that nothing done to `position` since can matter.
    last_set: Option<SetPosition>,
    settings: Settings,
    worker: SearchWorker,
    notify: Notify,
}

/// A position made by `set_position`, and what it was made from.
struct SetPosition {
    sfen: Option<String>,
    moves: Vec<String>,
    pos: Position,
}

impl Session {
    /// A session in chu's start position. An error if the search worker cannot start.
    pub fn new(settings: Settings, notify: Notify) -> std::io::Result<Session> {
        let searcher = Searcher::try_new(settings.hash_mb).unwrap_or_else(|_| Searcher::new(1));
        let variant = Variant::chu();
        Ok(Session {
            variant,
            position: Some(Position::startpos(variant)),
            last_set: None,
            settings,
            worker: SearchWorker::start(searcher)?,
            notify,
        })
    }

    /// The variant played.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The position, if one is set.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// The option values.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Whether a search is running (or queued).
    pub fn is_searching(&self) -> bool {
        self.worker.is_searching()
    }

    /// A new game: stops the search (its answer is given) and forgets what was learnt.
    pub fn new_game(&mut self) {
        self.stop_and_wait();
        self.worker.configure(Box::new(Searcher::clear));
    }

    /// Sets the position from an SFEN (`None`: the start) and moves. On an error there is
    /// no position until the next one is set, and the error says why.
    pub fn set_position(
        &mut self,
        sfen: Option<&str>,
        moves: &[&str],
    ) -> Result<(), PositionError> {
        self.position = None;
        // The last position set, when this one is it with more moves (the moves it was made
        // from are the first of these, from the same SFEN in the same variant).
        let earlier = self.last_set.as_ref().filter(|last| {
            last.sfen.as_deref() == sfen
                && last.pos.variant().name() == self.variant.name()
                && last.moves.len() <= moves.len()
                && last.moves.iter().zip(moves).all(|(a, b)| a == b)
        });
        if let Some(last) = earlier {
            let mut pos = last.pos.clone();
            let played = last.moves.len();
            pos.play_usi_moves(moves[played..].iter().copied())
                .map_err(|e| {
                    PositionError::Moves(crate::position::notation::MoveListError {
                        index: e.index + played,
                        ..e
                    })
                })?;
            self.keep_set_position(sfen, moves, pos);
            return Ok(());
        }
        let mut pos = match sfen {
            None => Position::startpos(self.variant),
            Some(text) => Position::from_sfen(self.variant, text).map_err(|error| {
                // Say so when the SFEN belongs to another variant.
                let other_variant = Variant::all().into_iter().find(|v| {
                    v.name() != self.variant.name() && Position::from_sfen(v, text).is_ok()
                });
                PositionError::Sfen {
                    error,
                    other_variant,
                }
            })?,
        };
        pos.play_usi_moves(moves.iter().copied())
            .map_err(PositionError::Moves)?;
        self.keep_set_position(sfen, moves, pos);
        Ok(())
    }

    /// Makes `pos`, set from `sfen` and `moves`, the position, and remembers how it was made.
    fn keep_set_position(&mut self, sfen: Option<&str>, moves: &[&str], pos: Position) {
        self.last_set = Some(SetPosition {
            sfen: sfen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            pos: pos.clone(),
        });
        self.position = Some(pos);
    }

    /// Sets a position built by the front-end (XBoard's `setboard`).
    pub fn set_position_to(&mut self, pos: Position) {
        self.position = Some(pos);
    }

    /// Plays a legal move in the position (XBoard); false when there is no position.
    pub fn play(&mut self, mv: crate::core::Move) -> bool {
        match self.position.as_mut() {
            Some(pos) => {
                pos.make_move(mv);
                true
            }
            None => false,
        }
    }

    /// Takes back up to `plies` moves (XBoard's `undo` and `remove`).
    pub fn undo(&mut self, plies: usize) {
        if let Some(pos) = self.position.as_mut() {
            for _ in 0..plies.min(pos.history().len()) {
                pos.unmake_move();
            }
        }
    }

    /// Applies an option change (see the module doc for when each applies).
    pub fn set(&mut self, setting: Setting) {
        let (name, value) = match setting {
            Setting::Variant(v) => {
                if v.name() != self.variant.name() || self.position.is_none() {
                    self.variant = v;
                    self.position = Some(Position::startpos(v));
                }
                return;
            }
            Setting::Value(name, value) => (name, value),
            Setting::Press(name) => (name, 0),
        };
        let Some(option) = options::named(name) else {
            (self.notify)(&format!("no option {name}"));
            return;
        };
        if self.worker.is_searching() && option.effect != options::Effect::AtOnce {
            (self.notify)("the option will apply when the current search ends");
        }
        let value = option.clamp(value);
        if let Some(store) = option.store {
            store(&mut self.settings, value);
        }
        self.apply_effect(option.effect, value);
    }

    /// What an option does beyond its stored value.
    fn apply_effect(&mut self, effect: options::Effect, value: i64) {
        let notify = Arc::clone(&self.notify);
        match effect {
            options::Effect::NextSearch | options::Effect::AtOnce => {}
            // The variant's entry parses to `Setting::Variant`, handled in `set`.
            options::Effect::Variant => {}
            options::Effect::ResizeHash => {
                let mb = self.settings.hash_mb;
                self.worker.configure(Box::new(move |s| {
                    if let Err(e) = s.set_hash(mb) {
                        notify(&format!("error: {e}; keeping a {} MB table", s.hash_mb()));
                    }
                }));
            }
            options::Effect::Threads => {
                let requested = self.settings.threads;
                let n = usable_threads(requested);
                if n < requested && cfg!(single_thread) {
                    notify(&format!(
                        "Threads {requested}: this build runs on one thread (the page is not cross-origin isolated)"
                    ));
                } else if n < requested {
                    notify(&format!(
                        "Threads {requested}: this machine has cores for {n}; using {n}"
                    ));
                }
                self.settings.threads = n;
            }
            options::Effect::ClearHash => self.worker.configure(Box::new(Searcher::clear)),
            options::Effect::SearchParam(name) => {
                if let Err(e) = self.settings.search_params.set(name, value) {
                    notify(&e.to_string());
                }
            }
        }
    }

    /// Starts a search of the position: first stops the running one and waits for its
    /// answer. `done` gets the result on the worker thread. Refused without a position or
    /// in a finished game (nothing is started; the front-end answers).
    pub fn go(
        &mut self,
        limits: Limits,
        pondering: bool,
        observer: Box<dyn Observer + Send>,
        done: Done,
    ) -> Result<Arc<SearchControl>, Refusal> {
        self.stop_and_wait();
        let pos = self.position.as_mut().ok_or(Refusal::NoPosition)?;
        if let Some(outcome) = pos.outcome() {
            return Err(Refusal::GameOver(outcome));
        }
        let control = Arc::new(SearchControl::new(pondering));
        // The front-ends send only what the GUI sent with its `go`; the task and the
        // options are the session's.
        let s = &self.settings;
        let request = Request {
            task: Task::for_go(&limits, s.analyse_mode, s.mate_moves),
            limits,
            options: s.search_options(self.variant),
        };
        self.worker.search(SearchJob {
            pos: pos.clone(),
            request,
            control: Arc::clone(&control),
            observer,
            done,
        });
        Ok(control)
    }

    /// Runs a front-end's longer work on the search worker (a page's game review, whose
    /// searches run `within` `control`): first stops the running search and waits for its
    /// answer. Until the work ends it counts as a search: `stop` stops it (through
    /// `control`), and a new search waits for it.
    pub fn run_task(&mut self, control: Arc<SearchControl>, work: Box<dyn FnOnce() + Send>) {
        self.stop_and_wait();
        self.worker.task(TaskJob { control, work });
    }

    /// Asks the running search to stop (its answer comes through its `done`).
    pub fn stop(&self) {
        if let Some(control) = self.worker.current() {
            control.stop();
        }
    }

    /// The pondered move was played: the search goes on as a normal one. A `ponderhit`
    /// for a search that is not pondering changes nothing.
    pub fn ponderhit(&self) {
        if let Some(control) = self.worker.current() {
            control.ponderhit();
        }
    }

    /// Stops the running search and waits until its answer is given.
    pub fn stop_and_wait(&self) {
        self.stop();
        self.worker.wait();
    }

    /// Waits until the engine is ready for a search: option changes that rebuild the searcher
    /// (hash size, threads) are done. While a search runs this returns at once (USI's
    /// `isready` must be answered during a search too); the changes then wait for it.
    pub fn ready(&self) {
        self.worker.settle();
    }

    /// Waits until the running search ends by itself.
    pub fn wait(&self) {
        self.worker.wait();
    }
}
