//! The match runner against scripted engines: consistent records, forfeits for illegal moves,
//! crashes and hangs (the match goes on), records that replay, and real engines over USI and
//! CECP.

use shishi::records::{Game, GameRecord, GameResult, Players};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_shishi");

/// The scripted test engine (`examples/testengine.rs`): built with the tests by `cargo
/// test`; built here, once, when only this test target was (`cargo test --test it`).
fn test_engine() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let profile_dir = std::path::Path::new(BIN)
            .parent()
            .expect("the binary's folder");
        let exe = profile_dir
            .join("examples")
            .join(format!("testengine{}", std::env::consts::EXE_SUFFIX));
        if !exe.exists() {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let mut build = Command::new(cargo);
            build.args(["build", "--example", "testengine"]);
            if profile_dir.ends_with("release") {
                build.arg("--release");
            }
            let status = build.status().expect("run cargo to build the test engine");
            assert!(status.success(), "building examples/testengine.rs failed");
        }
        exe.to_string_lossy().into_owned()
    })
}

fn engine(name: &str, extra: &str) -> String {
    format!("cmd={},{extra}name={name}", test_engine())
}

fn run_match(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("run shishi match");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn records(path: &std::path::Path) -> Vec<GameRecord> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

#[test]
fn random_movers_play_a_consistent_match() {
    let dir = tempdir("consistent");
    let (jsonl, kif, pgn) = (
        dir.join("games.jsonl"),
        dir.join("kif"),
        dir.join("games.pgn"),
    );
    let openings = dir.join("book.txt");
    std::fs::write(&openings, "7i7h 7d7e\n5i5h 8d8e\n").unwrap();
    let (stdout, stderr, ok) = run_match(&[
        "--engine",
        &engine("alpha", ""),
        "--engine",
        &engine("beta", "arg=--seed,arg=9,"),
        "--games",
        "4",
        "--repeat",
        "--nodes",
        "1",
        "--openings",
        openings.to_str().unwrap(),
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--kif",
        kif.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let games = records(&jsonl);
    assert_eq!(games.len(), 4);
    // --repeat: openings 0, 0, 1, 1 with colours swapped within each pair.
    let mut by_game = games.clone();
    by_game.sort_by_key(|g| g.number);
    assert_eq!(
        by_game.iter().map(|g| g.opening).collect::<Vec<_>>(),
        vec![0, 0, 1, 1]
    );
    assert_eq!(
        (
            by_game[0].game.players.sente.as_str(),
            by_game[1].game.players.sente.as_str()
        ),
        ("alpha", "beta")
    );
    for g in &games {
        // Every record replays, and a rules ending is what the rules say of the final position.
        let mut pos = g
            .replay()
            .unwrap_or_else(|e| panic!("game {}: {e}", g.number));
        assert!(g.game.moves_text().starts_with(if g.opening == 0 {
            "7i7h 7d7e"
        } else {
            "5i5h 8d8e"
        }));
        let outcome = pos.outcome();
        if g.reason.contains("royal")
            || g.reason.contains("bare")
            || g.reason.contains("repetition")
        {
            let o = outcome.unwrap_or_else(|| {
                panic!(
                    "game {} ended by '{}' but the position is not over",
                    g.number, g.reason
                )
            });
            let expected = match o.winner {
                Some(shishi::core::Color::Sente) => "1-0",
                Some(shishi::core::Color::Gote) => "0-1",
                None => "1/2-1/2",
            };
            assert_eq!(g.result().as_str(), expected, "game {}", g.number);
        }
        assert_eq!(g.game.times_ms.len(), g.game.moves.len());
        assert!(kif.join(format!("game-{:04}.kif", g.number)).exists());
    }
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[Event ")
            .count(),
        4
    );
    assert!(
        stdout.contains("alpha") && stdout.contains("beta") && stdout.contains("points"),
        "{stdout}"
    );
    assert!(stderr.matches("game ").count() >= 4, "{stderr}");
}

/// Two games at 100 ms a move between the test engine with `behaviour` (named `bad`) and a
/// well-behaved one; the match's stdout and the game records.
fn match_with_test_engine(behaviour: &str) -> (String, Vec<GameRecord>) {
    let dir = tempdir(behaviour);
    let jsonl = dir.join("games.jsonl");
    let bad = engine(
        "bad",
        &format!("arg=--behaviour,arg={behaviour},arg=--after,arg=2,"),
    );
    let (stdout, stderr, ok) = run_match(&[
        "--engine",
        &bad,
        "--engine",
        &engine("good", ""),
        "--games",
        "2",
        "--movetime",
        "100",
        "--timemargin",
        "300",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]);
    // Issue 26: forfeits made no difference to the exit code. A misbehaving engine's
    // forfeits end the match with exit code 3 and a word; a good match with 0.
    if behaviour == "shiftjis" {
        assert!(ok, "{stderr}");
    } else {
        assert!(!ok && stderr.contains("ended by forfeit"), "{stderr}");
    }
    let games = records(&jsonl);
    assert_eq!(games.len(), 2, "{behaviour}: the match completes");
    for g in &games {
        g.replay().unwrap();
    }
    (stdout, games)
}

#[test]
fn illegal_moves_crashes_and_hangs_forfeit_and_the_match_goes_on() {
    for (behaviour, reason) in [
        ("illegal", "illegal move 1a1a by bad"),
        ("crash", "bad crashed (exit status: 3)"),
        ("hang", "bad did not move in time (no answer)"),
        // Issue 55, case 4: "crashed" only for a process that died.
        #[cfg(unix)]
        ("closeout", "bad closed its output"),
        // Case 8: a 1 MB word was copied whole into the console and the records.
        (
            "longword",
            "illegal move xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... by bad",
        ),
    ] {
        let (stdout, games) = match_with_test_engine(behaviour);
        assert!(
            stdout.len() < 4000,
            "{behaviour}: {} bytes of table",
            stdout.len()
        );
        for g in &games {
            assert_eq!(g.reason, reason, "{behaviour}");
            assert!(g.forfeit, "{behaviour}: a forfeit");
            let bad_won = (g.game.players.sente == "bad" && g.result().as_str() == "1-0")
                || (g.game.players.gote == "bad" && g.result().as_str() == "0-1");
            assert!(!bad_won, "{behaviour}: the misbehaving engine loses");
        }
        assert!(
            stdout
                .lines()
                .any(|l| l.contains("bad") && l.trim_end().ends_with('2')),
            "two forfeits in the table: {stdout}"
        );
    }
}

#[test]
fn an_opening_book_line_that_is_not_text_is_skipped_with_its_number() {
    // Issue 55, case 12: one byte that is not UTF-8 refused the whole book, with no line.
    let dir = tempdir("book-bytes");
    let book = dir.join("book.txt");
    std::fs::write(&book, b"7i7h 7d7e\n\xff\xfe 5i5h\n5i5h 8d8e\n").unwrap();
    let jsonl = dir.join("games.jsonl");
    let (_, stderr, ok) = run_match(&[
        "--engine",
        &engine("alpha", ""),
        "--engine",
        &engine("beta", ""),
        "--games",
        "2",
        "--nodes",
        "1",
        "--openings",
        book.to_str().unwrap(),
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("book.txt:2: neither UTF-8 nor Shift_JIS; line skipped"),
        "{stderr}"
    );
    let openings: Vec<usize> = records(&jsonl).iter().map(|g| g.opening).collect();
    assert_eq!(openings.len(), 2);
}

#[test]
fn lines_that_are_not_utf8_are_no_crash() {
    // From its third move on, the engine prints Shift-JIS before each bestmove.
    let (_, games) = match_with_test_engine("shiftjis");
    for g in &games {
        assert!(!g.forfeit && !g.reason.contains("crashed"), "{}", g.reason);
    }
}

#[test]
fn shishi_over_usi_and_cecp() {
    let dir = tempdir("real");
    let jsonl = dir.join("games.jsonl");
    let (stdout, stderr, ok) = run_match(&[
        "--engine",
        &format!("cmd={BIN},arg=usi,name=shishi-usi,option.USI_Hash=8"),
        "--engine",
        &format!("cmd={BIN},arg=xboard,proto=cecp,name=shishi-cecp,option.memory=8"),
        "--games",
        "2",
        "--byoyomi",
        "0+0.05",
        "--max-plies",
        "40",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let games = records(&jsonl);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(!g.forfeit, "game {}: {} ({stdout})", g.number, g.reason);
        g.replay().unwrap();
    }
}

#[test]
fn bad_arguments_are_reported() {
    let (_, stderr, ok) = run_match(&["--engine", "proto=usi", "--engine", "cmd=x"]);
    assert!(!ok && stderr.contains("cmd=PATH is required"), "{stderr}");
    let (_, stderr, ok) = run_match(&[
        "--engine",
        &engine("a", ""),
        "--engine",
        &engine("b", ""),
        "--sprt",
        "elo0=5,elo1=1",
    ]);
    assert!(!ok && stderr.contains("elo0 < elo1"), "{stderr}");
    let (_, stderr, ok) = run_match(&[
        "--engine",
        &engine("a", ""),
        "--engine",
        &engine("b", ""),
        "--tc",
        "fast",
    ]);
    assert!(!ok && stderr.contains("--tc"), "{stderr}");
}

#[test]
fn red_team_14_to_16_an_sprt_clock_or_concurrency_that_makes_no_sense_is_refused() {
    // Issue 49: alpha + beta >= 1 decided after 1-2 games; nan and infinities were
    // accepted; a huge --concurrency panicked (exit 101); `--tc inf+0` never ended.
    let a = engine("a", "");
    let b = engine("b", "");
    let base = ["--engine", a.as_str(), "--engine", b.as_str()];
    for (args, says) in [
        (["--sprt", "alpha=0.6,beta=0.5"], "alpha + beta < 1"),
        (["--sprt", "elo0=nan"], "finite elo0 < elo1"),
        (["--sprt", "elo1=inf"], "finite elo0 < elo1"),
        (["--sprt", "elo0=-inf"], "finite elo0 < elo1"),
        (["--concurrency", "2305843009213693952"], "--concurrency"),
        (["--concurrency", "0"], "--concurrency"),
        (["--tc", "inf+0"], "--tc"),
        (["--tc", "1e300+0"], "--tc"),
        (["--tc", "NaN+1"], "--tc"),
        // Issue 55, case 11: a movetime of 31 years, a margin that never flags, and the
        // zero limits analyse refuses.
        (["--movetime", "999999999999"], "1..=604800000"),
        (["--movetime", "0"], "1..=604800000"),
        (["--nodes", "0"], "--nodes"),
        (["--timemargin", "18446744073709551615"], "0..=3600000"),
    ] {
        let out = Command::new(BIN)
            .arg("match")
            .args(base)
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            // Bounds clap checks exit 2 (its usage errors), the runner's own checks 1.
            Some(
                if ["--concurrency", "--movetime", "--nodes", "--timemargin"].contains(&args[0]) {
                    2
                } else {
                    1
                }
            ),
            "{args:?}: {stderr}"
        );
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

fn tempdir(name: &str) -> crate::common::TempDir {
    crate::common::TempDir::new("shishi-match", name)
}

#[test]
fn a_stopped_match_resumes_where_it_was() {
    let dir = tempdir("resume");
    let jsonl = dir.join("games.jsonl");
    let args = |games: &'static str| {
        vec![
            "--engine".to_string(),
            engine("alpha", ""),
            "--engine".to_string(),
            engine("beta", "arg=--seed,arg=9,"),
            "--games".to_string(),
            games.to_string(),
            "--repeat".to_string(),
            "--nodes".to_string(),
            "1".to_string(),
            "--jsonl".to_string(),
            jsonl.to_str().unwrap().to_string(),
            "--resume".to_string(),
        ]
    };
    let run = |games| {
        let a = args(games);
        run_match(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // A first start with --resume and no file yet is an ordinary match.
    let (_, stderr, ok) = run("2");
    assert!(ok && stderr.contains("resumed 0 games"), "{stderr}");
    assert_eq!(records(&jsonl).len(), 2);
    // As if killed between a record and its newline: the next record still starts a line.
    let text = std::fs::read_to_string(&jsonl).unwrap();
    std::fs::write(&jsonl, text.trim_end()).unwrap();
    // The same match with more games plays only the ones missing, and counts all of them.
    let (stdout, stderr, ok) = run("4");
    assert!(
        ok && stderr.contains("resumed 2 games") && stderr.contains("2 left to play"),
        "{stderr}"
    );
    let mut numbers: Vec<usize> = records(&jsonl).iter().map(|g| g.number).collect();
    numbers.sort();
    assert_eq!(numbers, vec![1, 2, 3, 4]);
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("alpha") && l.split_whitespace().nth(2) == Some("4")),
        "{stdout}"
    );
    // A finished match has nothing left to play.
    let (_, stderr, ok) = run("4");
    assert!(ok && stderr.contains("0 left to play"), "{stderr}");
    assert_eq!(records(&jsonl).len(), 4);
    // A file of another match is refused, with its line, and left as it was.
    let before = std::fs::read_to_string(&jsonl).unwrap();
    let mut other = args("4");
    other[1] = engine("gamma", "");
    let (_, stderr, ok) = run_match(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        !ok && stderr.contains("line 1") && stderr.contains("gamma"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&jsonl).unwrap(), before);
}

#[test]
fn a_resumed_sprt_that_already_decided_plays_nothing() {
    let dir = tempdir("resume-sprt");
    let jsonl = dir.join("games.jsonl");
    // 200 games recorded: the first engine lost 20 and won 180, past the bound of [0, 5].
    let lines: Vec<String> = (1..=200)
        .map(|game| {
            let first_sente = game % 2 == 1;
            let first_won = game > 20;
            let chu = shishi::variant::Variant::chu();
            GameRecord {
                number: game,
                game: Game {
                    players: Players {
                        sente: if first_sente { "alpha" } else { "beta" }.into(),
                        gote: if first_sente { "beta" } else { "alpha" }.into(),
                    },
                    result: Some(if first_won == first_sente {
                        GameResult::SenteWon
                    } else {
                        GameResult::GoteWon
                    }),
                    ..Game::new(chu, chu.spec.start_sfen, Vec::new())
                },
                reason: "recorded".into(),
                forfeit: false,
                opening: 0,
                date: String::new(),
            }
            .to_json_line()
        })
        .collect();
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let (stdout, stderr, ok) = run_match(&[
        "--engine",
        &engine("alpha", ""),
        "--engine",
        &engine("beta", ""),
        "--games",
        "1000",
        "--nodes",
        "1",
        "--sprt",
        "elo0=0,elo1=5",
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--resume",
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("SPRT decided after") && stderr.contains("H1 accepted"),
        "{stderr}"
    );
    assert!(stderr.contains("0 left to play"), "{stderr}");
    assert!(stdout.contains("AcceptH1"), "{stdout}");
    // Nothing was played; the last record (written without its newline) was not joined to
    // anything.
    assert_eq!(records(&jsonl).len(), 200);
}

#[test]
fn carried_games_count_in_the_sprt() {
    let (alpha, beta) = (engine("alpha", ""), engine("beta", ""));
    let play = |sprt: &str, games: &str| {
        run_match(&[
            "--engine", &alpha, "--engine", &beta, "--games", games, "--nodes", "1", "--sprt", sprt,
        ])
    };
    // Enough carried games decide before any game: nothing is played.
    let (stdout, stderr, ok) = play("elo0=0,elo1=5,carry=180-20-0", "1000");
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("SPRT decided after 200 games (200 of them carried): H1 accepted"),
        "{stderr}"
    );
    assert!(!stderr.contains("game 1/"), "no game played: {stderr}");
    assert!(
        stdout.contains("with 180-20-0 carried: 200 games, Elo +") && stdout.contains("AcceptH1"),
        "{stdout}"
    );
    // Otherwise the match plays on, and each game's line gives its own figures and the sum.
    let (_, stderr, ok) = play("elo0=0,elo1=5,carry=10-10-0", "2");
    assert!(ok, "{stderr}");
    let last = stderr
        .lines()
        .rev()
        .find(|l| l.contains("alpha vs beta"))
        .expect("a progress line");
    let (own, all) = last.split_once("; with 10-10-0 carried: ").expect(last);
    let games = |text: &str| -> u32 {
        let wld = text
            .split(' ')
            .find(|w| w.matches('-').count() == 2)
            .expect(text);
        wld.split('-').map(|n| n.parse::<u32>().expect(wld)).sum()
    };
    assert_eq!(games(own.split_once(": ").unwrap().1), 2, "{last}");
    assert_eq!(games(all), 22, "{last}");
    let (_, stderr, ok) = play("carry=10-10", "2");
    assert!(
        !ok && stderr.contains("'10-10' is not WINS-LOSSES-DRAWS"),
        "{stderr}"
    );
}

#[test]
fn an_error_is_one_line_without_a_stack_trace() {
    // Issue 29, finding 10: with RUST_BACKTRACE=1 a clear error (a hash that cannot be
    // allocated, a usage error) printed a full stack trace after the message.
    for args in [
        vec!["bench", "--hash", "100000000"],
        vec!["match", "--engine", "cmd=x"],
    ] {
        let out = Command::new(BIN)
            .args(&args)
            .env("RUST_BACKTRACE", "1")
            .env("RUST_LOG", "off")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("backtrace"), "{args:?}: {stderr}");
    }
}

#[test]
fn analysis_workers_are_capped_like_threads() {
    // Issue 29, finding 12: `analyse --workers 100000` started 1,335 threads.
    let out = Command::new(BIN)
        .args(["analyse", "--workers", "100000", "--nodes", "200"])
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"startpos\n")?;
            drop(stdin);
            child.wait_with_output()
        })
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = (cores * shishi::session::MAX_THREADS_PER_CORE).min(shishi::session::MAX_THREADS);
    assert!(
        stderr.contains(&format!("100000 workers asked for; using {cap}")),
        "{stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}

#[test]
fn an_engine_that_cannot_start_or_speaks_xboard_stops_the_match_before_any_game() {
    // Issue 26: a mistyped path, or an XBoard engine without proto=cecp, played on: the
    // games were forfeits, the match was "won" 2-0 and the exit code was 0.
    let dir = tempdir("fail-fast");
    let jsonl = dir.join("games.jsonl");
    for (bad, expected) in [
        (
            "cmd=/usr/games/hachux,name=hachu".to_string(),
            "engine hachu (/usr/games/hachux): could not start: /usr/games/hachux:",
        ),
        (
            format!("cmd={BIN},arg=xboard,name=xb"),
            "it answered usi as an XBoard engine does; if it is an XBoard engine, add proto=cecp to its --engine; no game was played",
        ),
    ] {
        let started = std::time::Instant::now();
        let out = Command::new(BIN)
            .args(["match", "--engine", &bad, "--engine", &engine("good", "")])
            .args(["--games", "2", "--movetime", "50", "--jsonl"])
            .arg(&jsonl)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("game 1/"), "no game is played: {stderr}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert!(!jsonl.exists() || std::fs::read_to_string(&jsonl).unwrap().is_empty());
    }
}
