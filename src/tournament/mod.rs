//! `shishi match`: engine-against-engine tournaments for chu and sho shogi, over USI and
//! CECP, with our rules as arbiter. Tokio drives the engine processes (and lives only here).
//!
//! Schedule: round robin (every pair) or gauntlet (the first engine against each other);
//! `games` per pairing, colours alternating, each opening played once, or twice with colours
//! swapped (`--repeat`). Games run `concurrency` at a time. Progress goes to stderr after
//! every game; records to JSON lines, KIF files and PGN; a final table to stdout.

pub mod engine;
pub mod error;
pub mod game;
pub mod openings;
pub mod resume;
pub mod stats;
pub mod time_control;

use crate::records::{self, GameRecord, GameResult};
use engine::EngineSpec;
use error::{file_error, MatchError};
use game::GameSettings;
use openings::Opening;
use stats::{Sprt, SprtState, Tally};
use std::io::Write;
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two or more).
    pub engines: Vec<EngineSpec>,
    /// Per-game settings (variant, time control, max plies, margin).
    pub settings: GameSettings,
    /// Games per pairing.
    pub games: usize,
    /// Games at once.
    pub concurrency: usize,
    /// Openings (the start position if empty).
    pub openings: Vec<Opening>,
    /// Play each opening with both colours.
    pub repeat: bool,
    /// Gauntlet (first engine against the others) instead of round robin.
    pub gauntlet: bool,
    /// Stop when this test decides (two engines).
    pub sprt: Option<Sprt>,
    /// JSON-lines record file.
    pub jsonl: Option<std::path::PathBuf>,
    /// Continue the match recorded in `jsonl` (see [`resume`]).
    pub resume: bool,
    /// Folder for one KIF file per game.
    pub kif_dir: Option<std::path::PathBuf>,
    /// PGN file.
    pub pgn: Option<std::path::PathBuf>,
}

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// 1-based game number.
    pub game: usize,
    /// Engine index playing sente.
    pub sente: usize,
    /// Engine index playing gote.
    pub gote: usize,
    /// Opening index.
    pub opening: usize,
}

/// The games of a match, in order.
pub fn schedule(
    engines: usize,
    games: usize,
    openings: usize,
    repeat: bool,
    gauntlet: bool,
) -> Vec<Pairing> {
    let mut pairs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                pairs.push((a, b));
            }
        }
    }
    let mut out = Vec::new();
    for k in 0..games {
        for &(a, b) in &pairs {
            let opening = (if repeat { k / 2 } else { k }) % openings.max(1);
            let (sente, gote) = if k % 2 == 0 { (a, b) } else { (b, a) };
            out.push(Pairing {
                game: out.len() + 1,
                sente,
                gote,
                opening,
            });
        }
    }
    out
}

/// Per-engine results.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    /// Name.
    pub name: String,
    /// Wins, draws, losses.
    pub tally: Tally,
    /// Games lost by forfeit (illegal move, crash, no answer, time).
    pub forfeits: u32,
}

/// The outcome of a match.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Every game, in the order they finished.
    pub records: Vec<GameRecord>,
    /// Per engine.
    pub standings: Vec<Standing>,
    /// The first engine's results against the second (two-engine matches).
    pub head_to_head: Tally,
    /// The SPRT verdict, if one ran.
    pub sprt: Option<SprtState>,
    /// The games an SPRT carried from an earlier run (`carry=W-L-D`; none by default).
    pub carried: Tally,
}

/// Runs the match (on a tokio runtime of its own).
pub fn run(config: MatchConfig) -> Result<Summary, MatchError> {
    config.settings.check_clocks(&config.engines)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(MatchError::Runtime)?;
    runtime.block_on(run_async(config))
}

async fn run_async(config: MatchConfig) -> Result<Summary, MatchError> {
    let openings = if config.openings.is_empty() {
        vec![Opening::start(config.settings.variant)]
    } else {
        config.openings.clone()
    };
    let mut plan = schedule(
        config.engines.len(),
        config.games,
        openings.len(),
        config.repeat,
        config.gauntlet,
    );
    let total = plan.len();
    let mut tables = Tables::new(&config);
    // Carried games may decide the test before any game.
    tables.decide(&config);
    if config.resume {
        let path = config.jsonl.as_ref().ok_or(MatchError::ResumeNeedsJsonl)?;
        let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
        let recorded = resume::recorded_games(path, &plan, &names, config.settings.variant.name())?;
        let count = recorded.len();
        for (pairing, record) in recorded {
            tables.add(&config, &pairing, record);
        }
        if tables.verdict.is_some() {
            plan.clear();
        }
        let recorded: std::collections::HashSet<usize> =
            tables.records.iter().map(|r| r.number).collect();
        plan.retain(|p| !recorded.contains(&p.game));
        crate::tell!(
            "resumed {count} games from {}; {} left to play",
            path.display(),
            plan.len()
        );
    }
    if tables.verdict.is_some() {
        plan.clear();
    }
    // Every engine must start and answer its handshake before any game: a mistyped path
    // or a wrong protocol stops the match here, rather than as a string of forfeits.
    if !plan.is_empty() {
        for spec in &config.engines {
            engine::check_starts(spec).await?;
        }
    }
    let mut jsonl = open_append(&config.jsonl)?;
    let mut pgn = open_append(&config.pgn)?;
    if let Some(dir) = &config.kif_dir {
        std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    }
    let config = Arc::new(config);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut rx = spawn_games(
        Arc::clone(&config),
        Arc::new(openings),
        plan,
        Arc::clone(&stop),
    );
    while let Some((pairing, record)) = rx.recv().await {
        write_records(&config, &record, &mut jsonl, &mut pgn);
        if tables.add(&config, &pairing, record) {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        progress(&config, &tables, total);
    }
    let Tables {
        standings,
        head,
        records,
        verdict,
    } = tables;
    Ok(Summary {
        records,
        standings,
        head_to_head: head,
        sprt: verdict.or_else(|| config.sprt.map(|s| s.state(&head))),
        carried: config.sprt.map_or(Tally::default(), |s| s.carried),
    })
}

/// The results so far: per engine, head to head, every record, and the SPRT's verdict once
/// it decided.
struct Tables {
    standings: Vec<Standing>,
    head: Tally,
    records: Vec<GameRecord>,
    verdict: Option<SprtState>,
}

impl Tables {
    fn new(config: &MatchConfig) -> Tables {
        Tables {
            standings: config
                .engines
                .iter()
                .map(|e| Standing {
                    name: e.name.clone(),
                    ..Standing::default()
                })
                .collect(),
            head: Tally::default(),
            records: Vec::new(),
            verdict: None,
        }
    }

    /// Counts a finished game; true when this game made the SPRT decide.
    fn add(&mut self, config: &MatchConfig, pairing: &Pairing, record: GameRecord) -> bool {
        count_result(pairing, &record, &mut self.standings, &mut self.head);
        self.records.push(record);
        self.decide(config)
    }

    /// Records the SPRT's verdict once it decides (from the games counted so far and any
    /// carried ones); true when it decided just now.
    fn decide(&mut self, config: &MatchConfig) -> bool {
        let Some(sprt) = config.sprt else {
            return false;
        };
        let state = sprt.state(&self.head);
        if state == SprtState::Continue || self.verdict.is_some() {
            return false;
        }
        self.verdict = Some(state);
        let carried = sprt.carried.games();
        let games = match carried {
            0 => format!("{} games", self.head.games()),
            _ => format!(
                "{} games ({} of them carried)",
                sprt.counted(&self.head).games(),
                carried
            ),
        };
        crate::tell!(
            "SPRT decided after {games}: {}",
            if state == SprtState::AcceptH1 {
                "H1 accepted"
            } else {
                "H0 accepted"
            }
        );
        true
    }
}

/// Starts the games of `plan`, at most `concurrency` at once and in schedule order (one
/// scheduler hands out the permits), until `stop`; each finished game comes back on the
/// returned channel.
fn spawn_games(
    config: Arc<MatchConfig>,
    openings: Arc<Vec<Opening>>,
    plan: Vec<Pairing>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> mpsc::UnboundedReceiver<(Pairing, GameRecord)> {
    let (tx, rx) = mpsc::unbounded_channel();
    let semaphore = Arc::new(Semaphore::new(config.concurrency.max(1)));
    tokio::spawn(async move {
        for pairing in plan {
            let Ok(permit) = Arc::clone(&semaphore).acquire_owned().await else {
                return;
            };
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            let (config, openings, tx) = (Arc::clone(&config), Arc::clone(&openings), tx.clone());
            tokio::spawn(async move {
                let _permit = permit;
                let specs = [
                    &config.engines[pairing.sente],
                    &config.engines[pairing.gote],
                ];
                let record = game::play(
                    pairing.game,
                    specs,
                    &openings[pairing.opening],
                    pairing.opening,
                    &config.settings,
                )
                .await;
                let _ = tx.send((pairing, record));
            });
        }
    });
    rx
}

/// Adds a finished game to the standings and to the first two engines' head-to-head.
fn count_result(
    pairing: &Pairing,
    record: &GameRecord,
    standings: &mut [Standing],
    head: &mut Tally,
) {
    let (s, g) = (pairing.sente, pairing.gote);
    let forfeit = u32::from(record.forfeit);
    match record.result() {
        GameResult::SenteWon => {
            standings[s].tally.wins += 1;
            standings[g].tally.losses += 1;
            standings[g].forfeits += forfeit;
        }
        GameResult::GoteWon => {
            standings[g].tally.wins += 1;
            standings[s].tally.losses += 1;
            standings[s].forfeits += forfeit;
        }
        _ => {
            standings[s].tally.draws += 1;
            standings[g].tally.draws += 1;
        }
    }
    if (s == 0 && g == 1) || (s == 1 && g == 0) {
        let (sente_won, gote_won) = (
            record.result() == GameResult::SenteWon,
            record.result() == GameResult::GoteWon,
        );
        let first_won = (sente_won && s == 0) || (gote_won && g == 0);
        let first_lost = (sente_won && s == 1) || (gote_won && g == 1);
        if first_won {
            head.wins += 1;
        } else if first_lost {
            head.losses += 1;
        } else {
            head.draws += 1;
        }
    }
}

/// Opens a record file for appending; a file that ends in the middle of a line (a match
/// killed while writing) gets its newline first, so that the next record starts a line.
fn open_append(path: &Option<std::path::PathBuf>) -> Result<Option<std::fs::File>, MatchError> {
    path.as_ref()
        .map(|p| {
            let unfinished_line = ends_inside_a_line(p);
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(file_error(p))?;
            if unfinished_line {
                file.write_all(b"\n").map_err(file_error(p))?;
            }
            Ok(file)
        })
        .transpose()
}

/// Whether the file at `path` ends in the middle of a line (a record written without its
/// newline). Reads its last byte only: record files grow large.
fn ends_inside_a_line(path: &std::path::Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut last = [0u8];
    file.seek(SeekFrom::End(-1)).is_ok() && file.read_exact(&mut last).is_ok() && last[0] != b'\n'
}

fn write_records(
    config: &MatchConfig,
    record: &GameRecord,
    jsonl: &mut Option<std::fs::File>,
    pgn: &mut Option<std::fs::File>,
) {
    if let Some(f) = jsonl {
        // One write per record, so that a match stopped between games leaves whole lines.
        if let Err(e) = f.write_all(format!("{}\n", record.to_json_line()).as_bytes()) {
            log::error!("writing the JSON record: {e}");
        }
    }
    if let Some(f) = pgn {
        match records::to_pgn(record) {
            Ok(text) => {
                let _ = f.write_all(text.as_bytes());
            }
            Err(e) => log::error!("game {}: no PGN: {e}", record.number),
        }
    }
    if let Some(dir) = &config.kif_dir {
        match records::to_kif(record) {
            Ok(text) => {
                let path = dir.join(format!("game-{:04}.kif", record.number));
                if let Err(e) = std::fs::write(&path, text) {
                    log::error!("{}: {e}", path.display());
                }
            }
            Err(e) => log::error!("game {}: no KIF: {e}", record.number),
        }
    }
}

fn progress(config: &MatchConfig, tables: &Tables, total: usize) {
    let Some(record) = tables.records.last() else {
        return;
    };
    let (done, head, standings) = (tables.records.len(), &tables.head, &tables.standings);
    let plies = record.game.moves.len();
    if config.settings.live_progress {
        // Clear the line the game redrew after each move.
        crate::tell_part!("\r\x1b[K");
    }
    crate::tell!(
        "game {done}/{total} (#{}): {} - {} {} ({}, {plies} plies)",
        record.number,
        record.game.players.sente,
        record.game.players.gote,
        record.result(),
        record.reason
    );
    if standings.len() == 2 {
        let mut line = format!(
            "  {} vs {}: {}",
            standings[0].name,
            standings[1].name,
            head_to_head_figures(head)
        );
        if let Some(sprt) = config.sprt {
            let carried = sprt.carried;
            if carried.games() > 0 {
                line += &format!(
                    "; with {carried} carried: {}",
                    head_to_head_figures(&sprt.counted(head))
                );
            }
            let (lo, hi) = sprt.bounds();
            line += &format!(
                ", SPRT llr {:.2} ({lo:.2}, {hi:.2}) [{}, {}]",
                sprt.llr(head),
                sprt.elo0,
                sprt.elo1
            );
        }
        crate::tell!("{line}");
    }
}

/// `W-L-D (W-L-D), score, Elo with its interval, LOS` of a head-to-head tally.
fn head_to_head_figures(t: &Tally) -> String {
    format!(
        "{t} (W-L-D), score {:.1}%, Elo {}, LOS {:.1}%",
        100.0 * t.score(),
        elo_text(t),
        100.0 * t.los()
    )
}

/// The Elo difference with its 95% interval (`+12.4 +/- 20.6`), or `n/a`.
fn elo_text(t: &Tally) -> String {
    t.elo().map_or("n/a".to_string(), |(e, err)| {
        format!("{e:+.1} +/- {err:.1}")
    })
}

/// The final table, one line per engine, best first.
pub fn table(summary: &Summary) -> String {
    let mut rows = summary.standings.clone();
    rows.sort_by(|a, b| b.tally.points().total_cmp(&a.tally.points()));
    let mut out = format!(
        "{:<4}{:<24}{:>7}{:>8}{:>7}{:>7}{:>8}{:>9}{:>10}\n",
        "#", "engine", "games", "points", "wins", "draws", "losses", "score", "forfeits"
    );
    for (i, s) in rows.iter().enumerate() {
        out += &format!(
            "{:<4}{:<24}{:>7}{:>8.1}{:>7}{:>7}{:>8}{:>8.1}%{:>10}\n",
            i + 1,
            s.name,
            s.tally.games(),
            s.tally.points(),
            s.tally.wins,
            s.tally.draws,
            s.tally.losses,
            100.0 * s.tally.score(),
            s.forfeits
        );
    }
    if summary.standings.len() == 2 {
        let h = &summary.head_to_head;
        out += &format!(
            "{} vs {}: Elo {}, LOS {:.1}%",
            summary.standings[0].name,
            summary.standings[1].name,
            elo_text(h),
            100.0 * h.los()
        );
        let c = summary.carried;
        if c.games() > 0 {
            let all = *h + c;
            out += &format!(
                "; with {c} carried: {} games, Elo {}, LOS {:.1}%",
                all.games(),
                elo_text(&all),
                100.0 * all.los()
            );
        }
        if let Some(state) = summary.sprt {
            out += &format!(", SPRT: {state:?}");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_alternate_colours_and_repeat_openings() {
        let plan = schedule(2, 4, 10, true, false);
        assert_eq!(
            plan.iter()
                .map(|p| (p.sente, p.opening))
                .collect::<Vec<_>>(),
            vec![(0, 0), (1, 0), (0, 1), (1, 1)]
        );
        let plan = schedule(3, 2, 1, false, false);
        assert_eq!(plan.len(), 6, "three pairs, two games each");
        let plan = schedule(3, 2, 1, false, true);
        assert!(
            plan.iter().all(|p| p.sente == 0 || p.gote == 0),
            "gauntlet: engine 0 in every game"
        );
    }

    #[test]
    fn a_record_without_its_newline_is_noticed() {
        let path =
            std::env::temp_dir().join(format!("shishi-newline-{}.jsonl", std::process::id()));
        std::fs::write(&path, "{\"game\":1}\n").unwrap();
        assert!(!ends_inside_a_line(&path));
        std::fs::write(&path, "{\"game\":1}").unwrap();
        assert!(ends_inside_a_line(&path));
        std::fs::write(&path, "").unwrap();
        assert!(!ends_inside_a_line(&path), "an empty file");
        std::fs::remove_file(&path).unwrap();
        assert!(!ends_inside_a_line(&path), "no file");
    }
}
