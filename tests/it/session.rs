//! The engine session's answers over USI, each replaying what a client really sends
//! (Lishogi-Bot, shoginet, GUIs): nothing kills the engine, and every answer belongs to the
//! position it was asked about.

use crate::common::Engine;
use shishi::position::Position;
use shishi::variant::Variant;
use std::time::{Duration, Instant};

/// Gote's king on 6a next to sente's gold on 6b: sente takes it with 6b6a.
const KING_EN_PRISE: &str = "6k5/6G5/12/12/12/12/12/12/12/pp10/12/6K5 b - 1";

fn legal_in(sfen: &str, mv: &str) -> bool {
    let mut pos = Position::from_sfen(Variant::chu(), sfen).unwrap();
    pos.parse_usi_move(mv).is_ok()
}

/// The lines of one search: from `go` to its `bestmove`, and how long it took.
fn search(e: &mut Engine, go: &str, secs: f64) -> (Vec<String>, Duration) {
    let from = e.seen.len();
    let start = Instant::now();
    e.send(go);
    e.until(secs, |l| l.starts_with("bestmove"));
    (e.seen[from..].to_vec(), start.elapsed())
}

#[test]
fn any_setoption_during_or_right_after_a_search_is_safe() {
    let mut e = Engine::start();
    let options = [
        "USI_Variant value chushogi",
        "USI_Ponder value true",
        "ResignWhenLost value false",
        "AvoidRepetition value true",
        "Frobnicate value 1",
        "USI_Hash value 8",
        "Threads value 2",
        "MultiPV value 1",
        "Clear Hash",
    ];
    for option in options {
        e.send("position startpos");
        e.send("go infinite");
        e.until(10.0, |l| l.starts_with("info depth"));
        e.send(&format!("setoption name {option}"));
        e.send("stop");
        e.until(5.0, |l| l.starts_with("bestmove"));
    }
    // A GUI that sends setoption the moment bestmove arrives (it came 8 times in 9).
    for option in options {
        e.send("position startpos");
        e.send("go depth 1");
        e.until(5.0, |l| l.starts_with("bestmove"));
        e.send(&format!("setoption name {option}"));
    }
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
    assert_eq!(e.close_and_wait(5.0), 0);
}

#[test]
fn non_ascii_sfen_fields_are_errors_not_crashes() {
    let mut e = Engine::start();
    let board = "lfcsgekgscfl/a1b1txot1b1a/rvhdqnmqdhvr/12/12/12/12/12/RVHDQNMQDHVR/A1B1TOXT1B1A/LFCSGKEGSCFL/12";
    for field in ["駒", "1駒", "é", "a駒"] {
        e.send(&format!("position sfen {board} b {field} 1"));
        e.until(5.0, |l| l.starts_with("info string error"));
    }
    e.send("isready");
    e.until(5.0, |l| l == "readyok");
}

#[test]
fn decimal_movetime_is_a_movetime() {
    // Lishogi-Bot writes its configured move time as `go movetime 1000.0`.
    let mut e = Engine::start();
    e.send("position startpos");
    let (lines, took) = search(&mut e, "go movetime 1000.0", 20.0);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(!lines.iter().any(|l| l.contains("warning")), "{lines:#?}");
}

#[test]
fn a_finished_game_is_answered_and_not_played_on() {
    let mut e = Engine::start();
    e.send(&format!("position sfen {KING_EN_PRISE} moves 6b6a"));
    let (lines, _) = search(&mut e, "go movetime 500", 5.0);
    assert!(
        lines.contains(&"info depth 0 score mate 0".to_string()),
        "{lines:#?}"
    );
    // The end says why and who won.
    assert!(
        lines.iter().any(|l| l.starts_with("info string the game is over (")
            && l.contains("; sente wins)")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove resign");
    e.send("moves");
    assert_eq!(e.until(5.0, |l| l.starts_with("moves")), "moves");
    // A move after the end is refused, and then there is no position.
    e.send(&format!("position sfen {KING_EN_PRISE} moves 6b6a 11j11k"));
    e.until(5.0, |l| l.contains("already over"));
    let (lines, _) = search(&mut e, "go depth 1", 5.0);
    assert_eq!(lines.last().unwrap(), "bestmove resign");
    // A bare king is a finished game too; a drawn position answers cp 0.
    e.send("position sfen 6k5/12/12/12/12/12/12/12/12/12/12/5GK5 w - 1");
    let (lines, _) = search(&mut e, "go depth 3", 5.0);
    assert!(
        lines.contains(&"info depth 0 score mate 0".to_string()),
        "{lines:#?}"
    );
    e.send("position sfen 6k5/12/12/12/12/12/12/12/12/12/12/6K5 b - 1");
    let (lines, _) = search(&mut e, "go depth 3", 5.0);
    assert!(
        lines.contains(&"info depth 0 score cp 0".to_string()),
        "{lines:#?}"
    );
}

#[test]
fn sho_king_and_prince_against_a_lone_king_is_a_bare_king() {
    // Issue 58: the session (and so USI, XBoard, match and analyse, which share
    // `Position::outcome`) ends a sho game where a promotion leaves a lone king against
    // king and crown prince; the search finds that capture-promotion as the win.
    let mut e = Engine::start();
    e.send("setoption name USI_Variant value shoshogi");
    e.send("position sfen 4k4/9/3s5/4E4/9/9/9/9/4K4 b - 1");
    let (lines, _) = search(&mut e, "go depth 4", 10.0);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove 5d6c+");
    e.send("position sfen 4k4/9/3s5/4E4/9/9/9/9/4K4 b - 1 moves 5d6c+");
    let (lines, _) = search(&mut e, "go depth 3", 5.0);
    assert!(
        lines.contains(
            &"info string the game is over (bare king; sente wins); nothing to search".to_string()
        ),
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove resign");
}

/// `(depth, score, bound, pv)` of an info line with a pv.
fn parse_info(line: &str) -> Option<(u32, String, bool, Vec<String>)> {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.first() != Some(&"info") {
        return None;
    }
    let at = |k: &str| t.iter().position(|&x| x == k);
    let depth = t[at("depth")? + 1].parse().ok()?;
    let s = at("score")?;
    let score = format!("{} {}", t[s + 1], t[s + 2]);
    let bound = line.contains("lowerbound") || line.contains("upperbound");
    let pv = t[at("pv")? + 1..].iter().map(|s| s.to_string()).collect();
    Some((depth, score, bound, pv))
}

#[test]
fn the_last_info_line_is_the_answer_after_a_stop() {
    let mut e = Engine::start();
    let positions = [
        "position startpos",
        "position startpos moves 8i8h 5d5e 7j8i 6c5d 8i8g 5d6e 8g7f 6e6f",
        "position sfen 12/6k5/7n4/12/12/6N5/6+F5/12/12/4CTT5/4SKE5/5GF5 b - 1",
    ];
    for (i, position) in positions.iter().cycle().take(9).enumerate() {
        e.send(position);
        let from = e.seen.len();
        e.send("go infinite");
        e.until(10.0, |l| l.starts_with("info depth 2"));
        std::thread::sleep(Duration::from_millis(50 + 97 * i as u64));
        e.send("stop");
        let best = e.until(5.0, |l| l.starts_with("bestmove")).clone();
        let infos: Vec<_> = e.seen[from..]
            .iter()
            .filter_map(|l| parse_info(l))
            .collect();
        let last = infos.last().expect("info lines");
        let best_move = best.split_whitespace().nth(1).unwrap();
        assert_eq!(
            best_move, last.3[0],
            "bestmove is the last pv's head: {infos:#?}"
        );
        // An exact last line is one the search finished (the same line at its depth), or a
        // better first move of the stopped iteration with its exact score: then no earlier
        // exact line has its depth (a bound for it may have been reported).
        let deepest_exact = infos.iter().filter(|i| !i.2).map(|i| i.0).max().unwrap();
        if !last.2 {
            assert_eq!(last.0, deepest_exact, "{infos:#?}");
            assert!(
                infos.iter().rev().skip(1).any(|i| i == last) || infos.len() == 1 || {
                    !infos[..infos.len() - 1]
                        .iter()
                        .any(|i| i.0 == last.0 && !i.2)
                },
                "the last line repeats its depth with another result: {infos:#?}"
            );
        } else {
            assert_eq!(last.0, deepest_exact + 1, "{infos:#?}");
        }
    }
}

#[test]
fn a_search_stopped_before_any_depth_claims_no_mate() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go mate infinite");
    e.send("stop");
    let answer = e.until(5.0, |l| l.starts_with("checkmate"));
    assert!(
        answer == "checkmate timeout" || answer == "checkmate nomate",
        "{answer}"
    );
    e.send("go nodes 1");
    let lines_from = e.seen.len();
    let best = e.until(5.0, |l| l.starts_with("bestmove")).clone();
    assert!(!e.seen[lines_from..].iter().any(|l| l.contains("mate")));
    assert!(legal_in(
        Variant::chu().spec.start_sfen,
        best.split_whitespace().nth(1).unwrap()
    ));
}

#[test]
fn a_found_mate_is_reported_once_and_ends_a_timed_search() {
    let mut e = Engine::start();
    // Sente takes gote's last royal at once: mate in 1 ply, found at depth 1, and every
    // deeper iteration finds the same line.
    e.send(&format!("position sfen {KING_EN_PRISE}"));
    let (lines, took) = search(&mut e, "go movetime 20000", 30.0);
    let mates: Vec<_> = lines
        .iter()
        .filter(|l| l.contains("score mate 1 "))
        .collect();
    assert!(!mates.is_empty() && mates.len() <= 2, "{lines:#?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove 6b6a"),
        "{lines:#?}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    // `go infinite` goes on until stop, but does not flood either.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let (lines, _) = search(&mut e, "stop", 5.0);
    assert!(lines.len() <= 4, "{lines:#?}");
}

#[test]
fn clocks_the_clients_send_are_kept() {
    let mut e = Engine::start();
    e.send("position startpos moves 8i8h 5d5e");
    // movestogo 0 is no count: not "spend the whole clock".
    let (_, took) = search(&mut e, "go btime 60000 wtime 60000 movestogo 0", 70.0);
    assert!(took < Duration::from_secs(15), "{took:?}");
    // A stray ponderhit does not restart a normal search's clock.
    e.send("go movetime 600");
    std::thread::sleep(Duration::from_millis(400));
    let (_, took) = search(&mut e, "ponderhit", 5.0);
    assert!(took < Duration::from_millis(800), "{took:?}");
    // Byoyomi only: the answer comes inside it (the engine plans at most 2655 ms of 3000;
    // the rest is slack for a loaded machine).
    let (_, took) = search(&mut e, "go btime 0 wtime 0 byoyomi 3000", 10.0);
    assert!(took < Duration::from_millis(3000), "{took:?}");
}

#[test]
fn the_settled_time_adjustment_stays_within_the_clock() {
    let mut e = Engine::start();
    e.send("setoption name Tune_time_adjust value 1");
    e.send("position startpos moves 8i8h 5d5e");
    // The adjusted soft limit still ends within the hard limit (at most 80% of the 3 s
    // left; the rest is slack for a loaded machine).
    let (lines, took) = search(&mut e, "go btime 3000 wtime 3000 binc 100 winc 100", 10.0);
    assert!(
        !lines.iter().any(|l| l.contains("error")),
        "the option is known: {lines:#?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:#?}");
    assert!(took < Duration::from_millis(3000), "{took:?}");
}

#[test]
fn many_threads_and_lines_still_answer() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 256");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if 256 > 4 * cores {
        e.until(5.0, |l| {
            l.contains("Threads 256: this machine has cores for")
        });
    }
    e.send("position startpos");
    e.send("isready");
    e.until(10.0, |l| l == "readyok");
    let (_, took) = search(&mut e, "go movetime 100", 10.0);
    assert!(took < Duration::from_secs(2), "{took:?}");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let (_, took) = search(&mut e, "stop", 10.0);
    assert!(took < Duration::from_secs(1), "{took:?}");
    e.send("setoption name Threads value 1");
    e.send("setoption name MultiPV value 64");
    let (lines, _) = search(&mut e, "go depth 3", 30.0);
    // The start position has 36 legal moves: one line each.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("depth 3 ") && l.contains("multipv 36 ")),
        "{lines:#?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("multipv 37 ")),
        "{lines:#?}"
    );
}

#[test]
fn a_crowded_position_answers_depth_one_quickly() {
    // Every piece of both armies face to face: quiescence must stay bounded.
    let mut e = Engine::start();
    e.send("position sfen lfcsgekgscfl/a1b1txot1b1a/rvhdqnmqdhvr/RVHDQNMQDHVR/pppppppppppp/PPPPPPPPPPPP/pppppppppppp/PPPPPPPPPPPP/rvhdqnmqdhvr/RVHDQNMQDHVR/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1");
    let (lines, took) = search(&mut e, "go depth 1", 30.0);
    let nodes: u64 = lines
        .iter()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let i = t.iter().position(|&x| x == "nodes")?;
            t[i + 1].parse().ok()
        })
        .max()
        .unwrap();
    assert!(nodes < 200_000, "{nodes} nodes in {took:?}");
}

#[test]
fn isready_waits_for_a_new_hash_table() {
    // shoginet sets USI_Hash, waits for readyok, and then gives each ply a short movetime:
    // the table must be built by then, or the first search spends its time waiting for it
    // and answers with no info line at all.
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 768");
    e.send("isready");
    e.until(60.0, |l| l == "readyok");
    e.send("position startpos moves 7j7h 6c8e");
    let (lines, _) = search(&mut e, "go movetime 300 depth 20 nodes 1250000", 20.0);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "no finished iteration after readyok: {lines:?}"
    );
}

/// Resident memory of a process in kB (Linux): now (`VmRSS`) or at its peak (`VmHWM`).
#[cfg(target_os = "linux")]
fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn an_overlong_first_line_is_skipped_like_any_other() {
    // The protocol is chosen by the first line, which was read whole, with no limit (and,
    // over 1 MB, answered as an unknown command).
    let mut e = Engine::start();
    let before = memory_kb(e.pid(), "VmHWM");
    e.send(&"a".repeat(64 << 20));
    e.send("isready");
    e.until(30.0, |l| l == "readyok");
    assert!(
        e.seen.iter().any(|l| l
            == "info string error: an input line of 67108865 bytes was ignored (too long: at most 1048576 bytes)"),
        "{:?}",
        e.seen
    );
    let after = memory_kb(e.pid(), "VmHWM");
    assert!(
        after < before + 16 * 1024,
        "peak RSS {before} kB before the line, {after} kB after"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn an_overlong_line_is_refused_and_its_memory_not_kept() {
    // Issue 29, finding 14: a 200 MB input line raised RSS from 68 MB to 268 MB (the rest
    // of the line was read into a buffer before it was dropped). Not even the peak grows now.
    let mut e = Engine::start_usi();
    e.send("isready");
    e.until(10.0, |l| l == "readyok");
    let before = memory_kb(e.pid(), "VmHWM");
    let long = "a".repeat(200 << 20);
    e.send(&long);
    drop(long);
    e.send("isready");
    e.until(30.0, |l| l == "readyok");
    assert!(
        e.seen
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("too long")),
        "{:?}",
        e.seen
    );
    let after = memory_kb(e.pid(), "VmHWM");
    assert!(
        after < before + 16 * 1024,
        "peak RSS {before} kB before the line, {after} kB after"
    );
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove(10.0);
}

#[cfg(target_os = "linux")]
#[test]
fn a_big_hash_is_ready_at_once_and_go_mate_stays_within_it() {
    // Issue 29, findings 2 and 3: with USI_Hash 4096, isready took 12 s (the table written
    // entry by entry), go mate 300 took 12.8 s (its own table as large again, made inside
    // the go) and RSS peaked at 8.4 GB. The tables now come zeroed from the allocator and
    // go mate borrows the search table's memory.
    let mut e = Engine::start_usi();
    let asked = Instant::now();
    e.send("setoption name USI_Hash value 4096");
    e.send("isready");
    e.until(60.0, |l| l == "readyok");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    for go in ["go mate 300", "go mate 1000"] {
        e.send("position startpos");
        let asked = Instant::now();
        e.send(go);
        e.until(60.0, |l| l.starts_with("checkmate"));
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{go}: {:?}",
            asked.elapsed()
        );
    }
    e.send("go depth 6");
    e.bestmove(30.0);
    // Only what was used is resident: far below the 4 GB asked for, let alone twice that.
    let peak = memory_kb(e.pid(), "VmHWM");
    assert!(peak < 1 << 20, "peak RSS {peak} kB");
}

#[cfg(target_os = "linux")]
#[test]
fn a_hash_table_up_to_a_gigabyte_is_backed_by_huge_pages() {
    // Where the kernel gives huge pages on request (transparent huge pages in `madvise` or
    // `always` mode), the hash table asks for them: a 64 MB table that a search has filled
    // is held in them. A kernel that never gives them has nothing to check.
    let mode =
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    if !(mode.contains("[madvise]") || mode.contains("[always]")) {
        return;
    }
    let mut e = Engine::start_usi();
    e.send("setoption name USI_Hash value 64");
    e.send("isready");
    e.until(30.0, |l| l == "readyok");
    e.send("position startpos");
    e.send("go nodes 300000");
    e.bestmove(60.0);
    let smaps = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", e.pid())).unwrap();
    let huge_kb: u64 = smaps
        .lines()
        .find_map(|l| l.strip_prefix("AnonHugePages:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    assert!(huge_kb >= 32 * 1024, "{huge_kb} kB in huge pages");
}
