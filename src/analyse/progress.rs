//! How a run shows its progress (a bar on a terminal, a line every 10 s in a log) and what
//! it says at its end (each game's figures as a table).

use super::summary::SideSummary;
use std::sync::Mutex;

/// Progress for a log or a pipe (stderr not a terminal, where the bar does not draw): a
/// line every [`PROGRESS_LINE_EVERY`], positions done of all, the rate and the time left.
pub(crate) struct ProgressLines {
    show: bool,
    total: usize,
    every: std::time::Duration,
    start: std::time::Instant,
    state: Mutex<(usize, std::time::Instant)>,
}

/// How often a progress line goes to stderr when it is not a terminal.
pub(crate) const PROGRESS_LINE_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl ProgressLines {
    pub(crate) fn new(show: bool, total: usize, every: std::time::Duration) -> ProgressLines {
        let now = std::time::Instant::now();
        ProgressLines {
            show,
            total,
            every,
            start: now,
            state: Mutex::new((0, now)),
        }
    }

    /// Counts a position done; the progress line when one is due.
    pub(crate) fn one_more(&self) -> Option<String> {
        if !self.show {
            return None;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0 += 1;
        if state.1.elapsed() < self.every || state.0 >= self.total {
            return None;
        }
        state.1 = std::time::Instant::now();
        let secs = self.start.elapsed().as_secs_f64();
        let rate = state.0 as f64 / secs.max(1e-3);
        let left = (self.total - state.0) as f64 / rate.max(1e-9);
        Some(format!(
            "analysed {} of {} positions ({rate:.1}/s), about {}:{:02} left",
            state.0,
            self.total,
            left as u64 / 60,
            left as u64 % 60
        ))
    }
}

pub(crate) fn progress_bar(show: bool, total: usize) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
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
}

/// What a run did, for the person who started it: each game's summary, the files it wrote.
#[derive(Clone, Debug, Default)]
pub struct RunSummary {
    /// The searches run (positions and plies analysed now, not taken from `--resume`).
    pub searches: usize,
    /// Each analysed game: its id, the players, and each side's figures (sente, gote).
    pub games: Vec<GameSummary>,
    /// The annotated KIF files and report pages written (or found as written), in order.
    pub files: Vec<std::path::PathBuf>,
}

/// One game's summary line, as the closing table shows it.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The record's id.
    pub id: String,
    /// Sente's and gote's names.
    pub names: (String, String),
    /// Sente's and gote's figures.
    pub sides: [SideSummary; 2],
}

impl RunSummary {
    /// The games' summaries as a table for a terminal, one row per side.
    pub fn table(&self) -> String {
        use crate::text::printable;
        let mut games = self.games.clone();
        games.sort_by(|a, b| a.id.cmp(&b.id));
        let mut out = format!(
            "{:<24} {:<18} {:>5} {:>6} {:>8} {:>8} {:>8} {:>8}\n",
            "game", "side", "moves", "?! ", "? ", "?? ", "avg loss", "accuracy"
        );
        for g in &games {
            for (i, (mark, name)) in [("☗", &g.names.0), ("☖", &g.names.1)].iter().enumerate() {
                let f = &g.sides[i];
                let (moves, inaccuracies, mistakes, blunders) =
                    (f.moves, f.inaccuracies, f.mistakes, f.blunders);
                // None without a judged move: a dash, not a zero.
                let loss = f.average_cp_loss.map_or("–".into(), |l| format!("{l:.1}"));
                let accuracy = f.accuracy.map_or("–".into(), |a| format!("{a:.1}%"));
                // Ids and names come from the input: printable only (no escape sequence
                // or direction override reaches the terminal).
                let id: String = if i == 0 {
                    printable(&g.id).chars().take(24).collect()
                } else {
                    String::new()
                };
                let side: String = format!("{mark} {}", printable(name))
                    .chars()
                    .take(18)
                    .collect();
                out += &format!(
                    "{id:<24} {side:<18} {moves:>5} {inaccuracies:>6} {mistakes:>8} {blunders:>8} {loss:>8} {accuracy:>8}\n"
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn the_closing_table_prints_no_control_character_and_no_made_up_accuracy() {
        // Issue 55, cases 9 and 12: an id's escape sequence (a window title) and a name's
        // U+202E reached the terminal; a side without a judged move showed accuracy 0.0.
        let judged = SideSummary {
            moves: 3,
            average_cp_loss: Some(12.0),
            accuracy: Some(88.3),
            ..SideSummary::default()
        };
        let outcome = RunSummary {
            games: vec![GameSummary {
                id: "g\u{1b}]0;pwned\u{7}".into(),
                names: ("\u{202e}ecila".into(), "bob".into()),
                sides: [judged, SideSummary::default()],
            }],
            ..RunSummary::default()
        };
        let table = outcome.table();
        assert!(!table
            .chars()
            .any(|c| c == '\u{1b}' || c == '\u{7}' || c == '\u{202e}'));
        let rows: Vec<&str> = table.lines().collect();
        assert!(rows[1].starts_with("g\u{fffd}]0;pwned\u{fffd}"), "{table}");
        assert!(
            rows[1].contains("☗ \u{fffd}ecila") && rows[1].ends_with("12.0    88.3%"),
            "{table}"
        );
        assert!(rows[2].ends_with("       –        –"), "{table}");
    }

    #[test]
    fn progress_lines_count_and_estimate() {
        let lines = ProgressLines::new(true, 4, std::time::Duration::ZERO);
        let first = lines.one_more().unwrap();
        assert!(first.starts_with("analysed 1 of 4 positions ("), "{first}");
        assert!(first.ends_with(" left"), "{first}");
        lines.one_more();
        lines.one_more();
        // Not for the last one (the run's own summary follows), nor when not shown.
        assert_eq!(lines.one_more(), None);
        let hidden = ProgressLines::new(false, 4, std::time::Duration::ZERO);
        assert_eq!(hidden.one_more(), None);
    }
}
