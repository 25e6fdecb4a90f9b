//! Texel tuning: which positions of a game become training lines, how a training file is
//! read (and refused; a target may be any expected score from 0 to 1), and that a fit
//! lowers the error while keeping the fixed entries.

use shishi::eval::params::Resolved;
use shishi::eval::Evaluator;
use shishi::records::{Game, GameRecord, GameResult, Players};
use shishi::tune::{self, Dataset, ExtractOptions, LineProblem, TuneOptions};
use shishi::variant::Variant;

fn record(moves: &str, comments: &[&str], result: &str, forfeit: bool) -> GameRecord {
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    GameRecord {
        number: 7,
        game: Game {
            players: Players {
                sente: "a".into(),
                gote: "b".into(),
            },
            result: Some(GameResult::parse(result).expect("a result")),
            times_ms: vec![Some(0); moves.len()],
            comments: comments.iter().map(|c| c.to_string()).collect(),
            ..Game::new(Variant::chu(), Variant::chu().spec.start_sfen, moves)
        },
        reason: "test".into(),
        forfeit,
        opening: 0,
        date: String::new(),
    }
}

const ALL: ExtractOptions = ExtractOptions {
    skip_plies: 0,
    every: 1,
};

#[test]
fn quiet_positions_of_a_game_become_training_lines() {
    // Four quiet pawn moves, then the first book ply is left out.
    let game = record("7i7h 6d6e 5i5h 7d7e", &["book", "", "", ""], "1-0", false);
    let lines = tune::extract(&game, &ALL).unwrap();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("1 chushogi "), "{}", lines[0]);
    assert!(lines[0].ends_with(" w - 2"), "{}", lines[0]);
    // The same game skipping its first three plies, and every other ply.
    let late = ExtractOptions {
        skip_plies: 3,
        every: 1,
    };
    assert_eq!(tune::extract(&game, &late).unwrap().len(), 1);
    let sparse = ExtractOptions {
        skip_plies: 0,
        every: 2,
    };
    assert_eq!(tune::extract(&game, &sparse).unwrap().len(), 1);
    // Results from sente's side.
    let lost = record("7i7h 6d6e", &[], "0-1", false);
    assert!(tune::extract(&lost, &ALL).unwrap()[0].starts_with("0 "));
    let drawn = record("7i7h 6d6e", &[], "1/2-1/2", false);
    assert!(tune::extract(&drawn, &ALL).unwrap()[0].starts_with("0.5 "));
    // A forfeit says nothing about the board; a broken record is an error naming the ply.
    assert!(tune::extract(&record("7i7h", &[], "1-0", true), &ALL)
        .unwrap()
        .is_empty());
    // Nor does a draw by the match runner's ply limit (a draw by the rules does: above).
    let mut at_limit = record("7i7h 6d6e", &[], "1/2-1/2", false);
    at_limit.reason = "max plies (1000)".into();
    assert!(tune::extract(&at_limit, &ALL).unwrap().is_empty());
    let err = tune::extract(&record("7i7h 7i7h", &[], "1-0", false), &ALL).unwrap_err();
    assert!(err.contains("ply 2"), "{err}");
    assert!(tune::extract(&record("7i7h", &[], "*", false), &ALL).is_err());
}

#[test]
fn captures_and_the_position_after_them_are_left_out() {
    // Two pawns meet: sente takes on 7f at ply 5, gote answers.
    let game = record("7i7h 7d7e 7h7g 7e7f 7g7f 6d6e", &[], "1-0", false);
    let lines = tune::extract(&game, &ALL).unwrap();
    // Plies 1-4 are quiet; ply 5 captures; ply 6 follows a capture.
    assert_eq!(lines.len(), 4, "{lines:?}");
}

#[test]
fn a_training_file_is_read_or_refused_with_its_line() {
    let start = Variant::chu().spec.start_sfen;
    let text = format!("# comment\n1 chushogi {start}\n\n0.5 chushogi {start}\n");
    let data = Dataset::parse(&text, "t.txt").unwrap();
    assert_eq!(data.len(), 2);
    let bad = format!("1 chushogi {start}\n2 chushogi {start}\n");
    let err = Dataset::parse(&bad, "t.txt").err().unwrap();
    assert_eq!(
        (err.line, &err.problem),
        (Some(2), &LineProblem::Result("2".into()))
    );
    assert_eq!(
        err.to_string(),
        "t.txt:2: result '2' is not a score from 0 to 1"
    );
    let mixed = format!(
        "1 chushogi {start}\n1 shoshogi {}\n",
        Variant::sho().spec.start_sfen
    );
    let err = Dataset::parse(&mixed, "t.txt").err().unwrap().to_string();
    assert_eq!(err, "t.txt:2: a second variant (shoshogi)");
    assert_eq!(
        Dataset::parse("# nothing\n", "t.txt")
            .err()
            .unwrap()
            .to_string(),
        "t.txt: no training lines"
    );
    let ten = format!("1 chushogi {start}\n").repeat(10);
    let (train, check) = Dataset::parse(&ten, "t.txt").unwrap().split_tail(20);
    assert_eq!((train.len(), check.len()), (8, 2));
    assert!(Dataset::parse("1 chushogi not-an-sfen\n", "t.txt").is_err());
}

#[test]
fn an_expected_score_between_0_and_1_is_a_target_as_it_stands() {
    // Lines labelled with another engine's judgement (scripts/measure/label.py) carry expected
    // scores, not only 1, 0.5 and 0; anything outside 0 to 1 is refused with its line.
    let chu = Variant::chu();
    let start = chu.spec.start_sfen;
    for bad in ["1.2", "-0.1", "NaN", "inf", "half"] {
        let text = format!("0.5 chushogi {start}\n{bad} chushogi {start}\n");
        let err = Dataset::parse(&text, "t.txt").err().unwrap();
        assert_eq!(
            (err.line, err.problem),
            (Some(2), LineProblem::Result(bad.into())),
            "{bad}"
        );
    }
    let ev = Evaluator::with_params(chu, &Resolved::of(chu));
    let error_with = |target: &str| {
        let data = Dataset::parse(&format!("{target} chushogi {start}\n"), "t.txt").unwrap();
        tune::mean_error(&ev, &data, 1.0)
    };
    // One position of expected score e: the error is (target - e)^2 for every target.
    let (lost, won) = (error_with("0"), error_with("1"));
    let e = (1.0 + lost - won) / 2.0;
    for (text, target) in [("0.25", 0.25), ("0.73", 0.73), ("1e-1", 0.1)] {
        let expected_error = (target - e) * (target - e);
        assert!(
            (error_with(text) - expected_error).abs() < 1e-12,
            "{text}: {} against {expected_error}",
            error_with(text)
        );
    }
}

#[test]
fn a_fit_lowers_the_error_and_keeps_the_fixed_entries() {
    // Whoever is to move at the start wins: only the tempo can explain that.
    let chu = Variant::chu();
    let start = chu.spec.start_sfen;
    let after = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1";
    let mut text = String::new();
    for _ in 0..50 {
        text += &format!("1 chushogi {start}\n0 chushogi {after}\n");
    }
    let data = Dataset::parse(&text, "t.txt").unwrap();
    let built_in = Resolved::of(chu);
    let scale = tune::fit_scale(&Evaluator::with_params(chu, &built_in), &data);
    let options = TuneOptions {
        max_passes: 3,
        min_occurrences: 0,
    };
    let mut passes = 0;
    let tuned = tune::tune(&data, &built_in, scale, &options, |_| passes += 1);
    let error = |p: &Resolved| tune::mean_error(&Evaluator::with_params(chu, p), &data, scale);
    assert!(error(&tuned) < error(&built_in));
    assert!(tuned.weights.tempo > built_in.weights.tempo);
    assert!(passes >= 1);
    let pawn = chu.kind_by_sfen("p").unwrap() as usize;
    let king = chu.kind_by_sfen("k").unwrap() as usize;
    assert_eq!(tuned.values[pawn], 100);
    assert_eq!(tuned.values[king], built_in.values[king]);
}

#[test]
fn kinds_that_play_alike_keep_one_value_and_placement() {
    let sho = Variant::sho();
    let kind = |sfen: &str| sho.kind_by_sfen(sfen).unwrap() as usize;
    let alike = tune::alike_kinds(sho);
    let gold = kind("g");
    let gold_movers = [kind("+p"), kind("+l"), kind("+n"), kind("+s")];
    for &k in &gold_movers {
        assert_eq!(alike[k], gold, "{}", sho.spec.kinds[k].sfen);
    }
    // Every other kind stands alone; the prince moves as the king, but royals are left
    // alone (their values are fixed).
    let following: Vec<usize> = (0..sho.kind_count()).filter(|&k| alike[k] != k).collect();
    assert_eq!(following, {
        let mut sorted = gold_movers.to_vec();
        sorted.sort();
        sorted
    });
    assert_eq!(alike[kind("+e")], kind("+e"));

    // A tokin up wins: the fit raises the gold-movers' value, all five as one.
    let mut text = String::new();
    for _ in 0..40 {
        text += "1 shoshogi 4k4/9/9/9/2+P6/9/9/9/4K4 b - 1\n";
        text += "0 shoshogi 4k4/9/9/9/6+p2/9/9/9/4K4 w - 1\n";
        text += "0.5 shoshogi 4k4/9/9/9/9/9/9/9/4K4 b - 1\n";
    }
    let data = Dataset::parse(&text, "t.txt").unwrap();
    let built_in = Resolved::of(sho);
    let scale = tune::fit_scale(&Evaluator::with_params(sho, &built_in), &data);
    let options = TuneOptions {
        max_passes: 3,
        min_occurrences: 0,
    };
    let tuned = tune::tune(&data, &built_in, scale, &options, |_| {});
    // The fit starts the five from their mean, and only the tokin's positions move it.
    let group = [
        gold,
        gold_movers[0],
        gold_movers[1],
        gold_movers[2],
        gold_movers[3],
    ];
    let mean = group.iter().map(|&k| built_in.values[k]).sum::<i32>() as f64 / 5.0;
    assert!(
        tuned.values[gold] as f64 > mean + 8.0,
        "{}",
        tuned.values[gold]
    );
    for &k in &gold_movers {
        assert_eq!(tuned.values[k], tuned.values[gold]);
        assert_eq!(tuned.centre[k], tuned.centre[gold]);
        assert_eq!(tuned.advance[k], tuned.advance[gold]);
    }
}

#[test]
fn tuned_parameters_print_as_this_files_tables() {
    let chu = Variant::chu();
    let params = Resolved::of(chu);
    let text = params.to_rust(chu);
    let pawn = chu.kind_by_sfen("p").unwrap() as usize;
    assert!(text.contains("(\"p\", 100),"), "{text}");
    let placement = format!(
        "(\"p\", {}, {}),",
        params.centre[pawn], params.advance[pawn]
    );
    assert!(text.contains(&placement), "{text}");
    assert!(
        text.contains(&format!("tempo: {},", params.weights.tempo)),
        "{text}"
    );
    let source = std::fs::read_to_string("src/variant/chu.rs").unwrap();
    assert!(source.contains(&text), "chu.rs holds the printed block");
}

#[test]
fn moves_after_the_end_of_a_game_are_refused() {
    // Issue 29, finding 6: 19 plies after the last royal was taken gave 18 training
    // positions. Sente's king takes gote's, then the record goes on.
    let mut game = record("6g7f 1a1b 2l2k 1b1c", &[], "1-0", false);
    game.game.start_sfen = "11l/12/12/12/12/5k6/6K5/12/12/12/12/L11 b - 1".into();
    let err = tune::extract(&game, &ALL).unwrap_err();
    assert!(
        err.contains("ply 2") && err.contains("already over"),
        "{err}"
    );
}

#[test]
fn a_fit_with_no_positions_left_to_fit_is_refused() {
    // Issue 29, finding 8: `--validation-percent 100` (or 101, clamped without a word)
    // printed a "tuned" table from no positions and exited 0.
    let dir = crate::common::TempDir::new("shishi-fit", "empty");
    let file = dir.join("positions.txt");
    let game = record("7i7h 6d6e 5i5h 7d7e", &[], "1-0", false);
    std::fs::write(&file, tune::extract(&game, &ALL).unwrap().join("\n")).unwrap();
    for percent in ["100", "101"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shishi"))
            .args(["tune", "fit", "--validation-percent", percent])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{percent}: {stderr}");
        assert!(out.stdout.is_empty(), "{percent}: printed a table");
        assert!(stderr.contains("validation-percent"), "{percent}: {stderr}");
    }
}
