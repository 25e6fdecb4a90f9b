//! `shishi analyse`: batch analysis of positions and games, on all cores.
//!
//! Positions are independent, so rayon runs them across `workers` threads, each search with
//! a small table of its own, cleared before every search so that results do not depend on
//! the order of work (one thread and a node limit give the same output every run). A game
//! is analysed ply by ply; each move is compared with the best move and judged (inaccuracy,
//! mistake, blunder). Output is JSON lines, written as results come; `--resume` skips what
//! the output file already holds. Games can also be written as annotated KIF files.

pub mod input;

use crate::core::score::{mate_plies, Score};
use crate::position::Position;
use crate::search::{Info, Limits, Observer, SearchControl, Searcher};
use crate::tournament::records::{to_kif, GameRecord};
use crate::variant::Variant;
use input::Job;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::Write;
use std::sync::Mutex;

/// Judgement thresholds (centipawns lost against the best move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// At least this is an inaccuracy.
    pub inaccuracy: i32,
    /// At least this is a mistake.
    pub mistake: i32,
    /// At least this is a blunder.
    pub blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            inaccuracy: 50,
            mistake: 100,
            blunder: 300,
        }
    }
}

/// How to analyse.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search limits of every position (depth, nodes or movetime).
    pub limits: Limits,
    /// Lines per position.
    pub multipv: usize,
    /// Positions analysed at once.
    pub workers: usize,
    /// Search threads per position.
    pub threads: usize,
    /// Hash per search, MB.
    pub hash_mb: usize,
    /// In games, start at this ply (1 = the first move).
    pub from_ply: usize,
    /// Judgement thresholds.
    pub thresholds: Thresholds,
    /// Where to write annotated KIF files (games only).
    pub kif_dir: Option<std::path::PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

struct Lines(Mutex<Vec<Info>>);

impl Observer for Lines {
    fn info(&self, info: &Info) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(info.clone());
    }
}

/// A score as JSON: `{"cp": 35}` or `{"mate": 5}` (plies, from the side to move).
pub fn score_json(score: Score) -> Value {
    match mate_plies(score) {
        Some(p) => json!({ "mate": p }),
        None => json!({ "cp": score }),
    }
}

/// A score as centipawns for comparisons, mates counted as large values.
fn as_cp(score: Score) -> i32 {
    match mate_plies(score) {
        Some(p) if p > 0 => 10_000 - p,
        Some(p) => -10_000 - p,
        None => score,
    }
}

/// The result of one search: the best lines.
struct Analysis {
    lines: Vec<Info>,
    nodes: u64,
}

fn search(
    searcher: &mut Searcher,
    pos: &Position,
    settings: &Settings,
    multipv: usize,
) -> Analysis {
    searcher.clear();
    searcher.multipv = multipv;
    let lines = Lines(Mutex::new(Vec::new()));
    let result = crate::session::worker::search_guarded(
        searcher,
        pos,
        &settings.limits,
        &SearchControl::new(false),
        &lines,
    );
    let infos = lines.0.into_inner().unwrap_or_else(|e| e.into_inner());
    // The last complete report of each line.
    let mut best: Vec<Info> = Vec::new();
    for k in 1..=multipv {
        if let Some(info) = infos
            .iter()
            .rev()
            .find(|i| i.multipv == k && i.bound.is_none())
        {
            best.push(info.clone());
        }
    }
    if best.is_empty() {
        // Without a finished iteration there is no score to report (a move alone is no
        // analysis).
        if let (Some(mv), Some(score)) = (result.best, result.score) {
            best.push(Info {
                depth: result.depth,
                seldepth: 0,
                multipv: 1,
                score,
                bound: result.bound,
                nodes: result.nodes,
                time: Default::default(),
                hashfull: 0,
                pv: vec![mv],
            });
        }
    }
    Analysis {
        lines: best,
        nodes: result.nodes,
    }
}

fn pv_text(pos: &Position, pv: &[crate::core::Move]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        out.push(p.move_to_usi(mv));
        p.make_move(mv);
    }
    out.join(" ")
}

fn judgement(loss: i32, t: &Thresholds) -> Option<&'static str> {
    if loss >= t.blunder {
        Some("blunder")
    } else if loss >= t.mistake {
        Some("mistake")
    } else if loss >= t.inaccuracy {
        Some("inaccuracy")
    } else {
        None
    }
}

/// Keys of the results already in an output file (`id` for positions, `id#ply` for plies).
pub fn done_keys(path: &std::path::Path) -> HashSet<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashSet::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| {
            let id = v.get("id")?.as_str()?.to_string();
            Some(match v.get("ply").and_then(Value::as_u64) {
                Some(p) => format!("{id}#{p}"),
                None => id,
            })
        })
        .collect()
}

/// Analyses `jobs`, writing one JSON line per position or ply to `out`. Returns the number
/// of searches run.
pub fn run(
    jobs: &[Job],
    settings: &Settings,
    out: &Mutex<Box<dyn Write + Send>>,
    done: &HashSet<String>,
) -> usize {
    let total: usize = jobs
        .iter()
        .map(|j| match j {
            Job::Position { id, .. } => usize::from(!done.contains(id)),
            Job::Game { id, moves, .. } => (settings.from_ply.max(1)..=moves.len())
                .filter(|p| !done.contains(&format!("{id}#{p}")))
                .count(),
        })
        .sum();
    let bar = if settings.progress {
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} positions, {per_sec}, ETA {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let emit = |value: Value| {
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{value}");
        let _ = w.flush();
    };
    let work = |job: &Job| {
        let mut searcher = Searcher::new(settings.hash_mb, settings.threads);
        match job {
            Job::Position {
                id,
                variant,
                sfen,
                moves,
            } => {
                if done.contains(id) {
                    return;
                }
                let variant = Variant::by_name(variant).expect("checked variant");
                let mut pos = Position::from_sfen(variant, sfen).expect("checked SFEN");
                pos.play_usi_moves(moves.iter().map(String::as_str))
                    .expect("checked moves");
                let a = search(&mut searcher, &pos, settings, settings.multipv);
                let lines: Vec<Value> = a.lines.iter().map(|l| json!({ "move": l.pv.first().map(|&m| pos.move_to_usi(m)), "score": score_json(l.score), "depth": l.depth, "pv": pv_text(&pos, &l.pv) })).collect();
                let best = a.lines.first();
                emit(json!({
                    "id": id,
                    "sfen": pos.to_sfen(),
                    "bestmove": best.and_then(|l| l.pv.first()).map(|&m| pos.move_to_usi(m)),
                    "score": best.map(|l| score_json(l.score)),
                    "depth": best.map(|l| l.depth),
                    "nodes": a.nodes,
                    "pv": best.map(|l| pv_text(&pos, &l.pv)),
                    "multipv": lines,
                }));
                bar.inc(1);
            }
            Job::Game {
                id,
                variant,
                sfen,
                moves,
                names,
            } => {
                let variant = Variant::by_name(variant).expect("checked variant");
                let mut pos = Position::from_sfen(variant, sfen).expect("checked SFEN");
                let mut comments = vec![String::new(); moves.len()];
                for (i, text) in moves.iter().enumerate() {
                    let ply = i + 1;
                    let played = pos.parse_usi_path(text).expect("checked moves");
                    if ply >= settings.from_ply.max(1) && !done.contains(&format!("{id}#{ply}")) {
                        let a = search(&mut searcher, &pos, settings, settings.multipv);
                        let best = a.lines.first().cloned();
                        let best_move = best.as_ref().and_then(|l| l.pv.first().copied());
                        let best_score = best.as_ref().map_or(0, |l| l.score);
                        let canonical = pos.canonical(played);
                        let played_score = if Some(canonical) == best_move {
                            best_score
                        } else if let Some(line) =
                            a.lines.iter().find(|l| l.pv.first() == Some(&canonical))
                        {
                            line.score
                        } else {
                            let mut after = pos.clone();
                            after.make_move(played);
                            match after.outcome() {
                                Some(o) if o.winner == Some(pos.side_to_move()) => {
                                    crate::core::score::mate_in(1)
                                }
                                Some(o) if o.winner.is_some() => crate::core::score::mated_in(1),
                                Some(_) => 0,
                                None => -search(&mut searcher, &after, settings, 1)
                                    .lines
                                    .first()
                                    .map_or(0, |l| l.score),
                            }
                        };
                        let loss = (as_cp(best_score) - as_cp(played_score)).max(0);
                        let verdict = judgement(loss, &settings.thresholds);
                        let best_text = best_move.map(|m| pos.move_to_usi(m));
                        comments[i] = match (&best_text, verdict) {
                            (Some(b), Some(v)) => format!(
                                "{v}: {} (best {b} {})",
                                fmt_score(played_score),
                                fmt_score(best_score)
                            ),
                            _ => fmt_score(played_score),
                        };
                        emit(json!({
                            "id": id,
                            "ply": ply,
                            "sfen": pos.to_sfen(),
                            "played": text,
                            "playedScore": score_json(played_score),
                            "bestmove": best_text,
                            "bestScore": score_json(best_score),
                            "loss": loss,
                            "judgement": verdict,
                            "depth": best.as_ref().map(|l| l.depth),
                            "nodes": a.nodes,
                            "pv": best.as_ref().map(|l| pv_text(&pos, &l.pv)),
                        }));
                        bar.inc(1);
                    }
                    pos.make_move(played);
                }
                if let Some(dir) = &settings.kif_dir {
                    let record = GameRecord {
                        game: 0,
                        variant: variant.name().into(),
                        initial_sfen: sfen.clone(),
                        moves: moves.join(" "),
                        result: match pos.outcome().and_then(|o| o.winner) {
                            Some(crate::core::Color::Sente) => "1-0".into(),
                            Some(crate::core::Color::Gote) => "0-1".into(),
                            None => "*".into(),
                        },
                        reason: "analysed by shishi".into(),
                        sente: names.0.clone(),
                        gote: names.1.clone(),
                        times_ms: Vec::new(),
                        comments,
                        opening: 0,
                        date: crate::tournament::game::now_rfc3339(),
                    };
                    match to_kif(&record) {
                        Ok(text) => {
                            let _ = std::fs::create_dir_all(dir);
                            let safe: String = id
                                .chars()
                                .map(|c| {
                                    if c.is_alphanumeric() || c == '-' || c == '_' {
                                        c
                                    } else {
                                        '_'
                                    }
                                })
                                .collect();
                            if let Err(e) = std::fs::write(dir.join(format!("{safe}.kif")), text) {
                                log::error!("writing the annotated KIF of {id}: {e}");
                            }
                        }
                        Err(e) => log::error!("annotated KIF of {id}: {e}"),
                    }
                }
            }
        }
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(settings.workers.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| jobs.par_iter().for_each(work)),
        Err(_) => jobs.iter().for_each(work),
    }
    bar.finish_and_clear();
    total
}

fn fmt_score(score: Score) -> String {
    match mate_plies(score) {
        Some(p) => format!("mate {p}"),
        None => format!("{:+.2}", score as f64 / 100.0),
    }
}
