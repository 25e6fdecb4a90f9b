//! The result lines of an analysis, typed: one per position, one per ply of a game, one
//! summary per game. They are written as JSON lines (`protocol-docs/analyse.md`) and read
//! back by `--resume` into the same types, so that the KIF comments and the report are
//! built from typed values, never from fields looked up by name.

use super::judgement::Judgement;
use crate::core::score::{mate_in, mate_plies, mated_in, Score};
use serde::{Deserialize, Serialize};

/// A score as JSON: `{"cp": 35}` or `{"mate": 5}` (plies, from the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ScoreValue {
    /// Centipawns.
    Cp {
        /// The centipawns.
        cp: i32,
    },
    /// A mate in this many plies (negative: the side to move is mated).
    Mate {
        /// The plies, signed.
        mate: i32,
    },
}

/// Read by hand rather than as an untagged enum, whose only error is "did not match any
/// variant": a resumed file's `{"cp": 1.5}` is told as what it is.
impl<'de> Deserialize<'de> for ScoreValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            cp: Option<serde_json::Number>,
            mate: Option<serde_json::Number>,
        }
        let whole = |n: serde_json::Number, name: &str| {
            n.as_i64()
                .and_then(|v| i32::try_from(v).ok())
                .ok_or_else(|| D::Error::custom(format!("a score's {name} {n} is no whole number")))
        };
        match Raw::deserialize(d)? {
            Raw {
                cp: Some(cp),
                mate: None,
            } => Ok(ScoreValue::Cp {
                cp: whole(cp, "cp")?,
            }),
            Raw {
                cp: None,
                mate: Some(mate),
            } => Ok(ScoreValue::Mate {
                mate: whole(mate, "mate")?,
            }),
            _ => Err(D::Error::custom(r#"a score is {"cp": N} or {"mate": N}"#)),
        }
    }
}

impl ScoreValue {
    /// The JSON form of a search score.
    pub fn of(score: Score) -> ScoreValue {
        match mate_plies(score) {
            Some(mate) => ScoreValue::Mate { mate },
            None => ScoreValue::Cp { cp: score },
        }
    }

    /// Whether it is a score a search can give: a mate of 1 to 999 plies either way, or
    /// centipawns short of the mate scores (a results file resumed from may have been
    /// edited: `{"mate":0}` read as "mated in -1", `{"mate":2147483647}` as a vast count).
    pub fn is_possible(self) -> bool {
        use crate::core::score::{MATE, MATE_BOUND};
        match self {
            ScoreValue::Cp { cp } => cp.abs() <= MATE_BOUND,
            ScoreValue::Mate { mate } => mate != 0 && mate.abs() < MATE - MATE_BOUND,
        }
    }

    /// The search score it stands for.
    pub fn score(self) -> Score {
        match self {
            ScoreValue::Cp { cp } => cp,
            ScoreValue::Mate { mate } if mate > 0 => mate_in(mate as usize),
            ScoreValue::Mate { mate } => mated_in(mate.unsigned_abs() as usize),
        }
    }
}

/// The mate solver's verdict on a position (`--mate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum MateResult {
    /// A forced win of the side to move, with checks.
    Mate {
        /// The proven line's length.
        plies: usize,
        /// The proven line, USI.
        line: String,
    },
    /// No checking sequence wins.
    Nomate,
    /// Undecided in the time given.
    Unknown,
}

impl MateResult {
    /// Whether this verdict can stand for `pos`: a proven mate's line is that many legal
    /// moves from it (a results file resumed from may have been edited).
    pub fn replays_in(&self, pos: &crate::position::Position) -> bool {
        match self {
            MateResult::Mate { plies, line } => {
                let moves: Vec<&str> = line.split_whitespace().collect();
                moves.len() == *plies && pos.clone().play_usi_moves(moves).is_ok()
            }
            MateResult::Nomate | MateResult::Unknown => true,
        }
    }

    /// The KIF note of a proven mate: `mate in N plies: LINE`.
    pub fn note(&self) -> Option<String> {
        match self {
            MateResult::Mate { plies, line } => Some(format!("mate in {plies} plies: {line}")),
            _ => None,
        }
    }
}

/// One ply of a game, analysed. Scores are from the mover's side, mates counted in plies
/// from the position before the move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlyResult {
    /// The record's id.
    pub id: String,
    /// The ply (1 = the first move).
    pub ply: u64,
    /// The position before the move.
    pub sfen: String,
    /// The move played, USI.
    pub played: String,
    /// The move played's value (`None`: no search finished).
    pub played_score: Option<ScoreValue>,
    /// The best move found (the move played when nothing was better).
    pub bestmove: Option<String>,
    /// The best move's value.
    pub best_score: Option<ScoreValue>,
    /// Centipawns given away against the best move (mates as about 10000).
    pub loss: Option<i32>,
    /// Winning chances given away, hundredths.
    #[serde(default)]
    pub chances_lost: Option<i32>,
    /// The judgement, if the move gave away enough.
    pub judgement: Option<Judgement>,
    /// The depth of the search of the position.
    pub depth: Option<i32>,
    /// The nodes of every search the verdict took.
    pub nodes: u64,
    /// The best move and the line after it, USI.
    pub pv: Option<String>,
    /// The mate solver's verdict on the position (`--mate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<MateResult>,
}

impl PlyResult {
    /// The winning chances the move gave away (hundredths), if it was judged (marked).
    pub fn judged_loss(&self) -> Option<i32> {
        self.judgement.map(|_| self.chances_lost.unwrap_or(0))
    }
}

/// One of a position's best lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineResult {
    /// Its first move, USI.
    #[serde(rename = "move")]
    pub first: Option<String>,
    /// Its score, from the side to move.
    pub score: ScoreValue,
    /// Its depth.
    pub depth: i32,
    /// The line, USI.
    pub pv: String,
}

/// A position, analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionResult {
    /// The record's id.
    pub id: String,
    /// The position analysed.
    pub sfen: String,
    /// The best move, USI.
    pub bestmove: Option<String>,
    /// Its score, from the side to move.
    pub score: Option<ScoreValue>,
    /// The depth reached.
    pub depth: Option<i32>,
    /// The nodes searched.
    pub nodes: u64,
    /// The best line, USI.
    pub pv: Option<String>,
    /// Every line asked for (`--multipv`), best first.
    pub multipv: Vec<LineResult>,
    /// The mate solver's verdict (`--mate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate: Option<MateResult>,
}

/// A game's summary line: each side's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryLine {
    /// The record's id.
    pub id: String,
    /// The game's fingerprint (a hash of its variant, start and moves).
    #[serde(default)]
    pub game: String,
    /// `{"sente": {...}, "gote": {...}}`.
    pub summary: super::summary::GameFigures,
}

/// Any result line (written as JSON untagged; read back by [`ResultLine::from_json`], which
/// tells the kinds apart by their fields and checks the scores).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ResultLine {
    /// A game's summary (it has `summary`).
    Summary(SummaryLine),
    /// A ply of a game (it has `ply`).
    Ply(PlyResult),
    /// A position.
    Position(PositionResult),
}

impl ResultLine {
    /// A line read back from its JSON: its kind by the field only that kind has (`summary`,
    /// `ply`), then that kind's fields, so that an error names the field that is wrong
    /// (`a score's cp 1.5 is no whole number`, `missing field sfen`), and every score one a
    /// search can give ([`ScoreValue::is_possible`]).
    pub fn from_json(value: serde_json::Value) -> Result<ResultLine, String> {
        let line = if value.get("summary").is_some() {
            serde_json::from_value(value).map(ResultLine::Summary)
        } else if value.get("ply").is_some() {
            serde_json::from_value(value).map(ResultLine::Ply)
        } else {
            serde_json::from_value(value).map(ResultLine::Position)
        }
        .map_err(|e| e.to_string())?;
        let scores: Vec<ScoreValue> = match &line {
            ResultLine::Summary(_) => vec![],
            ResultLine::Ply(p) => p.played_score.into_iter().chain(p.best_score).collect(),
            ResultLine::Position(p) => p
                .score
                .into_iter()
                .chain(p.multipv.iter().map(|l| l.score))
                .collect(),
        };
        match scores.iter().find(|s| !s.is_possible()) {
            Some(bad) => Err(format!(
                "the score {} is none a search gives",
                serde_json::to_string(bad).unwrap_or_default()
            )),
            None => Ok(line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_read_back_is_checked_field_by_field() {
        let ply = |score: &str| {
            serde_json::from_str::<serde_json::Value>(&format!(
                r#"{{"id":"g","ply":1,"sfen":"x","played":"7i7h","playedScore":{score},
                "bestmove":null,"bestScore":null,"loss":null,"judgement":null,"depth":1,
                "nodes":1,"pv":null}}"#
            ))
            .unwrap()
        };
        assert!(ResultLine::from_json(ply(r#"{"cp":35}"#)).is_ok());
        assert!(ResultLine::from_json(ply(r#"{"mate":-3}"#)).is_ok());
        for (score, says) in [
            (
                r#"{"mate":0}"#,
                r#"the score {"mate":0} is none a search gives"#,
            ),
            (r#"{"mate":2147483647}"#, "is none a search gives"),
            (r#"{"cp":99999}"#, "is none a search gives"),
            (r#"{"cp":1.5}"#, "a score's cp 1.5 is no whole number"),
            (
                r#"{"mate":2147483648}"#,
                "a score's mate 2147483648 is no whole number",
            ),
            (
                r#"{"cp":1,"mate":2}"#,
                r#"a score is {"cp": N} or {"mate": N}"#,
            ),
        ] {
            let error = ResultLine::from_json(ply(score)).unwrap_err();
            assert!(error.contains(says), "{score}: {error}");
        }
    }

    #[test]
    fn lines_read_back_as_the_type_they_were_written_as() {
        let ply = PlyResult {
            id: "g".into(),
            ply: 3,
            sfen: "x".into(),
            played: "7i7h".into(),
            played_score: Some(ScoreValue::of(mated_in(4))),
            bestmove: Some("6i6h".into()),
            best_score: Some(ScoreValue::of(-12)),
            loss: Some(9988),
            chances_lost: Some(99),
            judgement: Some(Judgement::Blunder),
            depth: Some(7),
            nodes: 1000,
            pv: Some("6i6h".into()),
            mate: Some(MateResult::Nomate),
        };
        let text = serde_json::to_string(&ResultLine::Ply(ply.clone())).unwrap();
        assert!(text.contains("\"playedScore\":{\"mate\":-4}"), "{text}");
        assert!(text.contains("\"judgement\":\"blunder\""), "{text}");
        assert!(text.contains("\"mate\":{\"result\":\"nomate\"}"), "{text}");
        let read = |text: &str| ResultLine::from_json(serde_json::from_str(text).unwrap());
        assert_eq!(read(&text).unwrap(), ResultLine::Ply(ply));
        assert_eq!(ScoreValue::of(mated_in(4)).score(), mated_in(4));
        assert_eq!(ScoreValue::of(mate_in(9)).score(), mate_in(9));
        let side = "{\"moves\":3,\"inaccuracies\":0,\"mistakes\":1,\"blunders\":0,\
                    \"averageCpLoss\":12.5,\"accuracy\":null}";
        let summary = format!(
            "{{\"id\":\"g\",\"game\":\"00ff\",\"summary\":{{\"sente\":{side},\"gote\":{side}}}}}"
        );
        let Ok(ResultLine::Summary(read_back)) = read(&summary) else {
            panic!("{summary}");
        };
        assert_eq!(read_back.summary.sente.mistakes, 1);
        assert_eq!(read_back.summary.gote.average_cp_loss, Some(12.5));
        // The figures are typed: a summary without them is no summary line.
        let bare = "{\"id\":\"g\",\"game\":\"00ff\",\"summary\":{\"sente\":{}}}";
        assert!(read(bare).is_err());
        // Anything but Shishi's judgements is refused.
        let forged = text.replace("\"blunder\"", "\"<img>\"");
        assert!(serde_json::from_str::<PlyResult>(&forged).is_err());
    }
}
