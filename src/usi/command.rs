//! USI commands from the GUI, parsed into types. Parsing never panics: a line that does not
//! parse gives an error message for an `info string`, and the engine's state is untouched.
//!
//! Moves and SFENs stay text here; the session checks them against its position. Numbers
//! may be written as decimals (`go movetime 1000.0`, as Lishogi-Bot writes them).

use crate::text::{parse_number, truncate};

/// Time and search limits of a `go` command. Times in milliseconds (negative values, which
/// Lishogi-Bot's clock arithmetic can produce, count as 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// Sente's main time.
    pub btime: Option<u64>,
    /// Gote's main time.
    pub wtime: Option<u64>,
    /// Sente's increment.
    pub binc: Option<u64>,
    /// Gote's increment.
    pub winc: Option<u64>,
    /// Byoyomi for both sides.
    pub byoyomi: Option<u64>,
    /// Sente's byoyomi (a per-side extension some GUIs send).
    pub bbyoyomi: Option<u64>,
    /// Gote's byoyomi.
    pub wbyoyomi: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// `go mate`: `Some(None)` for `mate infinite`, `Some(Some(ms))` for a time.
    pub mate: Option<Option<u64>>,
    /// `go mate` came without a time or `infinite` (`go mate x`, `go mate`): nothing is
    /// searched.
    pub mate_malformed: bool,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves (USI text).
    pub searchmoves: Vec<String>,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `usi`
    Usi,
    /// `isready`
    IsReady,
    /// `setoption name N [value V]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// `usinewgame`
    UsiNewGame,
    /// `position startpos|sfen ... [moves ...]`
    Position {
        /// `None` for `startpos`.
        sfen: Option<String>,
        /// The moves after `moves`.
        moves: Vec<String>,
    },
    /// `go ...`, with warnings about fields that were ignored (the search still runs: one
    /// `bestmove` per `go`).
    Go(GoParams, Vec<String>),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `gameover win|lose|draw`
    GameOver(String),
    /// `quit`
    Quit,
    /// `d`: show the position.
    Display,
    /// `perft N`
    Perft(u32),
    /// `bench [depth]`
    Bench(Option<i32>),
    /// `eval`: the static evaluation, term by term.
    Eval,
    /// `moves`: the legal moves.
    Moves,
    /// `pieces`: the variant's piece kinds, each as SFEN letters and KIF name.
    Pieces,
    /// `kif`: the game so far (from the position's start) as a KIF file, a line at a time.
    Kif,
    /// `kifread TEXT`: a KIF file (percent-encoded, so that it fits one line) read into a
    /// game: its variant, start and moves.
    KifRead(String),
    /// `review [nodes N | depth D | movetime MS] [kif TEXT]`: the game of the position set
    /// (or the KIF file TEXT, percent-encoded like `kifread`'s) reviewed as `shishi
    /// analyse` reviews it (a page's review).
    Review(ReviewParams),
    /// A blank line.
    Empty,
}

/// The fields of `review`: at most one limit (none: `shishi analyse`'s default), and the
/// KIF file to review instead of the position's game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReviewParams {
    /// Nodes per position.
    pub nodes: Option<u64>,
    /// Depth per position.
    pub depth: Option<i32>,
    /// Milliseconds per position.
    pub movetime: Option<u64>,
    /// A KIF file's text (decoded).
    pub kif: Option<String>,
}

/// Why a line is no command: each says what was expected (the controller answers it as an
/// `info string`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A first word that is no command.
    #[error("unknown command '{}'", truncate(.0))]
    Unknown(String),
    /// A command without the arguments it needs: its usage.
    #[error("usage: {0}")]
    Usage(&'static str),
    /// `setoption name` without a name.
    #[error("setoption: missing option name")]
    NoOptionName,
    /// Words after `position startpos` that are not its moves.
    #[error("position: unexpected '{}' after startpos", truncate(.0))]
    AfterStartpos(String),
    /// `position sfen` without the SFEN.
    #[error("position: 'sfen' needs an SFEN")]
    NoSfen,
    /// A `kifread` text with a broken `%` escape.
    #[error("kifread: a broken %-escape")]
    BrokenEscape,
    /// A `kifread` text whose bytes are not UTF-8.
    #[error("kifread: the text is not UTF-8")]
    NotUtf8,
}

/// Text sent percent-encoded (`%E5%85%88` ..., as JavaScript's `encodeURIComponent`
/// writes it), decoded; an error for a broken escape or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Result<String, CommandError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(CommandError::BrokenEscape)?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| CommandError::NotUtf8)
}

const GO_KEYWORDS: &[&str] = &[
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "bbyoyomi",
    "wbyoyomi",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Parses one line (a blank line is `Command::Empty`).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else {
        return Ok(Command::Empty);
    };
    match head {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "usinewgame" => Ok(Command::UsiNewGame),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "gameover" => Ok(Command::GameOver(rest.first().unwrap_or(&"").to_string())),
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => {
            let (go, warnings) = parse_go(rest);
            Ok(Command::Go(go, warnings))
        }
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "moves" => Ok(Command::Moves),
        "kif" => Ok(Command::Kif),
        "pieces" => Ok(Command::Pieces),
        "kifread" => percent_decode(rest.first().unwrap_or(&"")).map(Command::KifRead),
        "review" => parse_review(rest).map(Command::Review),
        "perft" => match rest.first().and_then(|d| parse_number(d)) {
            Some(d) if (0..=12).contains(&d) => Ok(Command::Perft(d as u32)),
            _ => Err(CommandError::Usage("perft DEPTH (0 to 12)")),
        },
        "bench" => match rest.first().map(|d| parse_number(d)) {
            None => Ok(Command::Bench(None)),
            Some(Some(d)) if (1..=64).contains(&d) => Ok(Command::Bench(Some(d as i32))),
            _ => Err(CommandError::Usage("bench [DEPTH (1 to 64)]")),
        },
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

const REVIEW_USAGE: &str =
    "review [nodes N (1 or more) | depth D (1 to 120) | movetime MS (1 or more)] [kif TEXT]";

/// Parses the fields of `review`: anything else, a second limit or a bad number is an
/// error (a review takes minutes: it does not start on a misread command).
fn parse_review(rest: &[&str]) -> Result<ReviewParams, CommandError> {
    let mut review = ReviewParams::default();
    let mut fields = rest.iter();
    while let Some(&field) = fields.next() {
        let value = fields
            .next()
            .copied()
            .ok_or(CommandError::Usage(REVIEW_USAGE))?;
        let number = parse_number(value).filter(|&n| n >= 1);
        let limits = [
            review.nodes.is_some(),
            review.depth.is_some(),
            review.movetime.is_some(),
        ];
        let limit_given = limits.contains(&true);
        match (field, number) {
            ("nodes", Some(n)) if !limit_given => review.nodes = Some(n as u64),
            ("depth", Some(d)) if !limit_given && d <= 120 => review.depth = Some(d as i32),
            ("movetime", Some(ms)) if !limit_given => review.movetime = Some(ms as u64),
            ("kif", _) if review.kif.is_none() => review.kif = Some(percent_decode(value)?),
            _ => return Err(CommandError::Usage(REVIEW_USAGE)),
        }
    }
    Ok(review)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::Usage("setoption name NAME [value VALUE]"));
    }
    let value_at = rest.iter().position(|&t| t == "value");
    let name_tokens = &rest[1..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err(CommandError::NoOptionName);
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let moves = moves_at.map_or(Vec::new(), |i| {
        rest[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let setup = &rest[..moves_at.unwrap_or(rest.len())];
    match setup.split_first() {
        Some((&"startpos", [])) => Ok(Command::Position { sfen: None, moves }),
        Some((&"startpos", extra)) => Err(CommandError::AfterStartpos(extra.join(" "))),
        Some((&"sfen", fields)) if !fields.is_empty() => Ok(Command::Position {
            sfen: Some(fields.join(" ")),
            moves,
        }),
        Some((&"sfen", _)) => Err(CommandError::NoSfen),
        _ => Err(CommandError::Usage(
            "position startpos|sfen SFEN [moves M1 M2 ...]",
        )),
    }
}

/// Parses the fields of `go`; malformed or unknown fields are skipped with a warning.
pub fn parse_go(rest: &[&str]) -> (GoParams, Vec<String>) {
    let mut go = GoParams::default();
    let mut warnings = Vec::new();
    let mut i = 0;
    // A number field: a missing or malformed value is skipped with a warning.
    fn number(rest: &[&str], i: usize, warnings: &mut Vec<String>) -> Option<i64> {
        match rest.get(i + 1).and_then(|v| parse_number(v)) {
            Some(n) => Some(n),
            _ => {
                warnings.push(format!("go: '{}' needs a number, ignored", rest[i]));
                None
            }
        }
    }
    while i < rest.len() {
        let key = rest[i];
        let ms = |n: Option<i64>| n.map(|v| v.max(0) as u64);
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "mate" => {
                if rest.get(i + 1) == Some(&"infinite") {
                    go.mate = Some(None);
                    i += 1;
                } else if let Some(n) = rest.get(i + 1).and_then(|v| parse_number(v)) {
                    go.mate = Some(Some(n.max(0) as u64));
                    i += 1;
                } else {
                    // Without its time, `go mate` would have no limit at all: refused.
                    go.mate_malformed = true;
                    if rest.get(i + 1).is_some_and(|t| !GO_KEYWORDS.contains(t)) {
                        i += 1;
                    }
                }
            }
            "searchmoves" => {
                let mut j = i + 1;
                while j < rest.len() && !GO_KEYWORDS.contains(&rest[j]) {
                    go.searchmoves.push(rest[j].to_string());
                    j += 1;
                }
                i = j;
                continue;
            }
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "bbyoyomi" | "wbyoyomi"
            | "movetime" | "nodes" | "depth" | "movestogo" => {
                let n = number(rest, i, &mut warnings);
                // The value is consumed even when malformed (`btime abc`), unless it is the
                // next keyword.
                if n.is_some() || rest.get(i + 1).is_some_and(|t| !GO_KEYWORDS.contains(t)) {
                    i += 1;
                }
                match key {
                    "btime" => go.btime = ms(n).or(go.btime),
                    "wtime" => go.wtime = ms(n).or(go.wtime),
                    "binc" => go.binc = ms(n).or(go.binc),
                    "winc" => go.winc = ms(n).or(go.winc),
                    "byoyomi" => go.byoyomi = ms(n).or(go.byoyomi),
                    "bbyoyomi" => go.bbyoyomi = ms(n).or(go.bbyoyomi),
                    "wbyoyomi" => go.wbyoyomi = ms(n).or(go.wbyoyomi),
                    "movetime" => go.movetime = ms(n).or(go.movetime),
                    "nodes" => go.nodes = ms(n).or(go.nodes),
                    "depth" => go.depth = n.map(|d| d.clamp(1, 120) as i32).or(go.depth),
                    _ => match n {
                        // `movestogo 0` (or less) is no count at all: the clock alone rules.
                        Some(m) if m <= 0 => warnings.push(format!(
                            "go: 'movestogo {m}' is not a number of moves; ignored"
                        )),
                        _ => go.movestogo = n.map(|m| m.clamp(1, 1000) as u32).or(go.movestogo),
                    },
                }
            }
            other => warnings.push(format!("go: unknown field '{}' ignored", truncate(other))),
        }
        i += 1;
    }
    (go, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_real_clients_send() {
        assert_eq!(parse("usi"), Ok(Command::Usi));
        assert_eq!(parse("  \t "), Ok(Command::Empty));
        assert_eq!(
            parse("setoption name USI_Variant value chushogi"),
            Ok(Command::SetOption {
                name: "USI_Variant".into(),
                value: Some("chushogi".into())
            })
        );
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("position startpos moves "),
            Ok(Command::Position {
                sfen: None,
                moves: vec![]
            })
        );
        assert_eq!(
            parse("position sfen 9/9/9/9/9/9/9/9/9 b - 1 moves 7g7f"),
            Ok(Command::Position {
                sfen: Some("9/9/9/9/9/9/9/9/9 b - 1".into()),
                moves: vec!["7g7f".into()]
            })
        );
        let go_of = |line: &str| parse_go(&line.split_whitespace().collect::<Vec<_>>());
        let (go, warnings) = go_of("btime 590000 wtime 600000 byoyomi 10000 binc 0 winc 0");
        assert!(warnings.is_empty());
        assert_eq!(
            (go.btime, go.wtime, go.byoyomi),
            (Some(590000), Some(600000), Some(10000))
        );
        let (go, _) = go_of("movetime 1000 depth 20 nodes 1250000");
        assert_eq!(
            (go.movetime, go.depth, go.nodes),
            (Some(1000), Some(20), Some(1250000))
        );
        let (go, _) = go_of("ponder btime -500 wtime 1000");
        assert!(go.ponder && go.btime == Some(0));
        let (go, _) = go_of("mate infinite");
        assert_eq!(go.mate, Some(None));
        // Lishogi-Bot writes configured times as decimals.
        let (go, warnings) = go_of("movetime 1000.0");
        assert_eq!((go.movetime, warnings.len()), (Some(1000), 0));
        let (go, warnings) = go_of("btime 1000 movestogo 0");
        assert_eq!(
            (go.btime, go.movestogo, warnings.len()),
            (Some(1000), None, 1)
        );
    }

    #[test]
    fn bad_fields_are_reported_and_skipped() {
        let (go, warnings) = parse_go(
            &"btime abc wtime 1000 frobnicate depth"
                .split_whitespace()
                .collect::<Vec<_>>(),
        );
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, None);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(parse("position").is_err());
        assert!(parse("position sfen").is_err());
        assert!(parse("setoption USI_Hash 5").is_err());
        assert_eq!(
            parse("xyzzy").unwrap_err(),
            CommandError::Unknown("xyzzy".into())
        );
        assert_eq!(
            parse("xyzzy").unwrap_err().to_string(),
            "unknown command 'xyzzy'"
        );
        assert!(parse("perft x").is_err());
    }
}
