//! An engine process driven over USI (lishogi's dialect) or CECP (the XBoard mapping of the
//! rules file), asynchronously with deadlines: a reply that does not come in time is a hang,
//! a closed stdout a crash.

pub use super::error::EngineError;
use super::error::{ArgumentProblem, MatchError};
use super::time_control::TimeControl;
use crate::position::Position;
use crate::variant::Variant;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::{timeout_at, Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// USI.
    Usi,
    /// CECP (XBoard/WinBoard).
    Cecp,
}

/// How to start an engine:
/// `cmd=PATH,proto=usi|cecp,name=NAME[,arg=ARG][,option.X=Y][,tc=BASE+INC]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Program.
    pub cmd: String,
    /// Arguments, in order.
    pub args: Vec<String>,
    /// Protocol.
    pub proto: Proto,
    /// Name in records and tables.
    pub name: String,
    /// Options: USI `setoption`, CECP `option NAME=VALUE` (`memory` and `cores` become
    /// the CECP commands of those names).
    pub options: Vec<(String, String)>,
    /// Its own Fischer clock (time odds), instead of the match's.
    pub tc: Option<TimeControl>,
    /// Hash memory, MB, for an XBoard engine that asks for it (`feature memory=1`) and
    /// has no `option.memory`: the match's `--hash`.
    pub hash_mb: u64,
}

/// XBoard's own default hash size, MB: what an XBoard engine gets when the match names
/// none.
pub const DEFAULT_HASH_MB: u64 = 64;

impl EngineSpec {
    /// Parses the `--engine` value.
    pub fn parse(text: &str) -> Result<EngineSpec, MatchError> {
        let mut spec = EngineSpec {
            cmd: String::new(),
            args: Vec::new(),
            proto: Proto::Usi,
            name: String::new(),
            options: Vec::new(),
            tc: None,
            hash_mb: DEFAULT_HASH_MB,
        };
        for part in text.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| argument(ArgumentProblem::NotKeyValue(part.to_string())))?;
            match key {
                "cmd" => spec.cmd = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                "name" => spec.name = value.to_string(),
                "tc" => spec.tc = Some(TimeControl::fischer(value)?),
                "proto" => {
                    spec.proto = match value {
                        "usi" => Proto::Usi,
                        "cecp" | "xboard" => Proto::Cecp,
                        _ => return Err(argument(ArgumentProblem::Proto(value.to_string()))),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(argument(ArgumentProblem::UnknownKey {
                            key: key.to_string(),
                            known: "cmd, proto, name, arg, option.NAME, tc",
                        }))
                    }
                },
            }
        }
        if spec.cmd.is_empty() {
            return Err(argument(ArgumentProblem::NoCommand));
        }
        if spec.name.is_empty() {
            spec.name = std::path::Path::new(&spec.cmd)
                .file_name()
                .map_or(spec.cmd.clone(), |n| n.to_string_lossy().into_owned());
        }
        Ok(spec)
    }
}

/// What an engine answered when asked for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move in the engine's notation (USI text, or XBoard legs joined).
    Move(String),
    /// It resigned (USI `bestmove resign`, CECP `resign` or a result claim, whose line is
    /// kept).
    Resign(Option<String>),
}

/// A running engine.
pub struct Engine {
    /// How it was started.
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::UnboundedReceiver<String>,
    /// CECP: plies of the game the engine already knows.
    known_plies: usize,
    /// CECP: the engine has been told `go` (it plays a side).
    playing: bool,
    /// The engine's last evaluation (`+0.35/12` style), for records.
    pub last_eval: Option<String>,
    /// Lines the engine sent that the runner did not expect (for debugging).
    pub unexpected: Vec<String>,
}

/// Time to start and to answer `usi`/`isready`/`protover`.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Whether a line is an XBoard engine's answer to a command it does not know (or its
/// feature list): the sign that a USI handshake went to an XBoard engine.
fn looks_like_xboard(line: &str) -> bool {
    [
        "feature ",
        // `Error (unknown command): usi` as the protocol has it; HaChu says `Error: ...`.
        "Error",
        "Illegal move",
        "tellusererror",
        "telluser ",
        // XBoard engines' debug output (HaChu echoes its input so).
        "# ",
    ]
    .iter()
    .any(|w| line.starts_with(w))
}

/// The commands that set an XBoard engine up after `protover 2`, as XBoard sends them:
/// `memory` and `cores` to an engine whose `features` offer them (`memory=1`, `smp=1`),
/// from the spec's `option.memory` / `option.cores` or else the match's hash and one core
/// (HaChu without `memory` refuses legal moves and dies); then its other options.
fn cecp_setup(spec: &EngineSpec, features: &[String]) -> Vec<String> {
    let offers = |feature: &str| {
        features
            .iter()
            .any(|l| l.split_whitespace().any(|w| w == feature))
    };
    let given = |name: &str| spec.options.iter().any(|(n, _)| n == name);
    let mut commands = Vec::new();
    if offers("memory=1") && !given("memory") {
        commands.push(format!("memory {}", spec.hash_mb));
    }
    if offers("smp=1") && !given("cores") {
        commands.push("cores 1".to_string());
    }
    for (name, value) in &spec.options {
        commands.push(match name.as_str() {
            "memory" | "cores" => format!("{name} {value}"),
            _ => format!("option {name}={value}"),
        });
    }
    commands
}

/// Starts an engine, does its handshake and quits it: a match checks every engine so
/// before its first game. The error says what happened.
pub async fn check_starts(spec: &EngineSpec) -> Result<(), MatchError> {
    match Engine::start(spec).await {
        Ok(engine) => {
            engine.quit().await;
            Ok(())
        }
        Err(error) => Err(MatchError::EngineStart {
            name: spec.name.clone(),
            cmd: spec.cmd.clone(),
            error,
        }),
    }
}

/// An `--engine` value's error.
fn argument(problem: ArgumentProblem) -> MatchError {
    MatchError::Argument {
        flag: "--engine",
        problem,
    }
}

impl Engine {
    /// Starts the engine and does the protocol handshake.
    pub async fn start(spec: &EngineSpec) -> Result<Engine, EngineError> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Start(format!("{}: {e}", spec.cmd)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            // Bytes, not text: an engine may print a line that is not UTF-8 (Shift-JIS in
            // an `info string`); that is no crash, and the line is read with replacements.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\r', '\n']).to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            known_plies: 0,
            playing: false,
            last_eval: None,
            unexpected: Vec::new(),
        };
        let deadline = Instant::now() + HANDSHAKE;
        match spec.proto {
            Proto::Usi => {
                engine.send("usi").await?;
                // An XBoard engine answers `usi` with an error at once: no need to wait.
                match engine
                    .wait_for(deadline, |l| l == "usiok" || looks_like_xboard(l))
                    .await
                {
                    Ok(line) if line == "usiok" => {}
                    Ok(line) => {
                        engine.unexpected.push(line);
                        return Err(engine.handshake_failed(EngineError::Timeout));
                    }
                    Err(e) => return Err(engine.handshake_failed(e)),
                }
                for (name, value) in spec.options.clone() {
                    engine
                        .send(&format!("setoption name {name} value {value}"))
                        .await?;
                }
            }
            Proto::Cecp => {
                engine.send("xboard").await?;
                engine.send("protover 2").await?;
                // Engines that never send done=1 get two seconds, as XBoard gives them.
                let short = Instant::now() + Duration::from_secs(2);
                let mut features = Vec::new();
                let _ = engine
                    .wait_for(short.min(deadline), |l| {
                        if l.starts_with("feature ") {
                            features.push(l.to_string());
                        }
                        l.contains("done=1")
                    })
                    .await;
                for command in cecp_setup(spec, &features) {
                    engine.send(&command).await?;
                }
            }
        }
        engine.ready(deadline).await?;
        Ok(engine)
    }

    /// Why a USI handshake failed, with a hint when the engine looks like an XBoard engine
    /// (it answered `usi` with XBoard words, or not at all, as XBoard engines wait for
    /// `xboard`).
    fn handshake_failed(&self, error: EngineError) -> EngineError {
        let xboardish = self.unexpected.iter().any(|l| looks_like_xboard(l));
        let what = match error {
            EngineError::Crashed(_) | EngineError::ClosedOutput => {
                "it exited during the USI handshake (usi/usiok)"
            }
            _ if xboardish => "it answered usi as an XBoard engine does",
            _ => "it did not answer usi with usiok within 10 s",
        };
        if xboardish || self.unexpected.is_empty() {
            EngineError::Handshake(format!(
                "{what}; if it is an XBoard engine, add proto=cecp to its --engine"
            ))
        } else {
            EngineError::Handshake(what.to_string())
        }
    }

    async fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let written = async {
            self.stdin.write_all(line.as_bytes()).await?;
            self.stdin.write_all(b"\n").await?;
            self.stdin.flush().await
        }
        .await;
        match written {
            Ok(()) => Ok(()),
            Err(_) => Err(self.lost().await),
        }
    }

    /// Why the engine's pipes closed: its process exited ([`EngineError::Crashed`], with
    /// the status), or it lives on with its output closed. An engine that closes its output
    /// just before it exits is given half a second to do so.
    async fn lost(&mut self) -> EngineError {
        match tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await {
            Ok(Ok(status)) => EngineError::Crashed(status.to_string()),
            _ => EngineError::ClosedOutput,
        }
    }

    /// Reads lines until one matches; notes evaluations on the way.
    async fn wait_for(
        &mut self,
        deadline: Instant,
        mut pred: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            match timeout_at(deadline, self.lines.recv()).await {
                Err(_) => return Err(EngineError::Timeout),
                Ok(None) => return Err(self.lost().await),
                Ok(Some(line)) => {
                    let line = line.trim().to_string();
                    if pred(&line) {
                        return Ok(line);
                    }
                    self.note(&line);
                }
            }
        }
    }

    /// Keeps the last evaluation the engine printed.
    fn note(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match self.spec.proto {
            Proto::Usi if words.first() == Some(&"info") => {
                let field = |k: &str| {
                    words
                        .iter()
                        .position(|w| *w == k)
                        .and_then(|i| words.get(i + 1))
                };
                // Only numbers are kept: an engine's words go into every record.
                let number = |w: Option<&&str>| w.and_then(|w| w.parse::<i64>().ok());
                if let (Some(depth), Some(kind), Some(value)) = (
                    number(field("depth")),
                    field("score"),
                    number(
                        words
                            .iter()
                            .position(|w| *w == "score")
                            .and_then(|i| words.get(i + 2)),
                    ),
                ) {
                    self.last_eval = match *kind {
                        "mate" => Some(format!("mate {value}/{depth}")),
                        "cp" => Some(format!("{:+.2}/{depth}", value as f64 / 100.0)),
                        _ => None,
                    };
                }
            }
            Proto::Cecp
                if words.len() >= 4
                    && words[0].parse::<u32>().is_ok()
                    && words[1].parse::<i32>().is_ok() =>
            {
                let score: i32 = words[1].parse().unwrap_or(0);
                self.last_eval = Some(if score.abs() >= 100_000 {
                    format!(
                        "mate {}/{}",
                        score.signum() * (score.abs() - 100_000),
                        words[0]
                    )
                } else {
                    format!("{:+.2}/{}", score as f64 / 100.0, words[0])
                });
            }
            _ => {
                if self.unexpected.len() < 20 {
                    self.unexpected.push(line.to_string());
                }
            }
        }
    }

    async fn ready(&mut self, deadline: Instant) -> Result<(), EngineError> {
        match self.spec.proto {
            Proto::Usi => {
                self.send("isready").await?;
                self.wait_for(deadline, |l| l == "readyok")
                    .await
                    .map(|_| ())
            }
            Proto::Cecp => {
                self.send("ping 1").await?;
                self.wait_for(deadline, |l| l.starts_with("pong"))
                    .await
                    .map(|_| ())
            }
        }
    }

    /// Prepares a new game from `initial` (an SFEN of `variant`) with the given clock
    /// setting for CECP (`level` / `st` line).
    pub async fn new_game(
        &mut self,
        variant: &Variant,
        initial: &str,
        cecp_level: &str,
    ) -> Result<(), EngineError> {
        self.known_plies = 0;
        self.playing = false;
        self.last_eval = None;
        let deadline = Instant::now() + HANDSHAKE;
        match self.spec.proto {
            Proto::Usi => {
                self.send(&format!(
                    "setoption name USI_Variant value {}",
                    variant.name()
                ))
                .await?;
                self.send("usinewgame").await?;
            }
            Proto::Cecp => {
                self.send("new").await?;
                // XBoard's name of the variant (its data's first).
                self.send(&format!("variant {}", variant.spec.xboard.names[0]))
                    .await?;
                self.send("force").await?;
                if initial != variant.spec.start_sfen {
                    let fields: Vec<&str> = initial.split_whitespace().collect();
                    let side = if fields.get(1) == Some(&"w") {
                        "b"
                    } else {
                        "w"
                    };
                    self.send(&format!("setboard {} {side} 0 1", fields[0]))
                        .await?;
                }
                self.send(cecp_level).await?;
                self.send("post").await?;
                self.send("easy").await?;
            }
        }
        self.ready(deadline).await
    }

    /// Asks for a move in the game `moves` (USI texts, from `initial`), with the engine's
    /// clock arguments; waits until `deadline`.
    pub async fn think(
        &mut self,
        pos: &Position,
        initial: &str,
        moves: &[String],
        usi_go: &str,
        cecp_clock: (u64, u64),
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        self.last_eval = None;
        match self.spec.proto {
            Proto::Usi => {
                self.send(&format!(
                    "position sfen {initial} moves {}",
                    moves.join(" ")
                ))
                .await?;
                self.send(&format!("go {usi_go}")).await?;
                let line = self
                    .wait_for(deadline, |l| l.starts_with("bestmove"))
                    .await?;
                Ok(match line.split_whitespace().nth(1) {
                    Some("resign") | None => Reply::Resign(None),
                    Some(mv) => Reply::Move(mv.to_string()),
                })
            }
            Proto::Cecp => {
                // Replay what the engine has not seen, as XBoard would.
                let replay = replay_positions(pos, moves, self.known_plies);
                let (own_cs, other_cs) = cecp_clock;
                if !self.playing {
                    for legs in &replay {
                        self.send(&format!("usermove {legs}")).await?;
                    }
                    self.send(&format!("time {own_cs}")).await?;
                    self.send(&format!("otim {other_cs}")).await?;
                    self.send("go").await?;
                    self.playing = true;
                } else {
                    self.send(&format!("time {own_cs}")).await?;
                    self.send(&format!("otim {other_cs}")).await?;
                    for legs in &replay {
                        self.send(&format!("usermove {legs}")).await?;
                    }
                }
                self.known_plies = moves.len() + 1;
                let mut text = String::new();
                loop {
                    let line = self
                        .wait_for(deadline, |l| {
                            l.starts_with("move ")
                                || l == "resign"
                                || l.starts_with("1-0")
                                || l.starts_with("0-1")
                                || l.starts_with("1/2-1/2")
                                || l.starts_with("Illegal move")
                        })
                        .await?;
                    if let Some(rest) = line.strip_prefix("move ") {
                        text += rest.trim();
                        if !rest.trim_end().ends_with(',') {
                            return Ok(Reply::Move(text));
                        }
                    } else if line.starts_with("Illegal move") {
                        // The engine refused a move the rules allow: it cannot go on.
                        self.unexpected.push(line);
                        return Ok(Reply::Resign(None));
                    } else {
                        return Ok(Reply::Resign((line != "resign").then_some(line)));
                    }
                }
            }
        }
    }

    /// Tells the engine the game is over.
    pub async fn game_over(&mut self, result: crate::records::GameResult, reason: &str) {
        let _ = match self.spec.proto {
            Proto::Usi => {
                let word = if result == crate::records::GameResult::Draw {
                    "draw"
                } else {
                    "win"
                };
                self.send(&format!("gameover {word}")).await
            }
            Proto::Cecp => self.send(&format!("result {result} {{{reason}}}")).await,
        };
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        if tokio::time::timeout(Duration::from_millis(500), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// The XBoard texts of `moves[from..]`, played from the position before them.
fn replay_positions(end: &Position, moves: &[String], from: usize) -> Vec<String> {
    // Rebuild the position at `from` by taking moves back from the end.
    let mut pos = end.clone();
    let back = moves.len().saturating_sub(from);
    for _ in 0..back {
        pos.unmake_move();
    }
    let mut out = Vec::new();
    for text in &moves[from.min(moves.len())..] {
        match pos.parse_usi_move(text) {
            Ok(mv) => {
                out.push(crate::records::xboard::move_legs(&pos, mv).concat());
                pos.make_move(mv);
            }
            Err(_) => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let s = EngineSpec::parse("cmd=/usr/games/hachu,proto=cecp,name=HaChu,option.memory=64")
            .unwrap();
        assert_eq!(
            (s.cmd.as_str(), s.proto, s.name.as_str()),
            ("/usr/games/hachu", Proto::Cecp, "HaChu")
        );
        assert_eq!(s.options, vec![("memory".to_string(), "64".to_string())]);
        let s = EngineSpec::parse("cmd=target/release/shishi,arg=usi,option.Threads=2").unwrap();
        assert_eq!(
            (s.name.as_str(), s.args.clone(), s.proto),
            ("shishi", vec!["usi".to_string()], Proto::Usi)
        );
        assert!(EngineSpec::parse("proto=usi").is_err());
        assert!(EngineSpec::parse("cmd=x,proto=uci").is_err());
        assert!(EngineSpec::parse("cmd=x,colour=red").is_err());
    }

    #[test]
    fn an_xboard_engine_gets_memory_and_cores_as_xboard_sends_them() {
        // Issue 55, case 4: HaChu without `memory` refused a legal move and died.
        let hachu_features = [
            "feature ping=1 setboard=1 colors=0 usermove=1 memory=1 debug=1".to_string(),
            "feature done=1".to_string(),
        ];
        let spec = EngineSpec::parse("cmd=hachu,proto=cecp,option.Resign=1").unwrap();
        assert_eq!(
            cecp_setup(&spec, &hachu_features),
            ["memory 64", "option Resign=1"]
        );
        let spec = EngineSpec {
            hash_mb: 256,
            ..EngineSpec::parse("cmd=x,proto=cecp").unwrap()
        };
        let smp = ["feature memory=1 smp=1 done=1".to_string()];
        assert_eq!(cecp_setup(&spec, &smp), ["memory 256", "cores 1"]);
        // The spec's own values win, and are sent once.
        let spec = EngineSpec::parse("cmd=x,proto=cecp,option.memory=8,option.cores=2").unwrap();
        assert_eq!(cecp_setup(&spec, &smp), ["memory 8", "cores 2"]);
        // An engine that does not offer them is not sent them.
        assert!(cecp_setup(&spec, &["feature done=1".to_string()]).len() == 2);
        let plain = EngineSpec::parse("cmd=x,proto=cecp").unwrap();
        assert!(cecp_setup(&plain, &["feature done=1".to_string()]).is_empty());
    }

    #[test]
    fn hachus_answer_to_usi_is_an_xboard_engines() {
        // HaChu answers `usi` with `Error: unknown command` (and echoes its input as
        // `# in ...` debug lines): the hint to add proto=cecp comes at once.
        for line in [
            "Error: unknown command",
            "Error (unknown command): usi",
            "# in (mode = 1,0): usi",
            "feature done=0",
        ] {
            assert!(looks_like_xboard(line), "{line}");
        }
        for line in ["id name Shishi", "info string hello", "option name Hash"] {
            assert!(!looks_like_xboard(line), "{line}");
        }
    }

    #[test]
    fn an_engine_may_have_its_own_clock() {
        let s = EngineSpec::parse("cmd=x,tc=2.5+0.025").unwrap();
        assert_eq!(
            s.tc,
            Some(TimeControl::Fischer {
                base_ms: 2500,
                inc_ms: 25
            })
        );
        assert_eq!(EngineSpec::parse("cmd=x").unwrap().tc, None);
        assert!(EngineSpec::parse("cmd=x,tc=fast").is_err());
    }
}
