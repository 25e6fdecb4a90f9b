//! Reading analysis input: one SFEN a line (optionally `moves ...`, or `startpos [moves ...]`),
//! JSON lines like lishogi's game export (`variant`, `initialSfen`, `moves`), or KIF as lishogi
//! exports chu shogi (two-line lion moves, `（居食い）`, `(じっと)`, `仝`) and sho shogi. The
//! format is detected per file. A malformed record is reported with its line number and
//! skipped; reading goes on.

use super::error::AnalyseError;
use crate::position::Position;
use crate::records::{kif, Game, GameResult, Players};
use crate::variant::Variant;
use serde::Deserialize;

/// One thing to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// A single position (the moves lead to it from the SFEN).
    Position(PositionJob),
    /// A whole game: every ply is analysed.
    Game(GameJob),
}

/// A single position to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionJob {
    /// Record id: `LINE` of the input.
    pub id: String,
    /// Variant.
    pub variant: &'static Variant,
    /// The SFEN.
    pub sfen: String,
    /// Moves from it (USI).
    pub moves: Vec<String>,
}

/// A whole game to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Record id: the game's `id` field, or `LINE` (a KIF: its file name).
    pub id: String,
    /// The game: its result as the record states it (a KIF's ending line, `投了`,
    /// `まで99手で先手の勝ち`, ...; a JSON record's `winner` or `result`), a KIF's header
    /// tags other than the players (for the annotated KIF), the move times where the
    /// record has them (a KIF's time fields, a match record's `timesMs`).
    pub game: Game,
}

impl Job {
    /// The record id.
    pub fn id(&self) -> &str {
        match self {
            Job::Position(p) => &p.id,
            Job::Game(g) => &g.id,
        }
    }

    /// The record id, to change.
    fn id_mut(&mut self) -> &mut String {
        match self {
            Job::Position(p) => &mut p.id,
            Job::Game(g) => &mut g.id,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonGame {
    id: Option<serde_json::Value>,
    game: Option<serde_json::Value>,
    variant: Option<String>,
    initial_sfen: Option<String>,
    moves: Option<String>,
    sente: Option<String>,
    gote: Option<String>,
    /// lishogi's export: `sente` or `gote` (none for a draw or an unfinished game).
    winner: Option<String>,
    /// lishogi's export: `mate`, `resign`, `draw`, `repetition`, ...
    status: Option<String>,
    /// `shishi match --jsonl`: `1-0`, `0-1` or `1/2-1/2`.
    result: Option<String>,
    /// lishogi's export: `{"sente": {"user": {"name": ...}}, "gote": ...}` (an AI side has
    /// `aiLevel` instead of a user).
    players: Option<serde_json::Value>,
    /// `shishi match --jsonl`: each move's thinking time, ms.
    times_ms: Option<Vec<u64>>,
}

impl JsonGame {
    /// A player's name: the record's `sente` / `gote`, else lishogi's `players` (a user's
    /// name, or `lishogi AI level N`).
    fn player(&self, side: &str, named: &Option<String>) -> String {
        if let Some(name) = named {
            return name.clone();
        }
        let player = self.players.as_ref().and_then(|p| p.get(side));
        let user = player
            .and_then(|p| p.pointer("/user/name"))
            .and_then(|n| n.as_str());
        let ai = player
            .and_then(|p| p.get("aiLevel"))
            .and_then(|l| l.as_u64());
        match (user, ai) {
            (Some(name), _) => name.to_string(),
            (None, Some(level)) => format!("lishogi AI level {level}"),
            _ => String::new(),
        }
    }

    /// The result the record states, if any.
    fn stated_result(&self) -> Option<GameResult> {
        if let Some(r) = self.result.as_deref() {
            return GameResult::parse(r).filter(|&r| r != GameResult::Unfinished);
        }
        match (self.winner.as_deref(), self.status.as_deref()) {
            (Some("sente"), _) => Some(GameResult::SenteWon),
            (Some("gote"), _) => Some(GameResult::GoteWon),
            (None, Some("draw" | "repetition" | "impasse27")) => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// Parses an input file's text. `default_variant` applies where a record does not say; a
/// KIF's moves say which variant they are written for, unless `explicit` (the user named
/// the variant, and the file cannot override it). A UTF-8 byte-order mark (Windows editors
/// write one) is skipped.
pub fn parse(
    text: &str,
    file: &str,
    default_variant: &'static Variant,
    explicit: bool,
) -> (Vec<Job>, Vec<String>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        parse_jsonl(text, file, default_variant)
    } else if text.contains("手目") || text.contains("手数----") {
        parse_kif(text, file, explicit.then_some(default_variant))
    } else {
        parse_sfens(text, file, default_variant)
    }
}

fn check(variant: &'static Variant, sfen: &str, moves: &[String]) -> Result<(), AnalyseError> {
    let mut pos = Position::from_sfen(variant, sfen)?;
    pos.play_usi_moves(moves.iter().map(String::as_str))?;
    Ok(())
}

fn parse_sfens(text: &str, file: &str, variant: &'static Variant) -> (Vec<Job>, Vec<String>) {
    let (mut jobs, mut errors) = (Vec::new(), Vec::new());
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (setup, moves) = match line.split_once(" moves") {
            Some((s, m)) => (
                s.trim(),
                m.split_whitespace().map(String::from).collect::<Vec<_>>(),
            ),
            None => (line, Vec::new()),
        };
        let setup = setup.strip_prefix("position").map_or(setup, str::trim);
        let setup = setup.strip_prefix("sfen").map_or(setup, str::trim);
        let sfen = if setup == "startpos" {
            variant.spec.start_sfen.to_string()
        } else {
            setup.to_string()
        };
        match check(variant, &sfen, &moves) {
            Ok(()) => jobs.push(Job::Position(PositionJob {
                id: (n + 1).to_string(),
                variant,
                sfen,
                moves,
            })),
            Err(e) => errors.push(format!("{file}:{}: {e}; skipped", n + 1)),
        }
    }
    (jobs, errors)
}

fn parse_jsonl(
    text: &str,
    file: &str,
    default_variant: &'static Variant,
) -> (Vec<Job>, Vec<String>) {
    let (mut jobs, mut errors) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: JsonGame = match serde_json::from_str(line) {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!(
                    "{file}:{}: not a JSON game record ({e}); skipped",
                    n + 1
                ));
                continue;
            }
        };
        let variant = match record.variant.as_deref() {
            None => default_variant,
            Some(v) => match Variant::by_name(v) {
                Some(v) => v,
                None => {
                    errors.push(format!(
                        "{file}:{}: variant '{v}' is not played here; skipped",
                        n + 1
                    ));
                    continue;
                }
            },
        };
        let sfen = match record.initial_sfen.as_deref() {
            None | Some("startpos") => variant.spec.start_sfen.to_string(),
            Some(s) => s.to_string(),
        };
        let result = record.stated_result();
        let players = Players {
            sente: record.player("sente", &record.sente),
            gote: record.player("gote", &record.gote),
        };
        let moves: Vec<String> = record
            .moves
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        if let Err(e) = check(variant, &sfen, &moves) {
            errors.push(format!("{file}:{}: {e}; skipped", n + 1));
            continue;
        }
        let id = record.id.or(record.game).map_or((n + 1).to_string(), |v| {
            v.as_str().map_or(v.to_string(), String::from)
        });
        let times_ms = record
            .times_ms
            .unwrap_or_default()
            .into_iter()
            .map(Some)
            .collect();
        jobs.push(Job::Game(GameJob {
            id,
            game: Game {
                players,
                result,
                times_ms,
                ..Game::new(variant, &sfen, moves)
            },
        }));
    }
    (jobs, errors)
}

/// Gives every job its own id: a repeated id (two `shishi match --jsonl` runs appended
/// to one file both count from 1) becomes `ID~2`, `ID~3`, ... in input order, so that
/// results, `--resume` and KIF file names tell the games apart. Returns a warning for each.
pub fn make_ids_unique(jobs: &mut [Job]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut warnings = Vec::new();
    for job in jobs.iter_mut() {
        let id = job.id_mut();
        if !seen.insert(id.clone()) {
            let mut n = 2;
            while seen.contains(&format!("{id}~{n}")) {
                n += 1;
            }
            let renamed = format!("{id}~{n}");
            warnings.push(format!(
                "record id '{id}' appears again; this one is '{renamed}'"
            ));
            seen.insert(renamed.clone());
            *id = renamed;
        }
    }
    warnings
}

fn parse_kif(text: &str, file: &str, variant: Option<&'static Variant>) -> (Vec<Job>, Vec<String>) {
    match kif::read(text, file, variant) {
        Ok(game) => {
            let id = std::path::Path::new(file)
                .file_stem()
                .map_or("1".to_string(), |s| s.to_string_lossy().into_owned());
            (vec![Job::Game(GameJob { id, game })], Vec::new())
        }
        Err(e) => (Vec::new(), vec![e.to_string()]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{decode_text as decode, to_kif, GameRecord};

    fn record(variant: &'static Variant, moves: &str) -> GameRecord {
        let moves = moves.split_whitespace().map(String::from).collect();
        GameRecord {
            number: 1,
            game: Game {
                players: Players {
                    sente: "A".into(),
                    gote: "B".into(),
                },
                result: Some(GameResult::Draw),
                ..Game::new(variant, variant.spec.start_sfen, moves)
            },
            reason: "test".into(),
            forfeit: false,
            opening: 0,
            date: "2026-11-29T00:00:00Z".into(),
        }
    }

    #[test]
    fn kif_written_by_the_match_runner_reads_back() {
        let moves =
            "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f 7d7e 7i7h 7e7f 7h7g";
        let record = record(Variant::chu(), moves);
        let kif = to_kif(&record).unwrap();
        let (jobs, errors) = parse(&kif, "game-0003.kif", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        moves: read,
                        players: names,
                        ..
                    },
                ..
            }) => {
                assert_eq!(read.join(" "), moves);
                assert_eq!((names.sente.as_str(), names.gote.as_str()), ("A", "B"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_set_up_position_reads_back_from_its_board_diagram() {
        // Issue 25: a KIF with a board diagram was refused. Gote to move, promoted pieces
        // whose one-kanji names would be other kinds' (成飛, 成馬, 杏), and a move of the
        // promoted gold (`成飛`, whose 成 is its name's, not a promotion).
        let sfen = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/2+g9/12/\
3I1+P+B1I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1";
        for (variant, sfen, moves) in [
            (Variant::chu(), sfen, "10f10g 12i12h 10g10h"),
            (
                Variant::sho(),
                "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B2E2R1/LNSGKGSNL w - 1",
                "3c3d 2g2f",
            ),
        ] {
            let mut rec = record(variant, moves);
            rec.game.start_sfen = sfen.into();
            let kif = to_kif(&rec).unwrap();
            assert!(kif.contains("後手番"), "{kif}");
            let (jobs, errors) = parse(&kif, "setup.kif", variant, false);
            assert!(errors.is_empty(), "{errors:?}\n{kif}");
            match &jobs[0] {
                Job::Game(GameJob {
                    game:
                        Game {
                            start_sfen: read,
                            moves: read_moves,
                            ..
                        },
                    ..
                }) => {
                    assert_eq!(read, sfen, "{kif}");
                    assert_eq!(read_moves.join(" "), moves);
                }
                other => panic!("{other:?}"),
            }
        }
        // As lishogi's server draws a chu diagram (three places a square, `v` for gote).
        let setup = "手合割：平手\n １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n\
+------------------------------------------------+\n\
|  ・  ・  ・  ・  ・ v玉  ・  ・  ・  ・  ・  ・|一\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|二\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・ v歩|三\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|四\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|五\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|六\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|七\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|八\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|九\n\
|  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・  ・|十\n\
|  ・  ・  ・  ・  ・  ・ 成獅  獅  ・  ・  ・  ・|十一\n\
|  ・  ・  ・  ・  ・  ・  玉  ・  ・  ・  ・  ・|十二\n\
+------------------------------------------------+\n\
先手：a\n後手：b\n手数----指手---------消費時間--\n   1   5十獅子 （←5十一）\n";
        let (jobs, errors) = parse(setup, "diagram.kif", Variant::sho(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        start_sfen: sfen,
                        moves,
                        ..
                    },
                ..
            }) => {
                assert_eq!(sfen, "5k6/12/11p/12/12/12/12/12/12/12/6+ON4/6K5 b - 1");
                assert_eq!(moves.join(" "), "5k5j");
            }
            other => panic!("{other:?}"),
        }
        // A wrong piece or a short rank is named with its line.
        let bad = setup.replace(" 成獅", " 成猫");
        let (_, errors) = parse(&bad, "bad.kif", Variant::chu(), false);
        assert!(
            errors[0].contains("bad.kif:14: unknown piece '成猫'"),
            "{errors:?}"
        );
    }

    #[test]
    fn lishogi_server_kif_with_lion_double_moves_is_read() {
        // Issue 25: lishogi's KIF download writes a double move as two lines with the step
        // right after the number; both were skipped, so the next move was "not legal" and
        // the game was dropped. Header, time fields, a jitto and the ending as lishogi's
        // server writes them.
        let kif = "開始日時：2026/11/30 12:00:00\n棋戦：lishogi Casual Chushogi\n\
先手：alice\n後手：bob\n手数----指手---------消費時間--\n\
   1   8八歩兵 （←8九）   (00:01/00:00:01)\n   2   5五歩兵 （←5四）   (00:01/00:00:01)\n\
   3   8九獅子 （←7十）   (00:02/00:00:03)\n   4   5四獅子 （←6三）   (00:01/00:00:02)\n\
   5   8七獅子 （←8九）   (00:01/00:00:04)\n   6   6五獅子 （←5四）   (00:01/00:00:03)\n\
   7   7六獅子 （←8七）   (00:01/00:00:05)\n   8   6六獅子 （←6五）   (00:01/00:00:04)\n\
   9一歩目 7五獅子 （←7六）\n   9二歩目 7六獅子 （←7五）   (00:03/00:00:08)\n\
* a comment\n  10   5六歩兵 （←5五）   (00:01/00:00:05)\n  11   投了\nまで10手で後手の勝ち\n";
        let (jobs, errors) = parse(kif, "lishogi.kif", Variant::sho(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        moves,
                        players: names,
                        result,
                        ..
                    },
                ..
            }) => {
                assert_eq!(
                    moves.join(" "),
                    "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 5e5f"
                );
                assert_eq!(
                    (names.sente.as_str(), names.gote.as_str()),
                    ("alice", "bob")
                );
                // Sente, to move at ply 11, resigned.
                assert_eq!(*result, Some(GameResult::GoteWon));
            }
            other => panic!("{other:?}"),
        }
        // shogiops' notation (lishogi's board): `N手目`, with igui and jitto markers.
        let client = "   1手目   8八歩兵 （←8九）\n   2手目   5五歩兵 （←5四）\n\
   3手目   8九獅子 （←7十）\n   4手目   5四獅子 （←6三）\n   5手目   8七獅子 （←8九）\n\
   6手目   6五獅子 （←5四）\n   7手目   7六獅子 （←8七）\n   8手目   6六獅子 （←6五）\n\
   9手目一歩目 7五獅子 （←7六）\n   9手目二歩目 7六獅子(じっと) （←7五）\n\
  10手目   6七獅子 （←6六）\n  11手目一歩目 仝獅子 （←7六）\n\
  11手目二歩目 7六獅子（居食い） （←6七）\n";
        let (jobs, errors) = parse(client, "client.kif", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game: Game { moves, .. },
                ..
            }) => assert_eq!(
                moves.join(" "),
                "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f 6f6g 7f6g7f"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lishogi_json_export_gives_players_and_result() {
        // lishogi's game export (NDJSON): players under `players`, the result as `winner`.
        let json = "{\"id\":\"q7ZvsdUF\",\"rated\":false,\"variant\":\"chushogi\",\
\"status\":\"resign\",\"players\":{\"sente\":{\"user\":{\"name\":\"alice\"},\"rating\":1500},\
\"gote\":{\"aiLevel\":3}},\"winner\":\"gote\",\"moves\":\"7i7h 7d7e\"}\n\
{\"id\":\"d\",\"variant\":\"chushogi\",\"status\":\"draw\",\"moves\":\"7i7h\"}\n";
        let (jobs, errors) = parse(json, "export.ndjson", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        players: names,
                        result,
                        ..
                    },
                ..
            }) => {
                assert_eq!(
                    (names.sente.as_str(), names.gote.as_str()),
                    ("alice", "lishogi AI level 3")
                );
                assert_eq!(*result, Some(GameResult::GoteWon));
            }
            other => panic!("{other:?}"),
        }
        match &jobs[1] {
            Job::Game(GameJob {
                game: Game { result, .. },
                ..
            }) => assert_eq!(*result, Some(GameResult::Draw)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sho_kif_reads_back() {
        let moves = "7g7f 3c3d 8h2b+ 3a2b 2g2f 5c5d 2f2e 5b5c 2e2d 2c2d";
        let record = record(Variant::sho(), moves);
        let kif = to_kif(&record).unwrap();
        assert!(
            kif.contains("\n   3   ２二角成(88)\n") && kif.contains("同　銀(31)"),
            "{kif}"
        );
        let (jobs, errors) = parse(&kif, "sho.kif", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        moves: read,
                        variant,
                        ..
                    },
                ..
            }) => {
                assert_eq!(variant.name(), "shoshogi");
                assert_eq!(read.join(" "), moves);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn standard_kif_lines_a_bom_and_repeated_ids() {
        let kif = "\u{feff}# KIF\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n   3 投了\n";
        let (jobs, errors) = parse(kif, "std.kif", Variant::sho(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game: Game { moves, .. },
                ..
            }) => assert_eq!(moves.join(" "), "7g7f 3c3d"),
            other => panic!("{other:?}"),
        }
        let json = "\u{feff}{\"id\":\"1\",\"moves\":\"7i7h\"}\n{\"id\":\"1\",\"moves\":\"7i7h\"}\n{\"id\":\"1~2\",\"moves\":\"7i7h\"}\n";
        let (mut jobs, errors) = parse(json, "g.jsonl", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        let warnings = make_ids_unique(&mut jobs);
        let ids: Vec<&str> = jobs.iter().map(Job::id).collect();
        assert_eq!(ids, ["1", "1~2", "1~2~2"]);
        assert_eq!(warnings.len(), 2);
    }

    #[test]
    fn sfen_and_json_lines_with_bad_records() {
        let text = "startpos moves 7i7h\n# comment\nlfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1\nnonsense\nstartpos moves 7i7e\n";
        let (jobs, errors) = parse(text, "in.txt", Variant::chu(), false);
        assert_eq!(jobs.len(), 2);
        assert_eq!(errors.len(), 2);
        assert!(
            errors[0].starts_with("in.txt:4:") && errors[1].starts_with("in.txt:5:"),
            "{errors:?}"
        );
        let json = "{\"id\":\"g1\",\"variant\":\"chushogi\",\"initialSfen\":\"startpos\",\"moves\":\"7i7h 7d7e 7j7i6h\"}\n{\"variant\":\"chushogi\",\"moves\":\"7i7h 7i7h\"}\n{broken\n";
        let (jobs, errors) = parse(json, "g.jsonl", Variant::chu(), false);
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0].id(), "g1");
        assert_eq!(errors.len(), 2, "{errors:?}");
    }

    #[test]
    fn shift_jis_kif_is_read_and_a_bad_line_stops_only_itself() {
        // Issue 49, red team 8: a Shift_JIS KIF refused the whole batch with "stream did
        // not contain valid UTF-8" and no file or line.
        let kif = "先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1   8八歩兵 （←8九）\n   2   5五歩兵 （←5四）\n";
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(kif);
        assert!(!unmappable && std::str::from_utf8(&bytes).is_err());
        let (text, errors) = decode(&bytes, "sjis.kif");
        assert!(errors.is_empty(), "{errors:?}");
        let (jobs, errors) = parse(&text, "sjis.kif", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        match &jobs[0] {
            Job::Game(GameJob {
                game:
                    Game {
                        moves,
                        players: names,
                        ..
                    },
                ..
            }) => {
                assert_eq!(moves.join(" "), "8i8h 5d5e");
                assert_eq!(names.sente, "甲");
            }
            other => panic!("{other:?}"),
        }
        // Neither encoding: that line alone is named and skipped.
        let mut lines =
            b"{\"id\":\"a\",\"moves\":\"7i7h\"}\n{\"id\":\"b\",\"moves\":\"7i7h\xff\xff\"}\n"
                .to_vec();
        lines.extend_from_slice(b"{\"id\":\"c\",\"moves\":\"7i7h\"}\n");
        let (text, errors) = decode(&lines, "g.jsonl");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("g.jsonl:2: neither UTF-8 nor Shift_JIS"));
        let (jobs, errors) = parse(&text, "g.jsonl", Variant::chu(), false);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(jobs.iter().map(Job::id).collect::<Vec<_>>(), ["a", "c"]);
    }
}
