//! Batch analysis on small committed inputs in each format (malformed records included):
//! results, line-numbered errors, determinism, workers, resume, annotated KIF.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_shishi");

fn data(name: &str) -> String {
    format!("{}/tests/data/analyse/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn analyse(args: &[&str]) -> (Vec<serde_json::Value>, String) {
    let out = Command::new(BIN)
        .arg("analyse")
        .args(args)
        .output()
        .expect("run shishi analyse");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (lines, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn sorted_text(values: &[serde_json::Value]) -> Vec<String> {
    let mut v: Vec<String> = values.iter().map(|x| x.to_string()).collect();
    v.sort();
    v
}

fn tempdir(name: &str) -> crate::common::TempDir {
    crate::common::TempDir::new("shishi-analyse", name)
}

#[test]
fn positions_file_with_bad_lines() {
    let (results, stderr) = analyse(&[
        "--input",
        &data("positions.txt"),
        "--depth",
        "3",
        "--workers",
        "1",
        "--multipv",
        "2",
    ]);
    assert_eq!(results.len(), 3);
    assert!(
        stderr.contains("positions.txt:5:") && stderr.contains("positions.txt:6:"),
        "{stderr}"
    );
    for r in &results {
        assert!(
            r["bestmove"].is_string() && r["score"].is_object() && r["pv"].is_string(),
            "{r}"
        );
        assert_eq!(r["multipv"].as_array().unwrap().len(), 2);
    }
    // The lion on 7f takes gote's lion next to it (and steps back): the obvious best move.
    let lion = results.iter().find(|r| r["id"] == "3").unwrap();
    assert!(
        lion["bestmove"].as_str().unwrap().starts_with("7f6f"),
        "{lion}"
    );
}

#[test]
fn games_from_json_lines_and_kif() {
    let (results, stderr) = analyse(&[
        "--input",
        &data("games.jsonl"),
        "--nodes",
        "1500",
        "--workers",
        "2",
    ]);
    let plies = |id: &str| {
        results
            .iter()
            .filter(|r| r["id"] == id && r["ply"].is_number())
            .count()
    };
    assert_eq!(plies("lion-game"), 10, "every ply");
    // And one summary line per game: per side, judgements, average loss, accuracy.
    let summaries: Vec<_> = results
        .iter()
        .filter(|r| r["id"] == "lion-game" && r["summary"].is_object())
        .collect();
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    for side in ["sente", "gote"] {
        let s = &summaries[0]["summary"][side];
        assert_eq!(s["moves"], 5, "{s}");
        let accuracy = s["accuracy"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{s}");
        assert!(s["averageCpLoss"].as_f64().unwrap() >= 0.0, "{s}");
        for count in ["inaccuracies", "mistakes", "blunders"] {
            assert!(s[count].is_u64(), "{s}");
        }
    }
    let results: Vec<_> = results
        .into_iter()
        .filter(|r| r["ply"].is_number())
        .collect();
    assert!(
        stderr.contains("games.jsonl:2:") && stderr.contains("games.jsonl:3:"),
        "{stderr}"
    );
    for r in &results {
        assert!(
            r["played"].is_string()
                && r["bestmove"].is_string()
                && r["loss"].as_i64().unwrap() >= 0,
            "{r}"
        );
    }
    let (results, _) = analyse(&["--input", &data("game.kif"), "--nodes", "1500"]);
    let played: Vec<&str> = results
        .iter()
        .filter_map(|r| r["played"].as_str())
        .collect();
    assert_eq!(
        played,
        vec!["7i7h", "7d7e", "7j7i6h", "7e7f"],
        "plies in order with one worker per game"
    );
    let out = Command::new(BIN)
        .args(["analyse", "--input", &data("bad.kif"), "--nodes", "500"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.contains("bad.kif:5:"),
        "{stderr}"
    );
}

#[test]
fn one_thread_and_fixed_nodes_are_deterministic_with_any_worker_count() {
    let args = [
        "--input",
        &data("games.jsonl"),
        "--nodes",
        "3000",
        "--threads",
        "1",
    ];
    let (a, _) = analyse(&[&args[..], &["--workers", "1"]].concat());
    let (b, _) = analyse(&[&args[..], &["--workers", "1"]].concat());
    let (c, _) = analyse(&[&args[..], &["--workers", "2"]].concat());
    assert_eq!(sorted_text(&a), sorted_text(&b));
    assert_eq!(sorted_text(&a), sorted_text(&c));
}

/// The arguments of a deterministic run over `games.jsonl` writing to `out`.
fn games_args(out: &std::path::Path) -> Vec<String> {
    let out = out.to_str().unwrap();
    [
        "--input",
        &data("games.jsonl"),
        "--nodes",
        "1500",
        "--workers",
        "1",
        "--output",
        out,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn resume_completes_an_interrupted_run_without_repeating() {
    let dir = tempdir("resume");
    let out = dir.join("out.jsonl");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    analyse(&base);
    let full = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    // Ten plies and the game's summary line.
    assert_eq!(lines.len(), 11);
    // An interrupted run: only the first four results made it to the file.
    std::fs::write(&out, lines[..4].join("\n") + "\n").unwrap();
    analyse(&[&base[..], &["--resume"]].concat());
    let resumed = std::fs::read_to_string(&out).unwrap();
    let mut got: Vec<&str> = resumed.lines().collect();
    let mut want = lines.clone();
    got.sort();
    want.sort();
    assert_eq!(got, want, "every ply once, the same results");
}

/// Runs `shishi analyse` expecting it to fail; returns its stderr.
fn analyse_fails(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .arg("analyse")
        .args(args)
        .output()
        .expect("run shishi analyse");
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn resume_after_a_cut_line_or_with_bad_bytes_loses_nothing() {
    let dir = tempdir("resume-cut");
    let out = dir.join("out.jsonl");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    analyse(&base);
    let full = std::fs::read_to_string(&out).unwrap();
    let mut want: Vec<&str> = full.lines().collect();
    // Cut in the middle of the fifth line, as a killed run leaves it.
    let cut = full.lines().take(4).map(|l| l.len() + 1).sum::<usize>() + 20;
    std::fs::write(&out, &full[..cut]).unwrap();
    analyse(&[&base[..], &["--resume"]].concat());
    let resumed = std::fs::read_to_string(&out).unwrap();
    let mut got: Vec<&str> = resumed.lines().collect();
    got.sort();
    want.sort();
    assert_eq!(
        got, want,
        "the cut line is redone, nothing glued or repeated"
    );
    // One byte that is not UTF-8: an error naming the line, and the file is left alone.
    let mut bytes = full.clone().into_bytes();
    let second = full.lines().next().unwrap().len() + 3;
    bytes[second] = 0xff;
    std::fs::write(&out, &bytes).unwrap();
    let stderr = analyse_fails(&[&base[..], &["--resume"]].concat());
    assert!(stderr.contains("out.jsonl:2: not UTF-8"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_run_without_a_panic() {
    // Issue 55, case 9: `shishi analyse ... 2>&1 | head -2` exited 101, a panic on the
    // closed pipe.
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "'{BIN}' analyse --input '{}' --nodes 2000 --workers 1 2>&1 | head -2 >/dev/null; \
             echo ${{PIPESTATUS[0]}}",
            data("games.jsonl")
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "0");
}

#[test]
fn from_ply_past_the_end_is_said() {
    // Issue 55, case 12: --from-ply past the end of the game was taken and did nothing.
    let stderr = analyse_fails(&[
        "--input",
        &data("games.jsonl"),
        "--from-ply",
        "11",
        "--nodes",
        "300",
    ]);
    assert!(
        stderr.contains("--from-ply 11 is past the end of every game (the longest has 10 plies); nothing was analysed"),
        "{stderr}"
    );
    let (results, stderr) = analyse(&[
        "--input",
        &data("games.jsonl"),
        "--from-ply",
        "10",
        "--nodes",
        "300",
    ]);
    assert_eq!(results.len(), 2, "ply 10 and the summary");
    assert!(!stderr.contains("leaves none"), "{stderr}");
}

#[test]
fn resume_never_cuts_a_file_that_is_not_a_results_file() {
    // Issue 55, case 1: a wrong --output (notes without a final newline) lost its last
    // line, a one-line file everything, before the file was checked.
    let dir = tempdir("resume-notes");
    let out = dir.join("notes.txt");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    for notes in [
        "my notes for the game",
        "first line\nsecond line",
        "line one\nline two\nthree",
    ] {
        std::fs::write(&out, notes).unwrap();
        let stderr = analyse_fails(&[&base[..], &["--resume"]].concat());
        assert!(
            stderr.contains("notes.txt:1: not a result line")
                && stderr.contains("nothing was analysed"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), notes, "left whole");
    }
    // Result lines and then a last line that no run of ours writes: refused, kept whole.
    std::fs::remove_file(&out).unwrap();
    analyse(&base[..]);
    let mixed = format!("{}a note", std::fs::read_to_string(&out).unwrap());
    std::fs::write(&out, &mixed).unwrap();
    let stderr = analyse_fails(&[&base[..], &["--resume"]].concat());
    let last = mixed.lines().count();
    assert!(
        stderr.contains(&format!("notes.txt:{last}: not a result line")),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), mixed);
}

#[cfg(unix)]
#[test]
fn resume_from_a_pipe_is_refused_at_once() {
    // Issue 55, case 11: --resume --output FIFO waited for ever with no word.
    let dir = tempdir("resume-fifo");
    let fifo = dir.join("results.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let base = games_args(&fifo);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    let stderr = analyse_fails(&[&base[..], &["--resume"]].concat());
    assert!(stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn kif_files_keep_their_comments_and_never_collide() {
    let dir = tempdir("kif-names");
    let input = dir.join("games.jsonl");
    let game = |id: &str| {
        format!("{{\"id\":\"{id}\",\"variant\":\"chushogi\",\"moves\":\"8i8h 5d5e 7j8i 6c5d\"}}\n")
    };
    // A BOM, two games with one id (two match runs appended), ids a/b and a?b.
    let text = format!(
        "\u{feff}{}{}{}{}",
        game("1"),
        game("1"),
        game("a/b"),
        game("a?b")
    );
    std::fs::write(&input, text).unwrap();
    let kifs = dir.join("kif");
    let out = dir.join("out.jsonl");
    let args = [
        "--input",
        input.to_str().unwrap(),
        "--nodes",
        "500",
        "--workers",
        "1",
        "--output",
        out.to_str().unwrap(),
        "--kif",
        kifs.to_str().unwrap(),
    ];
    analyse(&args);
    let mut names: Vec<String> = std::fs::read_dir(&kifs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names.contains(&"1.kif".to_string()) && names.contains(&"1~2.kif".to_string()));
    let comments = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with('*'))
            .count()
    };
    let first = kifs.join("1.kif");
    let before = comments(&first);
    assert!(before >= 4, "{before}");
    // A resumed run finds its KIFs as they were (the same analysis writes the same file)
    // and leaves them: every comment kept, no second copy.
    let results = std::fs::read_to_string(&out).unwrap();
    std::fs::write(
        &out,
        results.lines().take(10).collect::<Vec<_>>().join("\n") + "\n",
    )
    .unwrap();
    let kif_before = std::fs::read(&first).unwrap();
    analyse(&[&args[..], &["--resume"]].concat());
    assert_eq!(comments(&first), before);
    assert_eq!(std::fs::read(&first).unwrap(), kif_before);
    assert_eq!(std::fs::read_dir(&kifs).unwrap().count(), 4);
    // Another analysis (more nodes) never replaces an existing KIF: it takes a new name.
    let deeper: Vec<&str> = args
        .iter()
        .map(|a| if *a == "500" { "5000" } else { a })
        .collect();
    analyse(&deeper);
    assert_eq!(std::fs::read_dir(&kifs).unwrap().count(), 8);
    assert!(kifs.join("1-2.kif").exists());
    assert_eq!(std::fs::read(&first).unwrap(), kif_before);
}

#[test]
fn annotated_kif_reads_back() {
    let dir = tempdir("kif");
    analyse(&[
        "--input",
        &data("games.jsonl"),
        "--nodes",
        "1500",
        "--kif",
        dir.to_str().unwrap(),
    ]);
    let kif = std::fs::read_to_string(dir.join("lion-game.kif")).unwrap();
    assert!(
        kif.contains("手数----指手") && kif.lines().filter(|l| l.starts_with('*')).count() >= 10,
        "{kif}"
    );
    let (again, _) = analyse(&[
        "--input",
        dir.join("lion-game.kif").to_str().unwrap(),
        "--nodes",
        "500",
    ]);
    assert_eq!(again.iter().filter(|r| r["ply"].is_number()).count(), 10);
}

#[test]
fn mate_solving_adds_the_proven_line_to_results_and_kif() {
    let dir = tempdir("mate");
    let games = dir.join("games.jsonl");
    // Two golds against the king in the corner: mate in 3 from the first ply, in 1 from
    // the third.
    std::fs::write(
        &games,
        r#"{"id":"golds","variant":"chushogi","initialSfen":"11k/12/9GG1/12/12/12/12/12/12/p11/12/K11 b - 1","moves":"3c2b 1a2a 2b2a+"}"#,
    )
    .unwrap();
    let kif = dir.join("kif");
    let (results, _) = analyse(&[
        "--input",
        games.to_str().unwrap(),
        "--depth",
        "2",
        "--workers",
        "1",
        "--mate",
        "2000",
        "--kif",
        kif.to_str().unwrap(),
    ]);
    let mate = |ply: u64| {
        results
            .iter()
            .find(|r| r["ply"] == ply)
            .map(|r| r["mate"].clone())
            .unwrap()
    };
    assert_eq!(mate(1)["result"], "mate");
    assert_eq!(mate(1)["plies"], 3);
    assert_eq!(mate(1)["line"].as_str().unwrap().split(' ').count(), 3);
    assert_eq!(
        mate(2)["result"],
        "nomate",
        "the defender has no mate of its own"
    );
    assert_eq!(mate(3)["plies"], 1);
    let text = std::fs::read_to_string(kif.join("golds.kif")).unwrap();
    assert!(text.contains("*mate in 3 plies: "), "{text}");
    assert!(
        text.lines().filter(|l| l.starts_with("*mate in")).count() == 2,
        "{text}"
    );
    // Without --mate there is no such field.
    let (plain, _) = analyse(&[
        "--input",
        games.to_str().unwrap(),
        "--depth",
        "2",
        "--workers",
        "1",
    ]);
    assert!(plain.iter().all(|r| r.get("mate").is_none()));
}

#[test]
fn too_many_threads_are_cut_to_what_the_cores_can_use() {
    let (results, stderr) = analyse(&[
        "--input",
        &data("positions.txt"),
        "--depth",
        "2",
        "--workers",
        "1",
        "--threads",
        "1000",
    ]);
    assert_eq!(results.len(), 3);
    assert!(
        stderr.contains("1000 search threads asked for; using"),
        "{stderr}"
    );
}

/// Batch analysis reports the position's own scores: a draw is 0, without the contempt that
/// makes a side in a game avoid (or, far behind, seek) a draw. Gote, far behind, can only
/// save itself by repeating the position a fourth time.
#[test]
fn a_draw_scores_zero_in_analysis() {
    let dir = tempdir("draw");
    let input = dir.join("repetition.txt");
    std::fs::write(
        &input,
        "12/k11/p11/12/12/12/12/12/12/12/12/N3D2G3K b - 1 moves \
         1l2l 12b11b 2l1l 11b12b 1l2l 12b11b 2l1l 11b12b 1l2l 12b11b 2l1l\n",
    )
    .unwrap();
    let (results, _) = analyse(&[
        "--input",
        input.to_str().unwrap(),
        "--depth",
        "4",
        "--workers",
        "1",
    ]);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["bestmove"], "11b12b", "{}", results[0]);
    assert_eq!(
        results[0]["score"],
        serde_json::json!({"cp": 0}),
        "{}",
        results[0]
    );
}

#[test]
fn shards_split_a_batch_and_concatenate_to_the_whole() {
    // Issue 25, item 7: --shard K/N analyses every N-th record, starting with the K-th.
    let dir = tempdir("shard");
    let input = dir.join("five.txt");
    std::fs::write(
        &input,
        "startpos\nstartpos moves 7i7h\nstartpos moves 8i8h\nstartpos moves 6i6h\nstartpos moves 5i5h\n",
    )
    .unwrap();
    let input = input.to_str().unwrap();
    let ids = |args: &[&str]| -> Vec<String> {
        let (results, _) = analyse(
            &[
                &["--input", input, "--nodes", "300", "--workers", "1"],
                args,
            ]
            .concat(),
        );
        results
            .iter()
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect()
    };
    let whole = ids(&[]);
    let (first, second) = (ids(&["--shard", "1/2"]), ids(&["--shard", "2/2"]));
    assert_eq!(first, ["1", "3", "5"]);
    assert_eq!(second, ["2", "4"]);
    let mut merged = [first, second].concat();
    merged.sort();
    let mut all = whole.clone();
    all.sort();
    assert_eq!(merged, all);
    for bad in ["0/2", "3/2", "1", "a/b"] {
        let stderr = analyse_fails(&["--input", input, "--shard", bad]);
        assert!(stderr.contains("--shard"), "{bad}: {stderr}");
    }
}

#[test]
fn a_lishogi_kif_download_is_analysed_and_annotated_with_its_header_and_result() {
    // Issue 25: lishogi's KIF with a lion double move was dropped ("not legal"); the
    // annotated KIF said 棋戦：shishi match and ended decisive games with 引き分け.
    let dir = tempdir("lishogi-kif");
    let (results, stderr) = analyse(&[
        "--input",
        &data("lishogi-server.kif"),
        "--nodes",
        "500",
        "--kif",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        results.iter().filter(|r| r["ply"].is_number()).count(),
        10,
        "{stderr}"
    );
    let kif = std::fs::read_to_string(dir.join("lishogi-server.kif")).unwrap();
    for expected in [
        "棋戦：lishogi Casual Chushogi\n",
        "場所：https://lishogi.org/abcdefgh\n",
        "持ち時間：10分+10秒\n",
        "先手：alice\n",
        "後手：bob\n",
        "   9一歩目 7五獅子 （←7六）\n",
        // The input's time fields are kept (each side's total counted again).
        "   9二歩目 7六獅子 （←7五）   (00:03/00:00:08)\n",
        "（先手から見て）",
        "まで10手で後手の勝ち\n",
    ] {
        assert!(kif.contains(expected), "{expected}: {kif}");
    }
    assert!(
        !kif.contains("shishi match") && !kif.contains("引き分け"),
        "{kif}"
    );
}

#[test]
fn a_report_page_per_game_written_beside_the_kif_and_never_over_a_file() {
    // Issue 25: nothing showed a picture. `--report DIR` writes one page per game, named
    // like its KIF; a second run does not replace the first's page.
    let dir = tempdir("report");
    let args = |dir: &std::path::Path| {
        vec![
            "--input".to_string(),
            data("games.jsonl"),
            "--nodes".into(),
            "1500".into(),
            "--report".into(),
            dir.join("html").to_str().unwrap().to_string(),
        ]
    };
    let first = args(&dir);
    let (_, stderr) = analyse(&first.iter().map(String::as_str).collect::<Vec<_>>());
    // The closing words: each side's figures as a table, and where the page is.
    assert!(stderr.contains("game                     side"), "{stderr}");
    assert!(stderr.contains("☗ A"), "{stderr}");
    assert!(
        stderr.contains("report (open it in a browser): ") && stderr.contains("lion-game.html"),
        "{stderr}"
    );
    let page = std::fs::read_to_string(dir.join("html/lion-game.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.contains("<svg id=\"graph\""));
    assert!(page.contains("<h2>Summary</h2>") && page.contains("<ol id=\"moves\">"));
    assert!(!page.contains("http://") && !page.contains("https://"));
    // The same analysis again finds its page as it was; another one takes a new name.
    analyse(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(!dir.join("html/lion-game-2.html").exists());
    let deeper: Vec<String> = first
        .iter()
        .map(|a| {
            if a == "1500" {
                "1700".to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    analyse(&deeper.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(dir.join("html/lion-game-2.html").exists());
    assert_eq!(
        std::fs::read_to_string(dir.join("html/lion-game.html")).unwrap(),
        page
    );
}

#[test]
fn sho_analysis_searches_the_tree_of_sho_play() {
    // Sho has search constants of its own: analysis must use them, as play does, so that
    // the same depth searches the same tree.
    let sfen = "ln3g1nk/2gs5/p1pepp1p1/1r1p1sp2/7N1/P1PP3P1/LSN1PPP2/2G1EKRS1/5G3 b - 41";
    let dir = tempdir("sho-constants");
    let input = dir.join("sho.txt");
    std::fs::write(&input, format!("{sfen}\n")).unwrap();
    let (results, _) = analyse(&[
        "--variant",
        "shoshogi",
        "--input",
        input.to_str().unwrap(),
        "--depth",
        "7",
        "--workers",
        "1",
    ]);
    let mut engine = crate::common::Engine::start_usi();
    engine.send("setoption name USI_Variant value shoshogi");
    engine.send(&format!("position sfen {sfen}"));
    engine.send("go depth 7");
    engine.bestmove(30.0);
    let played = engine.nodes_at_depth(7).expect("an info line at depth 7");
    assert_eq!(results[0]["nodes"], played, "{}", results[0]);
}

// Issue 49: the third red team's cases, each replayed.

/// A lishogi chu KIF of ten plies (a lion double move among them).
fn lishogi_kif() -> String {
    std::fs::read_to_string(data("lishogi-server.kif")).unwrap()
}

#[test]
fn red_team_1_the_input_kif_and_an_unrelated_file_are_never_overwritten() {
    // `--input DIR/game.kif --kif DIR --resume` wrote the annotated KIF over the input,
    // even on a first run; --resume also replaced an unrelated `g.kif`.
    let dir = tempdir("rt1");
    let input = dir.join("game.kif");
    let original = lishogi_kif();
    std::fs::write(&input, &original).unwrap();
    let out = dir.join("out.jsonl");
    let args = [
        "--input",
        input.to_str().unwrap(),
        "--nodes",
        "300",
        "--workers",
        "1",
        "--kif",
        dir.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
        "--resume",
    ];
    analyse(&args);
    analyse(&args);
    assert_eq!(std::fs::read_to_string(&input).unwrap(), original);
    let annotated = std::fs::read_to_string(dir.join("game-2.kif")).unwrap();
    assert!(annotated.contains("評価値"), "{annotated}");
    assert!(
        !dir.join("game-3.kif").exists(),
        "the second run found its own file"
    );
    // A user's file that took the first name before the run is kept too.
    let other = tempdir("rt1-other");
    std::fs::write(other.join("lion-game.kif"), "my notes").unwrap();
    let out = other.join("out.jsonl");
    let run = [
        "--input",
        &data("games.jsonl"),
        "--nodes",
        "300",
        "--kif",
        other.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ];
    analyse(&run);
    analyse(&[&run[..], &["--resume"]].concat());
    assert_eq!(
        std::fs::read_to_string(other.join("lion-game.kif")).unwrap(),
        "my notes"
    );
    assert!(other.join("lion-game-2.kif").exists());
    assert!(!other.join("lion-game-3.kif").exists());
}

#[test]
fn red_team_2_resume_never_gives_one_game_another_games_results() {
    // Two inputs with the same id into one output: the second game took the first one's
    // comments and judgements. Results are found by the position and the move.
    let dir = tempdir("rt2");
    let a = dir.join("a.jsonl");
    let b = dir.join("b.jsonl");
    std::fs::write(
        &a,
        "{\"id\":\"1\",\"variant\":\"chushogi\",\"moves\":\"7i7h 7d7e 7h7g\"}\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "{\"id\":\"1\",\"variant\":\"chushogi\",\"moves\":\"6i6h 6d6e 6h6g\"}\n",
    )
    .unwrap();
    let out = dir.join("out.jsonl");
    let run = |input: &std::path::Path| {
        analyse(&[
            "--input",
            input.to_str().unwrap(),
            "--nodes",
            "300",
            "--workers",
            "1",
            "--output",
            out.to_str().unwrap(),
            "--resume",
        ]);
    };
    run(&a);
    run(&b);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let played: Vec<&str> = lines.iter().filter_map(|l| l["played"].as_str()).collect();
    assert_eq!(played, ["7i7h", "7d7e", "7h7g", "6i6h", "6d6e", "6h6g"]);
    assert_eq!(
        lines.iter().filter(|l| l.get("summary").is_some()).count(),
        2
    );
}

/// Sets `field` of the first result line of `out` to `value`, as a hand that edits a results
/// file before `--resume` would.
fn forge_first_result(out: &std::path::Path, field: &str, value: serde_json::Value) {
    let text = std::fs::read_to_string(out).unwrap();
    let first = text.lines().next().unwrap();
    let mut line: serde_json::Value = serde_json::from_str(first).unwrap();
    line[field] = value;
    std::fs::write(out, text.replacen(first, &line.to_string(), 1)).unwrap();
}

#[test]
fn red_team_3_a_judgement_read_back_is_never_html() {
    // A `judgement` field read back by --resume went into the page unescaped.
    let dir = tempdir("rt3");
    let out = dir.join("out.jsonl");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    analyse(&base);
    forge_first_result(&out, "judgement", "<img src=x onerror=alert(1)>".into());
    let report = dir.join("html");
    let stderr = analyse_fails(
        &[
            &base[..],
            &["--resume", "--report", report.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(
        stderr.contains(
            "out.jsonl:1: the judgement \"<img src=x onerror=alert(1)>\" is none of Shishi's"
        ),
        "{stderr}"
    );
    assert!(!report.exists(), "nothing is written from a broken file");
}

#[test]
fn a_resumed_mate_note_is_checked_and_no_text_can_end_the_reports_script() {
    // Issue 55, case 5: a mate note read back unchecked, with only `</` escaped in the
    // page's data, left the report dead (no moves, no board) for `<!--<script>`.
    let dir = tempdir("mate-note");
    let out = dir.join("out.jsonl");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    analyse(&base);
    forge_first_result(
        &out,
        "mate",
        serde_json::json!({"result": "mate", "plies": 1, "line": "<!--<script>"}),
    );
    let report = dir.join("html");
    let out = Command::new(BIN)
        .arg("analyse")
        .args(&base)
        .args(["--resume", "--report", report.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "lion-game ply 1: the resumed mate line is not legal moves of its position; left out"
        ),
        "{stderr}"
    );
    let page = std::fs::read_to_string(report.join("lion-game.html")).unwrap();
    assert!(!page.contains("<!--") && !page.contains("mate in 1 plies"));
    // (The page's data escaping is tested where the page is made, analyse::report.)
}

#[test]
fn a_resumed_run_judges_by_its_own_thresholds() {
    // Issue 55, case 6: resuming a default run with lower thresholds searched nothing and
    // kept the old marks, while the report's footer stated the new thresholds.
    let dir = tempdir("rejudge");
    let out = dir.join("out.jsonl");
    let base = games_args(&out);
    let base: Vec<&str> = base.iter().map(String::as_str).collect();
    analyse(&base);
    let lost: Vec<i64> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["chancesLost"].as_i64())
        .collect();
    let marked = |low: i64| lost.iter().filter(|&&c| c >= low).count();
    let kif = dir.join("kif");
    let out = Command::new(BIN)
        .arg("analyse")
        .args(&base)
        .args([
            "--resume",
            "--inaccuracy",
            "1",
            "--mistake",
            "2",
            "--blunder",
            "3",
        ])
        .args(["--kif", kif.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = std::fs::read_to_string(kif.join("lion-game.kif")).unwrap();
    let count = |name: &str| text.matches(&format!(" ({name}): ")).count();
    assert_eq!(count("inaccuracy"), marked(1) - marked(2), "{text}");
    assert_eq!(count("mistake"), marked(2) - marked(3), "{text}");
    assert_eq!(count("blunder"), marked(3), "{text}");
    assert!(marked(1) > 0, "the low thresholds mark something: {lost:?}");
    if marked(1) > lost.iter().filter(|&&c| c >= 10).count() {
        assert!(
            stderr.contains("judged anew by this run's thresholds"),
            "{stderr}"
        );
    }
}

#[test]
fn red_team_9_a_right_to_left_override_cannot_turn_the_page_around() {
    let dir = tempdir("rt9");
    let input = dir.join("g.jsonl");
    std::fs::write(
        &input,
        "{\"id\":\"g\",\"variant\":\"chushogi\",\"moves\":\"7i7h\",\"sente\":\"\u{202e}ecila\",\"gote\":\"bob\"}\n",
    )
    .unwrap();
    let report = dir.join("html");
    analyse(&[
        "--input",
        input.to_str().unwrap(),
        "--nodes",
        "300",
        "--report",
        report.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(report.join("g.html")).unwrap();
    assert!(!page.contains('\u{202e}'));
    assert!(page.contains("<bdi>☗ ecila</bdi>"), "{page}");
}

#[test]
fn red_team_10_one_file_name_for_two_ids_loses_nothing_and_no_link_is_followed() {
    // Two ids mapping to one file name lost a KIF with 2 workers (check, then write); a
    // dangling symbolic link in the folder was written through.
    let dir = tempdir("rt10");
    let input = dir.join("g.jsonl");
    let games: String = ["a/b", "a?b", "a*b", "a:b", "a|b", "a\\\\b"]
        .iter()
        .map(|id| format!("{{\"id\":\"{id}\",\"variant\":\"chushogi\",\"moves\":\"7i7h\"}}\n"))
        .collect();
    std::fs::write(&input, games).unwrap();
    let kifs = dir.join("kif");
    std::fs::create_dir_all(&kifs).unwrap();
    let outside = dir.join("outside.txt");
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, kifs.join(shishi::analyse::kif_file_name("a/b"))).unwrap();
    for round in 0..5 {
        let out = dir.join(format!("out{round}.jsonl"));
        analyse(&[
            "--input",
            input.to_str().unwrap(),
            "--nodes",
            "200",
            "--workers",
            "2",
            "--kif",
            kifs.to_str().unwrap(),
            "--output",
            out.to_str().unwrap(),
            "--resume",
        ]);
        let kif_files = std::fs::read_dir(&kifs)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_type().unwrap().is_file())
            .count();
        assert_eq!(kif_files, 6, "round {round}");
    }
    assert!(!outside.exists());
}

#[test]
fn red_team_11_nonsense_options_are_refused_with_a_word() {
    let input = data("positions.txt");
    for (args, says) in [
        (vec!["--inaccuracy=-5"], "--inaccuracy"),
        (
            vec!["--inaccuracy", "30", "--blunder", "10"],
            "the thresholds must rise",
        ),
        (vec!["--multipv", "0"], "--multipv"),
        (vec!["--multipv", "1000"], "--multipv"),
        (vec!["--depth", "0"], "--depth"),
        (vec!["--nodes", "0"], "--nodes"),
        (vec!["--output", input.as_str()], "is the input file"),
    ] {
        let stderr = analyse_fails(&[&["--input", input.as_str()][..], &args].concat());
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn red_team_12_a_long_id_still_gets_its_kif_and_report() {
    let dir = tempdir("rt12");
    let input = dir.join("g.jsonl");
    let id = "x".repeat(300);
    std::fs::write(
        &input,
        format!("{{\"id\":\"{id}\",\"variant\":\"chushogi\",\"moves\":\"7i7h\"}}\n"),
    )
    .unwrap();
    analyse(&[
        "--input",
        input.to_str().unwrap(),
        "--nodes",
        "200",
        "--kif",
        dir.join("k").to_str().unwrap(),
        "--report",
        dir.join("r").to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_dir(dir.join("k")).unwrap().count(), 1);
    assert_eq!(std::fs::read_dir(dir.join("r")).unwrap().count(), 1);
}

#[test]
fn red_team_4_to_8_and_13_kif_input_is_read_as_written() {
    // A variation, a comment naming a move number, an event name with 十一 and 象, moves
    // after the end: the analysed game is the main line only, in the moves' variant.
    let dir = tempdir("rt4");
    let kif = "棋戦：第十一回 象棋会\n手数----指手---------消費時間--\n\
   1   8八歩兵 （←8九）\n*3手目は悪手\n   2   5五歩兵 （←5四）\n   3   投了\n\
まで2手で後手の勝ち\n\n変化：2手\n   2   7五歩兵 （←7四）\n";
    let input = dir.join("g.kif");
    std::fs::write(&input, kif).unwrap();
    let (results, _) = analyse(&["--input", input.to_str().unwrap(), "--nodes", "200"]);
    let played: Vec<&str> = results
        .iter()
        .filter_map(|r| r["played"].as_str())
        .collect();
    assert_eq!(played, ["8i8h", "5d5e"]);
    // A move after the ending: that game is refused with its line, the run goes on.
    let after = kif.replace("   3   投了\n", "   3   投了\n   3   7八歩兵 （←7九）\n");
    std::fs::write(&input, after).unwrap();
    let (results, stderr) = analyse(&["--input", input.to_str().unwrap(), "--nodes", "200"]);
    assert!(results.is_empty());
    assert!(
        stderr.contains("g.kif:7: a move after the game's end (line 6)"),
        "{stderr}"
    );
}

/// A page's review (the USI `review` command, issue 60) is `shishi analyse` on the same
/// game and limits: the same result line for every ply, the same summary, and the same
/// annotated KIF, byte for byte.
#[test]
fn a_review_over_usi_gives_what_shishi_analyse_gives() {
    let dir = tempdir("review");
    let kif = data("game.kif");
    let (lines, _) = analyse(&[
        "--input",
        &kif,
        "--nodes",
        "20000",
        "--kif",
        dir.to_str().unwrap(),
    ]);
    let mut e = crate::common::Engine::start_usi();
    let text = std::fs::read_to_string(&kif).unwrap();
    let encoded = crate::common::percent_encode(&text);
    e.send(&format!("review nodes 20000 kif {encoded}"));
    e.until(60.0, |l| l == "reviewok");
    let review = |prefix: &str| -> Vec<serde_json::Value> {
        e.seen
            .iter()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|json| serde_json::from_str(json).expect("JSON"))
            .collect()
    };
    let without_id = |mut v: serde_json::Value| {
        v.as_object_mut().unwrap().remove("id");
        v
    };
    let plies: Vec<serde_json::Value> = review("review ply ")
        .into_iter()
        .map(|p| without_id(p["line"].clone()))
        .collect();
    let cli_plies: Vec<serde_json::Value> = lines
        .iter()
        .filter(|l| l.get("ply").is_some())
        .map(|l| without_id(l.clone()))
        .collect();
    assert_eq!(plies.len(), 4);
    assert_eq!(plies, cli_plies);
    // What the page shows of each ply: the mark with lishogi's words, sente's evaluation.
    let shown = review("review ply ");
    assert_eq!(shown[3]["judgement"]["glyph"], "?!");
    assert_eq!(shown[3]["judgement"]["words"], "Inaccuracy");
    assert_eq!(shown[3]["eval"]["text"], "+1.58");
    assert!(shown[3]["kif"].as_str().unwrap().starts_with("☖7六歩兵"));
    let summary = review("review summary ").remove(0);
    let cli_summary = lines.iter().find(|l| l.get("summary").is_some()).unwrap();
    assert_eq!(
        without_id(summary["line"].clone()),
        without_id(cli_summary.clone())
    );
    assert_eq!(summary["critical"], serde_json::json!([2, 4]));
    assert_eq!(summary["analysed"], 4);
    assert_eq!(summary["stopped"], false);
    assert_eq!(summary["result"], "0-1");
    let kif_lines: Vec<&str> = e
        .seen
        .iter()
        .filter_map(|l| l.strip_prefix("review kif "))
        .collect();
    let written = std::fs::read_to_string(dir.join("game.kif")).unwrap();
    assert_eq!(kif_lines.join("\n") + "\n", written);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `stop` ends a review after the ply being searched; it says how far it came, and the
/// engine goes on as before. A review that has no game says why and ends at once.
#[test]
fn a_review_stops_when_told_and_says_how_far_it_came() {
    let mut e = crate::common::Engine::start_usi();
    e.send("position startpos moves 7i7h 6d6e 6j9g 7c4f 7k7i 6c8e 7j5h 5d5e");
    e.send("review nodes 1000000");
    e.until(60.0, |l| l.starts_with("review ply "));
    e.send("stop");
    e.until(30.0, |l| l == "reviewok");
    let summary = e
        .last_seen("review summary ")
        .expect("a summary")
        .to_string();
    let summary: serde_json::Value =
        serde_json::from_str(summary.strip_prefix("review summary ").unwrap()).unwrap();
    assert_eq!(summary["stopped"], true);
    assert_eq!(summary["plies"], 8);
    let analysed = summary["analysed"].as_u64().unwrap();
    let said = e
        .seen
        .iter()
        .filter(|l| l.starts_with("review ply "))
        .count();
    assert!(
        (1..8).contains(&analysed) && said as u64 == analysed,
        "{summary}"
    );
    // The engine goes on: a search answers.
    e.send("go depth 2");
    e.until(30.0, |l| l.starts_with("bestmove"));
    // Nothing to review: said, and done.
    e.send("position sfen nonsense");
    e.send("review");
    let error = e.until(10.0, |l| l.starts_with("info string error: review"));
    assert!(error.contains("no position"), "{error}");
    e.until(10.0, |l| l == "reviewok");
    e.send("review depth 0");
    let usage = e.until(10.0, |l| l.starts_with("info string error: usage: review"));
    assert!(usage.contains("depth D (1 to 120)"), "{usage}");
}
