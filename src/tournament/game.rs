//! One game between two engines: the runner keeps the clocks (Fischer increment, byoyomi,
//! fixed move time or node count), our rules check every move and end the game, and any
//! failure (illegal move, crash, no answer, time) forfeits with the reason recorded.

use super::engine::{Engine, EngineError, EngineSpec, Reply};
use super::openings::Opening;
use super::records::GameRecord;
use crate::cecp::notation::{parse_legs, Legs};
use crate::core::Color;
use crate::position::{GenMode, Position};
use crate::variant::Variant;
use tokio::time::{Duration, Instant};

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Main time and increment per move (ms).
    Fischer {
        /// Main time.
        base_ms: u64,
        /// Increment.
        inc_ms: u64,
    },
    /// Main time, then byoyomi per move (ms).
    Byoyomi {
        /// Main time.
        base_ms: u64,
        /// Byoyomi.
        byoyomi_ms: u64,
    },
    /// A fixed time per move (ms).
    MoveTime(u64),
    /// A fixed node count per move.
    Nodes(u64),
}

impl TimeControl {
    /// Parses `60+1` (Fischer, seconds), for `--tc`.
    pub fn fischer(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = two_numbers(text, "--tc")?;
        Ok(TimeControl::Fischer {
            base_ms: (base * 1000.0) as u64,
            inc_ms: (inc * 1000.0) as u64,
        })
    }

    /// Parses `10+1` (main time + byoyomi, seconds), for `--byoyomi`.
    pub fn byoyomi(text: &str) -> Result<TimeControl, String> {
        let (base, byo) = two_numbers(text, "--byoyomi")?;
        Ok(TimeControl::Byoyomi {
            base_ms: (base * 1000.0) as u64,
            byoyomi_ms: (byo * 1000.0) as u64,
        })
    }

    /// The CECP line that announces the time control.
    fn cecp_level(&self) -> String {
        let mmss = |ms: u64| format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60);
        match *self {
            TimeControl::Fischer { base_ms, inc_ms } => format!(
                "level 0 {} {}",
                mmss(base_ms.max(1000)),
                inc_ms as f64 / 1000.0
            ),
            TimeControl::Byoyomi {
                base_ms,
                byoyomi_ms,
            } => format!(
                "level 0 {} {}",
                mmss((base_ms + byoyomi_ms).max(1000)),
                byoyomi_ms as f64 / 1000.0
            ),
            TimeControl::MoveTime(ms) => format!("st {}", (ms / 1000).max(1)),
            TimeControl::Nodes(_) => "st 1".to_string(),
        }
    }
}

fn two_numbers(text: &str, flag: &str) -> Result<(f64, f64), String> {
    let (a, b) = text.split_once('+').unwrap_or((text, "0"));
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(a), Ok(b)) if a >= 0.0 && b >= 0.0 && a + b > 0.0 => Ok((a, b)),
        _ => Err(format!("{flag}: '{text}' is not SECONDS+SECONDS")),
    }
}

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
    let date = now_rfc3339();
    let mut record = GameRecord {
        game,
        variant: settings.variant.name().to_string(),
        initial_sfen: opening.sfen.clone(),
        moves: String::new(),
        result: "1/2-1/2".into(),
        reason: String::new(),
        sente: specs[0].name.clone(),
        gote: specs[1].name.clone(),
        times_ms: Vec::new(),
        comments: Vec::new(),
        opening: opening_index,
        date,
    };
    let mut pos =
        Position::from_sfen(settings.variant, &opening.sfen).expect("openings are checked");
    let mut moves: Vec<String> = Vec::new();
    for m in &opening.moves {
        let mv = pos.parse_usi_move(m).expect("openings are checked");
        moves.push(pos.move_to_usi(mv));
        pos.make_move(mv);
        record.times_ms.push(0);
        record.comments.push("book".into());
    }
    let level = settings.tc.cecp_level();
    let mut engines: Vec<Option<Engine>> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let started = match Engine::start(spec).await {
            Ok(mut e) => e
                .new_game(settings.variant, &opening.sfen, &level)
                .await
                .map(|_| e),
            Err(e) => Err(e),
        };
        match started {
            Ok(e) => engines.push(Some(e)),
            Err(err) => {
                let loser = if i == 0 { Color::Sente } else { Color::Gote };
                finish(
                    &mut record,
                    &moves,
                    Some(loser.flip()),
                    format!("{} could not start ({})", spec.name, describe(&err)),
                );
                for e in engines.into_iter().flatten() {
                    e.quit().await;
                }
                return record;
            }
        }
    }
    let mut clock = match settings.tc {
        TimeControl::Fischer { base_ms, .. } | TimeControl::Byoyomi { base_ms, .. } => [base_ms; 2],
        _ => [0; 2],
    };
    let (winner, reason) = loop {
        if let Some(outcome) = pos.outcome() {
            break (outcome.winner, outcome.reason.describe().to_string());
        }
        if settings.max_plies > 0 && pos.history().len() >= settings.max_plies {
            break (None, format!("max plies ({})", settings.max_plies));
        }
        let us = pos.side_to_move();
        let i = us.index();
        let name = specs[i].name.clone();
        let (allowed, go) = match settings.tc {
            TimeControl::Fischer { inc_ms, .. } => (
                clock[i],
                format!(
                    "btime {} wtime {} binc {inc_ms} winc {inc_ms}",
                    clock[0], clock[1]
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
        let cecp_clock = match settings.tc {
            TimeControl::Byoyomi { byoyomi_ms, .. } => (
                (clock[i] + byoyomi_ms) / 10,
                (clock[1 - i] + byoyomi_ms) / 10,
            ),
            _ => (clock[i] / 10, clock[1 - i] / 10),
        };
        let started = Instant::now();
        let deadline = started + Duration::from_millis(allowed) + settings.time_margin;
        let engine = engines[i].as_mut().expect("engines run");
        let reply = engine
            .think(&pos, &opening.sfen, &moves, &go, cecp_clock, deadline)
            .await;
        let elapsed = started.elapsed().as_millis() as u64;
        let text = match reply {
            Err(EngineError::Timeout) => {
                break (
                    Some(us.flip()),
                    format!("{name} did not move in time (no answer)"),
                )
            }
            Err(err) => break (Some(us.flip()), format!("{name} {}", describe(&err))),
            Ok(Reply::Resign(claim)) => {
                let why = engine
                    .unexpected
                    .iter()
                    .rev()
                    .find(|l| l.starts_with("Illegal move"))
                    .cloned();
                break (
                    Some(us.flip()),
                    match (why, claim) {
                        (Some(line), _) => format!("{name} refused a legal move ({line})"),
                        (None, Some(claim)) => format!("{name} resigned (claimed {claim})"),
                        (None, None) => format!("{name} resigned"),
                    },
                );
            }
            Ok(Reply::Move(text)) => text,
        };
        // The clock: over the limit (plus margin) loses.
        let margin = settings.time_margin.as_millis() as u64;
        match settings.tc {
            TimeControl::Fischer { inc_ms, .. } => {
                if elapsed > clock[i] + margin {
                    break (Some(us.flip()), format!("{name} lost on time"));
                }
                clock[i] = clock[i].saturating_sub(elapsed) + inc_ms;
            }
            TimeControl::Byoyomi { byoyomi_ms, .. } => {
                if elapsed > clock[i] + byoyomi_ms + margin {
                    break (Some(us.flip()), format!("{name} lost on time"));
                }
                clock[i] = clock[i].saturating_sub(elapsed);
            }
            TimeControl::MoveTime(ms) => {
                if elapsed > ms + margin {
                    break (Some(us.flip()), format!("{name} lost on time"));
                }
            }
            TimeControl::Nodes(_) => {}
        }
        let mv = match specs[i].proto {
            super::engine::Proto::Usi => pos.parse_usi_move(&text).ok(),
            super::engine::Proto::Cecp => match parse_legs(settings.variant, &text) {
                Some(Legs::Pass) => {
                    let mut list = Vec::new();
                    pos.legal_moves(GenMode::Search, &mut list);
                    list.into_iter().find(|m| {
                        m.mid()
                            .is_some_and(|mid| m.to() == m.from() && pos.piece_on(mid).is_empty())
                    })
                }
                Some(Legs::Squares {
                    from,
                    mid,
                    to,
                    promote,
                }) => pos.find_move(from, mid, to, promote),
                None => None,
            },
        };
        let Some(mv) = mv else {
            break (Some(us.flip()), format!("illegal move {text} by {name}"));
        };
        moves.push(pos.move_to_usi(mv));
        record.times_ms.push(elapsed);
        record
            .comments
            .push(engine.last_eval.clone().unwrap_or_default());
        pos.make_move(mv);
    };
    finish(&mut record, &moves, winner, reason);
    for e in engines.into_iter().flatten() {
        let mut e = e;
        e.game_over(&record.result, &record.reason).await;
        e.quit().await;
    }
    record
}

fn finish(record: &mut GameRecord, moves: &[String], winner: Option<Color>, reason: String) {
    record.moves = moves.join(" ");
    record.result = crate::position::result_text(winner).to_string();
    record.reason = reason;
}

fn describe(err: &EngineError) -> String {
    match err {
        EngineError::Crashed => "crashed".into(),
        EngineError::Timeout => "did not answer".into(),
        EngineError::Start(e) => format!("failed to start: {e}"),
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
