//! Resuming a match from its own JSON-lines records (`--resume`): a long SPRT on a small
//! machine outlives one sitting, so a stopped match can be started again with the same
//! arguments and goes on where it was. The games in the file count as if just played (in the
//! order they finished: tables, Elo and the SPRT see them first), and only the scheduled
//! games the file lacks are played.
//!
//! A record must be the game the schedule gives its number (same engines on the same sides,
//! same opening), so that a file of another match, or of the same engines with other
//! `--games`, `--openings` or `--repeat`, is refused rather than silently mixed in. The file
//! is only ever appended to; a line that is not a whole record (a match killed while writing
//! it) stops the resume with its line number, for the user to decide.

use super::error::{file_error, MatchError, RecordProblem};
use super::Pairing;
use crate::records::GameRecord;
use std::collections::HashMap;
use std::path::Path;

/// The games of `path` that the `plan` of this match schedules, each with its pairing, in
/// file order. A missing file is an empty match (a first start with `--resume` is fine).
/// `names` are the engines' names by index; `variant` the match's variant name.
pub fn recorded_games(
    path: &Path,
    plan: &[Pairing],
    names: &[String],
    variant: &str,
) -> Result<Vec<(Pairing, GameRecord)>, MatchError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(file_error(path)(e)),
    };
    check_distinct(names)?;
    let by_number: HashMap<usize, &Pairing> = plan.iter().map(|p| (p.game, p)).collect();
    let mut seen = HashMap::new();
    let mut games = Vec::new();
    // A byte-order mark (an editor's) is not part of the first record.
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&bytes);
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_no = index + 1;
        let at = |problem| MatchError::Record {
            path: path.to_path_buf(),
            line: line_no,
            problem: Box::new(problem),
        };
        let line = std::str::from_utf8(line).map_err(|_| at(RecordProblem::NotText))?;
        if line.trim().is_empty() {
            continue;
        }
        let record: GameRecord =
            serde_json::from_str(line).map_err(|e| at(RecordProblem::NotARecord(e.to_string())))?;
        let game = record.number;
        record
            .check()
            .map_err(|error| at(RecordProblem::Invalid { game, error }))?;
        if record.game.variant.name() != variant {
            return Err(at(RecordProblem::OtherVariant {
                found: record.game.variant.name(),
                wanted: variant.to_string(),
            }));
        }
        let pairing = *by_number.get(&game).copied().ok_or_else(|| {
            at(RecordProblem::NotScheduled {
                game,
                games: plan.len(),
            })
        })?;
        if let Some(first) = seen.insert(game, line_no) {
            return Err(at(RecordProblem::Again { game, first }));
        }
        let (sente, gote) = (&names[pairing.sente], &names[pairing.gote]);
        if record.game.players.sente != *sente
            || record.game.players.gote != *gote
            || record.opening != pairing.opening
        {
            return Err(at(RecordProblem::OtherPairing {
                game,
                sente: record.game.players.sente.clone(),
                gote: record.game.players.gote.clone(),
                opening: record.opening,
                scheduled_sente: sente.clone(),
                scheduled_gote: gote.clone(),
                scheduled_opening: pairing.opening,
            }));
        }
        games.push((pairing, record));
    }
    Ok(games)
}

/// Records name engines by name, so resuming needs names that tell them apart.
fn check_distinct(names: &[String]) -> Result<(), MatchError> {
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(MatchError::SameNames(name.clone()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::schedule;

    fn record(game: usize, sente: &str, gote: &str, opening: usize) -> String {
        game_record(game, sente, gote, opening).to_json_line()
    }

    fn game_record(game: usize, sente: &str, gote: &str, opening: usize) -> GameRecord {
        let chu = crate::variant::Variant::chu();
        let moves = vec!["7i7h".to_string(), "6d6e".to_string()];
        GameRecord {
            number: game,
            game: crate::records::Game {
                players: crate::records::Players {
                    sente: sente.into(),
                    gote: gote.into(),
                },
                result: Some(crate::records::GameResult::SenteWon),
                ..crate::records::Game::new(
                    chu,
                    &crate::position::Position::startpos(chu).to_sfen(),
                    moves,
                )
            },
            reason: "test".into(),
            forfeit: false,
            opening,
            date: String::new(),
        }
    }

    /// A record file in the temporary folder, removed when dropped.
    struct TempFile(std::path::PathBuf);

    impl std::ops::Deref for TempFile {
        type Target = std::path::Path;
        fn deref(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn write_bytes(name: &str, bytes: &[u8]) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("shishi-resume-{}-{name}.jsonl", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn write(name: &str, lines: &[String]) -> TempFile {
        write_bytes(name, (lines.join("\n") + "\n").as_bytes())
    }

    fn names() -> Vec<String> {
        vec!["A".into(), "B".into()]
    }

    #[test]
    fn recorded_games_are_matched_to_the_schedule_in_file_order() {
        let plan = schedule(2, 6, 3, true, false);
        let path = write(
            "ok",
            &[
                record(2, "B", "A", 0),
                record(1, "A", "B", 0),
                String::new(),
            ],
        );
        let games = recorded_games(&path, &plan, &names(), "chushogi").unwrap();
        assert_eq!(
            games
                .iter()
                .map(|(p, r)| (p.game, r.number))
                .collect::<Vec<_>>(),
            vec![(2, 2), (1, 1)]
        );
        let missing = std::env::temp_dir().join("shishi-resume-no-such-file.jsonl");
        assert!(recorded_games(&missing, &plan, &names(), "chushogi")
            .unwrap()
            .is_empty());
    }

    #[test]
    fn records_of_another_match_are_refused_with_their_line() {
        let plan = schedule(2, 4, 2, true, false);
        let cases = [
            ("sides", record(2, "A", "B", 0), "schedules B - A"),
            ("opening", record(3, "A", "B", 0), "from opening 1"),
            (
                "number",
                record(9, "A", "B", 0),
                "not in this match's schedule",
            ),
            (
                "cut",
                record(1, "A", "B", 0)[..30].to_string(),
                "not a whole game record",
            ),
        ];
        for (name, line, expected) in cases {
            // Line 1 is game 4 as scheduled (B - A, opening 1); line 2 is wrong.
            let path = write(name, &[record(4, "B", "A", 1), line]);
            let err = recorded_games(&path, &plan, &names(), "chushogi")
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("line 2") && err.contains(expected),
                "{name}: {err}"
            );
        }
        let twice = write("twice", &[record(1, "A", "B", 0), record(1, "A", "B", 0)]);
        let err = recorded_games(&twice, &plan, &names(), "chushogi")
            .unwrap_err()
            .to_string();
        assert!(err.contains("again (first on line 1)"), "{err}");
        let sho = write("variant", &[record(1, "A", "B", 0)]);
        let err = recorded_games(&sho, &plan, &names(), "shoshogi")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("line 1") && err.contains("plays shoshogi"),
            "{err}"
        );
        let same = vec!["A".to_string(), "A".to_string()];
        let err = recorded_games(&sho, &plan, &same, "chushogi")
            .unwrap_err()
            .to_string();
        assert!(err.contains("distinct names"), "{err}");
    }

    #[test]
    fn corrupt_records_are_refused_with_their_line_and_a_bom_is_skipped() {
        // Issue 29, finding 5: "2-0" counted as a draw, a move list starting with 1a1a was
        // accepted, a byte-order mark was refused, binary garbage had no line number.
        let plan = schedule(2, 4, 2, true, false);
        let with = |change: &dyn Fn(&mut GameRecord)| {
            let mut r = game_record(4, "B", "A", 1);
            change(&mut r);
            r.to_json_line()
        };
        let cases = [
            (
                "result",
                with(&|_| {}).replace("\"1-0\"", "\"2-0\""),
                "result '2-0' is none of",
            ),
            (
                "unfinished",
                with(&|r| r.game.result = Some(crate::records::GameResult::Unfinished)),
                "result '*'",
            ),
            (
                "illegal",
                with(&|r| r.game.moves = vec!["1a1a".into(), "7i7h".into()]),
                "moves: move 1",
            ),
            (
                "after-end",
                with(&|r| {
                    r.game.start_sfen = "12/12/12/12/12/5k6/6K5/12/12/12/12/12 b - 1".into();
                    r.game.moves = vec!["6g7f".into(), "1a1b".into()];
                }),
                "already over",
            ),
        ];
        for (name, line, expected) in cases {
            let path = write(name, &[record(1, "A", "B", 0), line]);
            let err = recorded_games(&path, &plan, &names(), "chushogi")
                .unwrap_err()
                .to_string();
            assert!(
                err.contains("line 2") && err.contains(expected),
                "{name}: {err}"
            );
        }
        let mut bytes = (record(1, "A", "B", 0) + "\n").into_bytes();
        bytes.extend_from_slice(&[0xff, 0xfe, 0x00, 0x81, b'\n']);
        let garbage = write_bytes("garbage", &bytes);
        let err = recorded_games(&garbage, &plan, &names(), "chushogi")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 2") && err.contains("not UTF-8"), "{err}");
        let bom = write("bom", &["\u{feff}".to_string() + &record(1, "A", "B", 0)]);
        let games = recorded_games(&bom, &plan, &names(), "chushogi").unwrap();
        assert_eq!(games.len(), 1);
    }
}
