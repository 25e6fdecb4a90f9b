//! One game between two engines: the runner keeps the clocks (Fischer increment, byoyomi,
//! fixed move time or node count), our rules check every move and end the game, and any
//! failure (illegal move, crash, no answer, time) forfeits with the reason recorded.

use super::engine::{Engine, EngineSpec, Reply};
use super::error::{EngineError, MatchError};
use super::openings::Opening;
pub use super::time_control::TimeControl;
use crate::core::Color;
use crate::position::{Outcome, Position};
use crate::records::xboard::{lion_pass, parse_legs, Legs};
use crate::records::{Game, GameRecord, GameResult, Players};
use crate::text::quoted;
use crate::variant::Variant;
use tokio::time::{Duration, Instant};

/// Settings shared by all games of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The variant.
    pub variant: &'static Variant,
    /// The time control.
    pub tc: TimeControl,
    /// Plies after which the game is a draw (0: none).
    pub max_plies: usize,
    /// Slack allowed beyond the clock before a time forfeit.
    pub time_margin: Duration,
    /// Redraw one stderr line after every move (ply, both clocks, last score): for a
    /// terminal and one game at a time.
    pub live_progress: bool,
}

impl GameSettings {
    /// The clock of the engine `spec`: its own (time odds) or the match's.
    pub fn clock_of(&self, spec: &EngineSpec) -> TimeControl {
        spec.tc.unwrap_or(self.tc)
    }

    /// An error if an engine has a clock of its own (time odds) while the match's clock is
    /// not a Fischer clock: the two sides' clocks must count alike.
    pub fn check_clocks(&self, engines: &[EngineSpec]) -> Result<(), MatchError> {
        match engines.iter().find(|e| e.tc.is_some()) {
            Some(e) if !matches!(self.tc, TimeControl::Fischer { .. }) => {
                Err(MatchError::TimeOddsNeedFischer(e.name.clone()))
            }
            _ => Ok(()),
        }
    }
}

/// Why an engine forfeited a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// It could not be started (the error).
    CouldNotStart(String),
    /// It did not answer in time.
    NoAnswer,
    /// It failed while thinking (crashed, ...).
    Failed(String),
    /// It called our legal move illegal (its line).
    RefusedLegalMove(String),
    /// Its clock ran out.
    OnTime,
    /// It played an illegal move (the text).
    IllegalMove(String),
}

/// How a game ended: by the rules, or by what an engine did. Typed, so that the match
/// runner counts forfeits without reading the words of the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it.
    Rules(Outcome),
    /// The ply cap of the match was reached (a draw).
    MaxPlies(usize),
    /// An engine resigned (with the result it claimed, from CECP).
    Resigned {
        /// Its colour.
        loser: Color,
        /// Its name.
        name: String,
        /// What it claimed.
        claim: Option<String>,
    },
    /// An engine forfeited.
    Forfeit {
        /// Its colour.
        loser: Color,
        /// Its name.
        name: String,
        /// Why.
        why: Forfeit,
    },
}

impl Ending {
    /// The winner (`None`: a draw).
    pub fn winner(&self) -> Option<Color> {
        match self {
            Ending::Rules(outcome) => outcome.winner,
            Ending::MaxPlies(_) => None,
            Ending::Resigned { loser, .. } | Ending::Forfeit { loser, .. } => Some(loser.flip()),
        }
    }

    /// Whether an engine lost by forfeit.
    pub fn is_forfeit(&self) -> bool {
        matches!(self, Ending::Forfeit { .. })
    }

    /// The reason as records write it.
    pub fn describe(&self) -> String {
        match self {
            Ending::Rules(outcome) => outcome.reason.describe().to_string(),
            Ending::MaxPlies(n) => format!("{} ({n})", crate::records::MOVE_LIMIT_REASON),
            Ending::Resigned { name, claim, .. } => match claim {
                Some(claim) => format!("{name} resigned (claimed {claim})"),
                None => format!("{name} resigned"),
            },
            Ending::Forfeit { name, why, .. } => match why {
                Forfeit::CouldNotStart(e) => format!("{name} could not start ({e})"),
                Forfeit::NoAnswer => format!("{name} did not move in time (no answer)"),
                Forfeit::Failed(e) => format!("{name} {e}"),
                Forfeit::RefusedLegalMove(line) => format!("{name} refused a legal move ({line})"),
                Forfeit::OnTime => format!("{name} lost on time"),
                Forfeit::IllegalMove(text) => format!("illegal move {text} by {name}"),
            },
        }
    }
}

/// Plays one game; `engines[0]` plays sente. Engines are started for the game and stopped
/// after it, so a crashed or hung engine is simply started afresh for the next game.
pub async fn play(
    game: usize,
    specs: [&EngineSpec; 2],
    opening: &Opening,
    opening_index: usize,
    settings: &GameSettings,
) -> GameRecord {
    let mut record = GameRecord {
        number: game,
        game: Game {
            players: Players {
                sente: specs[0].name.clone(),
                gote: specs[1].name.clone(),
            },
            result: Some(GameResult::Draw),
            ..Game::new(settings.variant, &opening.sfen, Vec::new())
        },
        reason: String::new(),
        forfeit: false,
        opening: opening_index,
        date: now_rfc3339(),
    };
    let Ok(mut pos) = Position::from_sfen(settings.variant, &opening.sfen) else {
        unreachable!("openings are checked when they are read");
    };
    let mut moves: Vec<String> = Vec::new();
    for m in &opening.moves {
        let Ok(mv) = pos.parse_usi_move(m) else {
            unreachable!("openings are checked when they are read");
        };
        moves.push(pos.move_to_usi(mv));
        pos.make_move(mv);
        record.game.times_ms.push(Some(0));
        record.game.comments.push("book".into());
    }
    let mut engines = match start_engines(specs, settings, &opening.sfen).await {
        Ok(engines) => engines,
        Err(ending) => {
            finish(&mut record, &moves, &ending);
            return record;
        }
    };
    let ending = play_moves(
        &mut engines,
        specs,
        settings,
        opening,
        &mut pos,
        &mut moves,
        &mut record,
    )
    .await;
    finish(&mut record, &moves, &ending);
    for mut e in engines {
        e.game_over(record.result(), &record.reason).await;
        e.quit().await;
    }
    record
}

/// Starts both engines for a game; an engine that cannot start forfeits it.
async fn start_engines(
    specs: [&EngineSpec; 2],
    settings: &GameSettings,
    sfen: &str,
) -> Result<Vec<Engine>, Ending> {
    let mut engines: Vec<Engine> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let level = settings.clock_of(spec).cecp_level();
        let started = match Engine::start(spec).await {
            Ok(mut e) => e.new_game(settings.variant, sfen, &level).await.map(|_| e),
            Err(e) => Err(e),
        };
        match started {
            Ok(e) => engines.push(e),
            Err(err) => {
                for e in engines {
                    e.quit().await;
                }
                return Err(Ending::Forfeit {
                    loser: if i == 0 { Color::Sente } else { Color::Gote },
                    name: spec.name.clone(),
                    why: Forfeit::CouldNotStart(describe(&err)),
                });
            }
        }
    }
    Ok(engines)
}

/// The game itself, move by move, until the rules, the ply cap or an engine ends it.
async fn play_moves(
    engines: &mut [Engine],
    specs: [&EngineSpec; 2],
    settings: &GameSettings,
    opening: &Opening,
    pos: &mut Position,
    moves: &mut Vec<String>,
    record: &mut GameRecord,
) -> Ending {
    let tcs = [settings.clock_of(specs[0]), settings.clock_of(specs[1])];
    let mut clock = tcs.map(|tc| match tc {
        TimeControl::Fischer { base_ms, .. } | TimeControl::Byoyomi { base_ms, .. } => base_ms,
        _ => 0,
    });
    loop {
        if let Some(outcome) = pos.outcome() {
            return Ending::Rules(outcome);
        }
        if settings.max_plies > 0 && pos.history().len() >= settings.max_plies {
            return Ending::MaxPlies(settings.max_plies);
        }
        let us = pos.side_to_move();
        let i = us.index();
        let forfeit = |why| Ending::Forfeit {
            loser: us,
            name: specs[i].name.clone(),
            why,
        };
        let (allowed, go, cecp_clock) = go_command(tcs, &clock, i);
        let started = Instant::now();
        let deadline = started + Duration::from_millis(allowed) + settings.time_margin;
        let engine = &mut engines[i];
        let reply = engine
            .think(pos, &opening.sfen, moves, &go, cecp_clock, deadline)
            .await;
        let elapsed = started.elapsed().as_millis() as u64;
        let text = match reply {
            Err(EngineError::Timeout) => return forfeit(Forfeit::NoAnswer),
            Err(err) => return forfeit(Forfeit::Failed(describe(&err))),
            Ok(Reply::Resign(claim)) => {
                let refused = engine
                    .unexpected
                    .iter()
                    .rev()
                    .find(|l| l.starts_with("Illegal move"))
                    .cloned();
                // An engine's own words are quoted short and printable: they go to the
                // console and into every record.
                return match refused {
                    Some(line) => forfeit(Forfeit::RefusedLegalMove(quoted(&line))),
                    None => Ending::Resigned {
                        loser: us,
                        name: specs[i].name.clone(),
                        claim: claim.as_deref().map(quoted),
                    },
                };
            }
            Ok(Reply::Move(text)) => text,
        };
        let margin = settings.time_margin.as_millis() as u64;
        if !charge_clock(tcs[i], &mut clock, i, elapsed, margin) {
            return forfeit(Forfeit::OnTime);
        }
        let Some(mv) = reply_move(pos, specs[i].proto, settings.variant, &text) else {
            return forfeit(Forfeit::IllegalMove(quoted(&text)));
        };
        moves.push(pos.move_to_usi(mv));
        record.game.times_ms.push(Some(elapsed));
        record
            .game
            .comments
            .push(engine.last_eval.clone().unwrap_or_default());
        pos.make_move(mv);
        if settings.live_progress {
            live_line(record, moves.len(), &clock, tcs);
        }
    }
}

/// The line redrawn after each move of a game (a terminal only: `\r` and clear-to-end).
fn live_line(record: &GameRecord, ply: usize, clock: &[u64; 2], tcs: [TimeControl; 2]) {
    let shown = |i: usize| match tcs[i] {
        TimeControl::Fischer { .. } | TimeControl::Byoyomi { .. } => {
            format!(
                "{}:{:04.1}",
                clock[i] / 60_000,
                (clock[i] % 60_000) as f64 / 1000.0
            )
        }
        _ => "-".to_string(),
    };
    let last = record.game.comments.last().filter(|c| !c.is_empty());
    crate::tell_part!(
        "\r\x1b[Kgame #{}: {} - {}, ply {ply}, clocks {} / {}{}",
        record.number,
        record.game.players.sente,
        record.game.players.gote,
        shown(0),
        shown(1),
        last.map(|c| format!(", last score {c}"))
            .unwrap_or_default()
    );
}

/// For the side `i` to move, with the sides' time controls `tcs`: the time it may take
/// (ms), the USI `go` arguments, and the CECP clocks (own, other; centiseconds).
fn go_command(tcs: [TimeControl; 2], clock: &[u64; 2], i: usize) -> (u64, String, (u64, u64)) {
    let inc = |tc: TimeControl| match tc {
        TimeControl::Fischer { inc_ms, .. } => inc_ms,
        _ => 0,
    };
    let tc = tcs[i];
    let (allowed, go) = match tc {
        TimeControl::Fischer { .. } => (
            clock[i],
            format!(
                "btime {} wtime {} binc {} winc {}",
                clock[0],
                clock[1],
                inc(tcs[0]),
                inc(tcs[1])
            ),
        ),
        TimeControl::Byoyomi { byoyomi_ms, .. } => (
            clock[i] + byoyomi_ms,
            format!("btime {} wtime {} byoyomi {byoyomi_ms}", clock[0], clock[1]),
        ),
        TimeControl::MoveTime(ms) => (ms, format!("movetime {ms}")),
        // A node-limited search gets a minute before it counts as hung.
        TimeControl::Nodes(n) => (60_000, format!("nodes {n}")),
    };
    let cecp_clock = match tc {
        TimeControl::Byoyomi { byoyomi_ms, .. } => (
            (clock[i] + byoyomi_ms) / 10,
            (clock[1 - i] + byoyomi_ms) / 10,
        ),
        _ => (clock[i] / 10, clock[1 - i] / 10),
    };
    (allowed, go, cecp_clock)
}

/// Charges `elapsed` to side `i`'s clock; false when it was over the limit (plus margin).
fn charge_clock(
    tc: TimeControl,
    clock: &mut [u64; 2],
    i: usize,
    elapsed: u64,
    margin: u64,
) -> bool {
    match tc {
        TimeControl::Fischer { inc_ms, .. } => {
            if elapsed > clock[i] + margin {
                return false;
            }
            clock[i] = clock[i].saturating_sub(elapsed) + inc_ms;
        }
        TimeControl::Byoyomi { byoyomi_ms, .. } => {
            if elapsed > clock[i] + byoyomi_ms + margin {
                return false;
            }
            clock[i] = clock[i].saturating_sub(elapsed);
        }
        TimeControl::MoveTime(ms) => return elapsed <= ms + margin,
        TimeControl::Nodes(_) => {}
    }
    true
}

/// The engine's move text as a legal move of `pos`, in its protocol's notation.
fn reply_move(
    pos: &mut Position,
    proto: super::engine::Proto,
    variant: &Variant,
    text: &str,
) -> Option<crate::core::Move> {
    match proto {
        super::engine::Proto::Usi => pos.parse_usi_move(text).ok(),
        super::engine::Proto::Cecp => match parse_legs(variant, text)? {
            Legs::Pass => lion_pass(pos),
            Legs::Squares {
                from,
                mid,
                to,
                promote,
            } => pos.find_move(from, mid, to, promote),
        },
    }
}

fn finish(record: &mut GameRecord, moves: &[String], ending: &Ending) {
    record.game.moves = moves.to_vec();
    record.game.result = Some(GameResult::won_by(ending.winner()));
    record.reason = ending.describe();
    record.forfeit = ending.is_forfeit();
}

fn describe(err: &EngineError) -> String {
    match err {
        EngineError::Crashed(status) => format!("crashed ({status})"),
        EngineError::ClosedOutput => "closed its output".into(),
        EngineError::Timeout => "did not answer".into(),
        EngineError::Start(e) => format!("failed to start: {e}"),
        EngineError::Handshake(e) => e.clone(),
    }
}

/// Now as RFC 3339 UTC (no time-zone crate needed for UTC).
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let (h, m, s) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    format!("{year:04}-{month:02}-{d:02}T{h:02}:{m:02}:{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_runs_on_its_own_clock() {
        let fast = TimeControl::Fischer {
            base_ms: 2500,
            inc_ms: 25,
        };
        let slow = TimeControl::Fischer {
            base_ms: 10_000,
            inc_ms: 100,
        };
        let mut clock = [2500, 10_000];
        let (allowed, go, cecp) = go_command([fast, slow], &clock, 0);
        assert_eq!(allowed, 2500);
        assert_eq!(go, "btime 2500 wtime 10000 binc 25 winc 100");
        assert_eq!(cecp, (250, 1000));
        assert!(charge_clock(fast, &mut clock, 0, 1000, 0));
        assert!(charge_clock(slow, &mut clock, 1, 1000, 0));
        assert_eq!(clock, [1525, 9100]);
        assert!(!charge_clock(fast, &mut clock, 0, 2000, 100));
    }

    #[test]
    fn time_odds_need_a_fischer_clock_for_the_match() {
        let odds = EngineSpec::parse("cmd=x,name=odds,tc=1+0.01").unwrap();
        let plain = EngineSpec::parse("cmd=y").unwrap();
        let mut settings = GameSettings {
            variant: Variant::chu(),
            tc: TimeControl::byoyomi("10+1").unwrap(),
            max_plies: 0,
            time_margin: Duration::from_millis(100),
            live_progress: false,
        };
        let err = settings
            .check_clocks(&[plain.clone(), odds.clone()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("odds") && err.contains("Fischer"), "{err}");
        assert!(settings
            .check_clocks(&[plain.clone(), plain.clone()])
            .is_ok());
        settings.tc = TimeControl::fischer("5+0.05").unwrap();
        assert!(settings.check_clocks(&[plain, odds]).is_ok());
    }
}
