//! KIF, as lishogi writes and reads it. Written: lishogi's server layout (`%4d` move
//! numbers, then three spaces and the move; chu's two-kanji piece names, Arabic file and
//! kanji rank, the origin as `（←7九）`, `仝` for the last move's square, a lion double move
//! on two lines `一歩目` / `二歩目` right after the number), standard KIF for sho, a board
//! diagram for a set-up position, and the result line. Read: the same, lishogi's board's
//! notation (shogiops: `N手目`, `（居食い）`, `(じっと)`), time fields, comments, termination
//! lines and header tags.

//!
//! The parts: [`notation`] (moves and squares, both ways), [`board`] (diagrams), `read`
//! (a file into a [`super::Game`]) and `write` (a game into a file).

pub mod board;
pub mod notation;
mod read;
mod write;

pub use board::kif_board;
pub use notation::{kanji_number, kif_line, kif_line_marked};
pub use read::read;
pub use write::{game_to_kif, to_kif};

#[cfg(test)]
mod tests {
    use super::read::kif_result;
    use super::*;
    use crate::position::Position;
    use crate::records::{Game, GameRecord, GameResult, KifError, KifProblem, Players};
    use crate::variant::Variant;

    #[test]
    fn results_stated_by_kif_endings() {
        use crate::core::Color::{Gote, Sente};
        assert_eq!(kif_result("  11   投了", Sente), Some(GameResult::GoteWon));
        assert_eq!(kif_result("  12   投了", Gote), Some(GameResult::SenteWon));
        assert_eq!(
            kif_result("  40   切れ負け", Gote),
            Some(GameResult::SenteWon)
        );
        assert_eq!(
            kif_result("  40   反則勝ち", Gote),
            Some(GameResult::GoteWon)
        );
        assert_eq!(kif_result("  40   千日手", Gote), Some(GameResult::Draw));
        assert_eq!(
            kif_result("まで179手で先手の勝ち", Gote),
            Some(GameResult::SenteWon)
        );
        assert_eq!(kif_result("まで80手で千日手", Gote), Some(GameResult::Draw));
        assert_eq!(kif_result("   1   7八歩兵 （←7九）", Sente), None);
        assert_eq!(kif_result("* 投了", Sente), None);
    }

    /// The first moves of a lishogi chu KIF (8八歩兵, 5五歩兵, 8九獅子, 5四獅子).
    const CHU_MOVES: &str = "手数----指手---------消費時間--\n   1   8八歩兵 （←8九）\n\
   2   5五歩兵 （←5四）\n   3   8九獅子 （←7十）\n   4   5四獅子 （←6三）\n";

    fn moves_of(text: &str) -> Result<String, String> {
        read(text, "t.kif", None)
            .map(|g| g.moves.join(" "))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_variation_is_not_the_main_line() {
        // Issue 49, red team 4: lishogi writes side lines after the main line as
        // `変化：3手`; they were appended to the game.
        let text = format!("{CHU_MOVES}まで4手で中断\n\n変化：3手\n   3   7八歩兵 （←7九）\n   4   5六歩兵 （←5五）\n");
        assert_eq!(moves_of(&text).unwrap(), "8i8h 5d5e 7j8i 6c5d");
    }

    #[test]
    fn moves_after_the_end_are_refused() {
        // Red team 5: moves after `投了` or `まで..` were analysed.
        let text = format!("{CHU_MOVES}   5   投了\n   5   7八歩兵 （←7九）\n");
        let e = moves_of(&text).unwrap_err();
        assert!(
            e.contains("t.kif:7: a move after the game's end (line 6)"),
            "{e}"
        );
        assert_eq!(
            read(&text, "t.kif", None).unwrap_err(),
            KifError {
                file: "t.kif".into(),
                line: Some(7),
                problem: KifProblem::MoveAfterEndLine(6)
            }
        );
        let text = format!("{CHU_MOVES}まで4手で後手の勝ち\n   5   7八歩兵 （←7九）\n");
        assert!(moves_of(&text)
            .unwrap_err()
            .contains("a move after the game's end"));
        // A move after the royal's capture, from a set-up position: the game ended there.
        let setup = "後手：b\n手数----指手---------消費時間--\n";
        let diagram = kif_board(
            &Position::from_sfen(
                Variant::chu(),
                "p11/12/12/12/12/12/12/6k5/12/6N5/12/6K5 b - 1",
            )
            .unwrap(),
        );
        let captured =
            format!("{diagram}{setup}   1   6八獅子 （←6十）\n   2   12二歩兵 （←12一）\n");
        let e = moves_of(&captured).unwrap_err();
        assert!(
            e.contains(":19: a move after the game's end (royal captured after move 1)"),
            "{e}"
        );
    }

    #[test]
    fn a_comment_that_mentions_a_move_number_is_no_move() {
        // Red team 6: any line with 手目 was read as a move.
        let text = format!(
            "{CHU_MOVES}*5手目は悪手\n*12手目   5五歩兵 （←5四） なら互角\n   5   7八歩兵 （←7九）\n"
        );
        assert_eq!(moves_of(&text).unwrap(), "8i8h 5d5e 7j8i 6c5d 7i7h");
    }

    #[test]
    fn the_variant_comes_from_the_moves_or_the_user_not_from_any_text() {
        // Red team 7: 十一 or 象 anywhere (an event name) chose the variant, over the
        // user's --variant too.
        let sho = "棋戦：象棋 十一月の会\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
        assert_eq!(read(sho, "s.kif", None).unwrap().variant.name(), "shoshogi");
        let chu = format!("棋戦：象 shoshogi\n{CHU_MOVES}");
        assert_eq!(
            read(&chu, "c.kif", None).unwrap().variant.name(),
            "chushogi"
        );
        let named = read(&chu, "c.kif", Some(Variant::sho()));
        assert!(named.is_err(), "the named variant is kept: {named:?}");
    }

    #[test]
    fn move_numbers_out_of_order_and_a_cut_lion_move_are_named() {
        // Red team 13: duplicate or out-of-order numbers passed; a file cut after 一歩目
        // dropped the move without a word.
        let twice = CHU_MOVES.replace("   3   8九獅子", "   2   8九獅子");
        let e = moves_of(&twice).unwrap_err();
        assert!(
            e.contains("t.kif:4: move number 2 where 3 was expected"),
            "{e}"
        );
        let skipped = CHU_MOVES.replace("   3   8九獅子", "   5   8九獅子");
        assert!(moves_of(&skipped)
            .unwrap_err()
            .contains("move number 5 where 3"));
        let cut = format!("{CHU_MOVES}   5一歩目 7十獅子 （←8九）\n");
        let e = moves_of(&cut).unwrap_err();
        assert!(
            e.contains("t.kif:6: a lion's first step (一歩目) without its second"),
            "{e}"
        );
        let whole = format!("{cut}   5二歩目 8九獅子(じっと) （←7十）\n");
        assert_eq!(moves_of(&whole).unwrap(), "8i8h 5d5e 7j8i 6c5d 8i7j8i");
    }

    #[test]
    fn move_times_are_written_and_read_back_as_lishogi_writes_them() {
        let mut record = GameRecord {
            number: 1,
            game: Game {
                players: Players {
                    sente: "a".into(),
                    gote: "b".into(),
                },
                result: Some(GameResult::Unfinished),
                times_ms: (vec![1_200, 61_000, 0, 2_000, 3_000, 1_000, 500, 4_000, 3_725_000])
                    .into_iter()
                    .map(Some)
                    .collect(),
                ..Game::new(
                    Variant::chu(),
                    Variant::chu().spec.start_sfen,
                    "8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f 7f7e7f"
                        .split_whitespace()
                        .map(String::from)
                        .collect(),
                )
            },
            reason: "test".into(),
            forfeit: false,
            opening: 0,
            date: "2026-12-04T00:00:00Z".into(),
        };
        let kif = to_kif(&record).unwrap();
        assert!(
            kif.contains("   1   8八歩兵 （←8九）   (00:01/00:00:01)\n"),
            "{kif}"
        );
        assert!(
            kif.contains("   2   5五歩兵 （←5四）   (01:01/00:01:01)\n"),
            "{kif}"
        );
        assert!(
            kif.contains("二歩目 7六獅子 （←7五）   (62:05/01:02:09)\n"),
            "{kif}"
        );
        let game = read(&kif, "t.kif", None).unwrap();
        let seconds: Vec<Option<u64>> = game
            .times_ms
            .iter()
            .map(|t| t.map(|ms| ms / 1000))
            .collect();
        assert_eq!(seconds, [1, 61, 0, 2, 3, 1, 0, 4, 3725].map(Some).to_vec());
        record.game.times_ms.clear();
        assert!(!to_kif(&record).unwrap().contains("(00:"));
    }
}
