//! Reading a KIF file into a [`Game`]: the header tags, a board diagram, the moves in
//! chu's or sho's notation (the variant found from them), time fields, comments, and the
//! line that ends the game.

use super::super::Game;
use super::super::{GameResult, KifError, KifProblem};
use super::board::{kif_board_sfen, variant_of_diagram};
use super::notation::read_move;
use crate::core::{Color, Square};
use crate::position::Position;
use crate::variant::{KifStyle, Variant};

/// The move part of a KIF move line, without the trailing time field: after the move
/// number of a KIF line as lishogi's server writes its downloads and standard KIF does
/// (`   1   7八歩兵 （←7九）   (00:01/00:00:01)`, `   1 ７六歩(77)`), or after `N手目`
/// (shogiops' notation, which lishogi's board shows), where a lion's double move takes two
/// lines with the step right after the number (`   9一歩目 8五獅子 （←8六）`, `   9二歩目
/// 9四獅子 （←8五）`). `None` for any other line: a line must begin with its move number
/// (a comment that mentions `5手目` is no move).
fn kif_move_text(line: &str) -> Option<&str> {
    let after = after_move_number(line.trim_start())?;
    let after = after.strip_prefix("手目").unwrap_or(after);
    let step = after.starts_with("一歩目") || after.starts_with("二歩目");
    if !(step || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let rest = after.trim();
    // A time field `( 0:00/00:00:00)` closes standard KIF lines.
    let rest = match rest.rfind('(') {
        Some(open) if rest[open..].contains(':') => rest[..open].trim_end(),
        _ => rest,
    };
    // The game's end written as a move (resignation, repetition, ...) is no move.
    (!KIF_ENDINGS.iter().any(|w| rest.starts_with(w))).then_some(rest)
}

/// A move line's thinking time, ms: the first part of its time field (`( 0:12/00:03:40)`:
/// 12 s; `(1:02:03/...)` as hours too).
fn move_time_ms(line: &str) -> Option<u64> {
    let open = line.rfind('(')?;
    let field = line[open + 1..].trim_end_matches(')').trim();
    let (this_move, _) = field.split_once('/')?;
    let mut ms = 0u64;
    for part in this_move.trim().split(':') {
        ms = ms
            .checked_mul(60)?
            .checked_add(part.trim().parse::<u64>().ok()?)?;
    }
    ms.checked_mul(1000)
}

/// The move number at the start of a KIF move line (`  12   7八歩兵`, `12手目`).
fn move_number(line: &str) -> Option<usize> {
    let line = line.trim_start();
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    line[..digits].parse().ok()
}

/// Whether a KIF line is a comment (`*` a move's or the game's comment, `#` a file
/// comment, `&` an annotation): never a move, an ending or a header tag.
fn is_comment(line: &str) -> bool {
    line.starts_with(['*', '#', '&'])
}

/// What follows the move number at the start of a KIF line; `None` without one.
fn after_move_number(line: &str) -> Option<&str> {
    let after = line.trim_start_matches(|c: char| c.is_ascii_digit());
    (after.len() < line.len()).then_some(after)
}

/// The variant a KIF's moves are written for: the first of [`Variant::all`] whose
/// [`KifStyle`] the move lines are written in ([`kif_style_of_notation`]).
fn variant_of_notation(text: &str) -> Option<&'static Variant> {
    let style = kif_style_of_notation(text)?;
    Variant::all().into_iter().find(|v| v.spec.kif == style)
}

/// The notation a KIF's moves are written in: chu's names the origin as `（←7九）` and
/// writes a lion's double move in steps; standard shogi's (sho's) as `(77)`. Only the move
/// lines are read (a word in an event name or a comment says nothing).
fn kif_style_of_notation(text: &str) -> Option<KifStyle> {
    for line in text.lines().map(str::trim).filter(|l| !is_comment(l)) {
        let Some(rest) = kif_move_text(line) else {
            continue;
        };
        if rest.contains('←') || rest.starts_with("一歩目") || rest.starts_with("二歩目") {
            return Some(KifStyle::Chu);
        }
        if let Some(open) = rest.rfind('(') {
            let origin = rest[open + 1..].trim_end_matches(')');
            if origin.len() == 2 && origin.bytes().all(|b| b.is_ascii_digit()) {
                return Some(KifStyle::Shogi);
            }
        }
    }
    None
}

/// The result a KIF line states, if it states one, with `to_move` the side to move after
/// the moves read so far: an ending written in place of a move (`  11   投了`: the side to
/// move resigned; `反則勝ち`: the side to move won, the other broke a rule; `千日手`,
/// `持将棋`: a draw), or the summary line (`まで10手で後手の勝ち`, `まで99手で千日手`).
pub(super) fn kif_result(line: &str, to_move: Color) -> Option<GameResult> {
    let won = |c| GameResult::won_by(Some(c));
    let line = line.trim();
    if line.starts_with("まで") {
        return if line.contains("先手の勝ち") || line.contains("下手の勝ち") {
            Some(GameResult::SenteWon)
        } else if line.contains("後手の勝ち") || line.contains("上手の勝ち") {
            Some(GameResult::GoteWon)
        } else if line.contains("千日手") || line.contains("持将棋") || line.contains("引き分け")
        {
            Some(GameResult::Draw)
        } else {
            None
        };
    }
    let word = after_move_number(line)?
        .trim_start()
        .trim_start_matches("手目")
        .trim();
    let loser_moves = ["投了", "詰み", "切れ負け", "反則負け"];
    if loser_moves.iter().any(|w| word.starts_with(w)) {
        Some(won(to_move.flip()))
    } else if word.starts_with("反則勝ち") || word.starts_with("入玉勝ち") {
        Some(won(to_move))
    } else if word.starts_with("千日手") || word.starts_with("持将棋") {
        Some(GameResult::Draw)
    } else {
        None
    }
}

/// The header tags of a game's KIF that its annotated KIF keeps (the players are kept
/// apart; a board diagram's lines are no tags).
const KIF_HEADER_TAGS: &[&str] = &["開始日時", "終了日時", "棋戦", "場所", "持ち時間", "手合割"];

/// The words a KIF writes in place of a move when the game ends.
const KIF_ENDINGS: &[&str] = &[
    "投了",
    "中断",
    "千日手",
    "詰み",
    "持将棋",
    "切れ負け",
    "反則",
    "入玉",
    "不戦",
    "封じ手",
];

/// Reads one game from a KIF file (`file` names it in errors): lishogi's server layout and
/// its board's (shogiops') notation, standard KIF for sho, a set-up position from a board
/// diagram. `variant`: the variant the user named, which the file cannot override; `None`:
/// the variant its moves are written for (chu where they say nothing).
///
/// Only the main line is read: it ends at the game's ending (`投了`, `まで11手で先手の勝ち`)
/// or at the first variation (`変化：3手`). The error names the file and line and what is
/// wrong: a move number out of order, a move after the game's end, a lion move cut after
/// its first step, a move that cannot be read or is not legal.
pub fn read(text: &str, file: &str, variant: Option<&'static Variant>) -> Result<Game, KifError> {
    let variant = variant
        .or_else(|| variant_of_notation(text))
        .or_else(|| variant_of_diagram(text))
        .unwrap_or(Variant::chu());
    let mut reader = KifReader::new(file, variant);
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if is_comment(line) {
            continue;
        }
        // A variation (lishogi writes its side lines after the main line): not this game.
        if line.starts_with("変化：") || line.starts_with("変化:") {
            break;
        }
        reader.line(line, n + 1)?;
    }
    reader.finish()
}

/// A KIF game as it is read, line after line.
struct KifReader<'a> {
    file: &'a str,
    /// The game so far (its variant is the one read in).
    game: Game,
    /// The position after the moves read.
    pos: Position,
    /// The last move's destination (a move to `同` it).
    last: Option<Square>,
    /// A lion's first step waiting for its second, with its line.
    first_step: Option<(Square, usize)>,
    /// The line that ended the game (an ending word or the summary line), if one has.
    ended_at: Option<usize>,
    /// Before the moves' heading (`手数----`).
    in_header: bool,
    /// A set-up position: the diagram's rows (with their line numbers) and whose turn it is.
    board_rows: Vec<(usize, String)>,
    gote_to_move: bool,
    /// The diagram was read into the start position.
    set_up: bool,
}

impl<'a> KifReader<'a> {
    fn new(file: &'a str, variant: &'static Variant) -> KifReader<'a> {
        KifReader {
            file,
            game: Game::new(variant, variant.spec.start_sfen, Vec::new()),
            pos: Position::startpos(variant),
            last: None,
            first_step: None,
            ended_at: None,
            in_header: true,
            board_rows: Vec::new(),
            gote_to_move: false,
            set_up: false,
        }
    }

    /// Takes line `n` (trimmed, no comment).
    fn line(&mut self, line: &str, n: usize) -> Result<(), KifError> {
        if line.starts_with("手数----") {
            self.in_header = false;
        }
        if let Some(stated) = kif_result(line, self.pos.side_to_move()) {
            self.game.result = Some(stated);
            self.ended_at.get_or_insert(n);
            return Ok(());
        }
        if self.header_line(line, n) {
            return Ok(());
        }
        if !self.board_rows.is_empty()
            && !self.set_up
            && (!self.in_header || kif_move_text(line).is_some())
        {
            self.set_up_board()?;
        }
        match kif_move_text(line) {
            Some(rest) => self.move_line(line, rest, n),
            None => Ok(()),
        }
    }

    /// The header's tags, the players, the diagram's rows and whose turn it is; true for a
    /// line that is no more than that (a diagram row).
    fn header_line(&mut self, line: &str, n: usize) -> bool {
        if self.in_header {
            if let Some((key, value)) = line.split_once('：') {
                if KIF_HEADER_TAGS.contains(&key) {
                    self.game.tags.push((key.to_string(), value.to_string()));
                }
            }
        }
        if let Some(name) = line.strip_prefix("先手：") {
            self.game.players.sente = name.to_string();
        } else if let Some(name) = line.strip_prefix("後手：") {
            self.game.players.gote = name.to_string();
        } else if line.starts_with('|') && self.in_header {
            self.board_rows.push((n, line.to_string()));
            return true;
        } else if line.starts_with("後手番") || line.starts_with("上手番") {
            self.gote_to_move = true;
        }
        false
    }

    /// The board diagram read into the start position.
    fn set_up_board(&mut self) -> Result<(), KifError> {
        let sfen = kif_board_sfen(self.game.variant, &self.board_rows, self.gote_to_move)
            .map_err(|(line, problem)| error(self.file, Some(line), problem))?;
        self.pos = Position::from_sfen(self.game.variant, &sfen).map_err(|e| {
            let line = Some(self.board_rows[0].0);
            error(self.file, line, KifProblem::IllegalDiagram(e))
        })?;
        self.game.start_sfen = sfen;
        self.set_up = true;
        Ok(())
    }

    /// A move line (`rest`: after its number), checked and played.
    fn move_line(&mut self, line: &str, rest: &str, n: usize) -> Result<(), KifError> {
        let at = |problem| error(self.file, Some(n), problem);
        if let Some(end) = self.ended_at {
            return Err(at(KifProblem::MoveAfterEndLine(end)));
        }
        let expected = self.game.moves.len() + 1;
        if move_number(line) != Some(expected) {
            return Err(at(KifProblem::MoveNumber {
                found: move_number(line).map_or("?".into(), |m| m.to_string()),
                expected,
            }));
        }
        if self.first_step.is_some() && !rest.starts_with("二歩目") {
            return Err(at(KifProblem::FirstStepAlone));
        }
        let Some(mv) =
            read_move(self.game.variant, rest, self.last, &mut self.first_step, n).map_err(at)?
        else {
            return Ok(());
        };
        if let Some(over) = self.pos.outcome() {
            return Err(at(KifProblem::MoveAfterOutcome {
                reason: over.reason.describe().to_string(),
                moves: self.game.moves.len(),
            }));
        }
        let text = crate::position::notation::move_to_usi(self.game.variant, mv);
        let legal = self
            .pos
            .parse_usi_path(&text)
            .map_err(|e| at(KifProblem::IllegalMove(e)))?;
        self.game.moves.push(text);
        self.game.times_ms.push(move_time_ms(line));
        self.last = Some(legal.to());
        self.pos.make_move(legal);
        Ok(())
    }

    /// The game read, or why it cannot be one.
    fn finish(self) -> Result<Game, KifError> {
        if let Some((_, line)) = self.first_step {
            return Err(error(self.file, Some(line), KifProblem::FirstStepAtEnd));
        }
        if self.game.moves.is_empty() {
            return Err(error(self.file, None, KifProblem::NoMoves));
        }
        Ok(self.game)
    }
}

/// A [`KifError`] of `file` at `line`.
fn error(file: &str, line: Option<usize>, problem: KifProblem) -> KifError {
    KifError {
        file: file.to_string(),
        line,
        problem,
    }
}
