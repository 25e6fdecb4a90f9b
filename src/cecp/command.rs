//! XBoard's commands, typed: one line from the GUI becomes a [`Command`], or a
//! [`CommandError`] that says what is wrong with its argument. Nothing here acts: the
//! controller does (`controller.rs`).
//!
//! A line that is no command may be a bare move (protocol 1 style); whether it is depends
//! on the variant played, so the parser gives it back as [`Command::Other`] and the
//! controller decides.

use super::clock::Level;
use crate::text::{parse_number, truncate};

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A command that needs nothing of this engine (`xboard`, `accepted`, `rejected`,
    /// `random`, `computer`, `name`, `rating`, `ics`, `easy`, `hard`, `bk`, `hover`, `.`,
    /// an empty line).
    Nothing,
    /// `quit`.
    Quit,
    /// `protover N`: the GUI wants the features.
    Protover,
    /// `ping N`: answered with `pong N` once everything before it is done.
    Ping(String),
    /// `post` (true) or `nopost` (false): thinking output on or off.
    Post(bool),
    /// `memory MB`: the hash size, at least 1.
    Memory(i64),
    /// `cores N`: the threads, at least 1.
    Cores(i64),
    /// `option NAME=VALUE`, or `option NAME` for a button.
    Option {
        /// The option's name as the dialog shows it.
        name: String,
        /// Its value (`None` for a button).
        value: Option<String>,
    },
    /// `level MPS BASE INC`.
    Level(Level),
    /// `st SECONDS` (`None`: not a number, no fixed time).
    SecondsPerMove(Option<u64>),
    /// `sd DEPTH`, within 1 to 120 (`None`: not a number, no depth limit).
    Depth(Option<i32>),
    /// `time CENTISECONDS`: the engine's clock (`None`: not a number).
    Time(Option<u64>),
    /// `otim CENTISECONDS`: the opponent's clock (`None`: not a number).
    OpponentTime(Option<u64>),
    /// `new`.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: the engine plays neither side.
    Force,
    /// `go`: the engine plays the side to move.
    Go,
    /// `playother`: the engine plays the side not to move.
    PlayOther,
    /// `result ...`: the game is over.
    Result,
    /// `undo` (1) or `remove` (2): plies taken back.
    TakeBack(usize),
    /// `usermove MOVE`.
    UserMove(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `analyze` (true) or `exit` (false): analysis mode on or off.
    Analyze(bool),
    /// `hint`.
    Hint,
    /// `?`: move now.
    MoveNow,
    /// `lift SQUARE` (the board-marker extension).
    Lift(String),
    /// `put SQUARE` (the board-marker extension).
    Put(String),
    /// Anything else: the whole line (a bare move, or an unknown command).
    Other(String),
}

/// What is wrong with a command's argument (the command is then not carried out).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// `memory` or `cores` without a number of 1 or more (XBoard sends what the user typed
    /// in its settings).
    #[error("Error (bad argument): {command} {}", truncate(.argument))]
    BadArgument {
        /// The command.
        command: &'static str,
        /// Its argument.
        argument: String,
    },
    /// `level` without three good fields.
    #[error("Error (bad level): {}", truncate(.0))]
    BadLevel(String),
}

/// Reads one line (already trimmed of its line end).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let (name, arg) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(c, a)| (c, a.trim()));
    let non_negative = |arg: &str| parse_number(arg).map(|n| n.max(0) as u64);
    Ok(match name {
        "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
        | "ics" | "easy" | "hard" | "bk" | "hover" | "." => Command::Nothing,
        "quit" => Command::Quit,
        "protover" => Command::Protover,
        "ping" => Command::Ping(arg.to_string()),
        "post" => Command::Post(true),
        "nopost" => Command::Post(false),
        "memory" => Command::Memory(at_least_one("memory", arg)?),
        "cores" => Command::Cores(at_least_one("cores", arg)?),
        "option" => {
            let (name, value) = match arg.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
                None => (arg.trim(), None),
            };
            Command::Option {
                name: name.to_string(),
                value,
            }
        }
        "level" => Command::Level(
            Level::parse(arg).ok_or_else(|| CommandError::BadLevel(arg.to_string()))?,
        ),
        "st" => Command::SecondsPerMove(non_negative(arg)),
        "sd" => Command::Depth(parse_number(arg).map(|d| d.clamp(1, 120) as i32)),
        "time" => Command::Time(non_negative(arg)),
        "otim" => Command::OpponentTime(non_negative(arg)),
        "new" => Command::New,
        "variant" => Command::Variant(arg.to_string()),
        "force" => Command::Force,
        "go" => Command::Go,
        "playother" => Command::PlayOther,
        "result" => Command::Result,
        "undo" => Command::TakeBack(1),
        "remove" => Command::TakeBack(2),
        "usermove" => Command::UserMove(arg.to_string()),
        "setboard" => Command::SetBoard(arg.to_string()),
        "analyze" => Command::Analyze(true),
        "exit" => Command::Analyze(false),
        "hint" => Command::Hint,
        "?" => Command::MoveNow,
        "lift" => Command::Lift(arg.to_string()),
        "put" => Command::Put(arg.to_string()),
        _ => Command::Other(line.to_string()),
    })
}

/// The number of `memory` or `cores`: zero or less is no size, and is refused.
fn at_least_one(command: &'static str, arg: &str) -> Result<i64, CommandError> {
    match parse_number(arg) {
        Some(n) if n >= 1 => Ok(n),
        _ => Err(CommandError::BadArgument {
            command,
            argument: arg.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(parse("xboard"), Ok(Command::Nothing));
        assert_eq!(parse(""), Ok(Command::Nothing));
        assert_eq!(parse("protover 2"), Ok(Command::Protover));
        assert_eq!(parse("ping 7"), Ok(Command::Ping("7".into())));
        assert_eq!(parse("nopost"), Ok(Command::Post(false)));
        assert_eq!(parse("memory 64"), Ok(Command::Memory(64)));
        assert_eq!(parse("cores 2.0"), Ok(Command::Cores(2)));
        assert_eq!(parse("undo"), Ok(Command::TakeBack(1)));
        assert_eq!(parse("remove"), Ok(Command::TakeBack(2)));
        assert_eq!(parse("exit"), Ok(Command::Analyze(false)));
        assert_eq!(parse("?"), Ok(Command::MoveNow));
        assert_eq!(parse("variant chu"), Ok(Command::Variant("chu".into())));
        assert_eq!(
            parse("usermove  f3f4,f4g5"),
            Ok(Command::UserMove("f3f4,f4g5".into()))
        );
        assert_eq!(parse("f3f4"), Ok(Command::Other("f3f4".into())));
        assert_eq!(
            parse("frobnicate 1"),
            Ok(Command::Other("frobnicate 1".into()))
        );
    }

    #[test]
    fn options_with_and_without_a_value() {
        assert_eq!(
            parse("option Skill Level = 5"),
            Ok(Command::Option {
                name: "Skill Level".into(),
                value: Some("5".into())
            })
        );
        assert_eq!(
            parse("option Clear Hash"),
            Ok(Command::Option {
                name: "Clear Hash".into(),
                value: None
            })
        );
    }

    #[test]
    fn numbers_of_the_clock_commands() {
        assert_eq!(parse("st 3"), Ok(Command::SecondsPerMove(Some(3))));
        assert_eq!(parse("st x"), Ok(Command::SecondsPerMove(None)));
        assert_eq!(parse("sd 0"), Ok(Command::Depth(Some(1))));
        assert_eq!(parse("sd 500"), Ok(Command::Depth(Some(120))));
        assert_eq!(parse("time -5"), Ok(Command::Time(Some(0))));
        assert_eq!(parse("otim 1234"), Ok(Command::OpponentTime(Some(1234))));
    }

    #[test]
    fn a_bad_argument_is_an_error_that_names_it() {
        let e = parse("memory 0").unwrap_err();
        assert_eq!(e.to_string(), "Error (bad argument): memory 0");
        assert!(parse("cores x").is_err());
        let e = parse("level 40 5").unwrap_err();
        assert_eq!(e.to_string(), "Error (bad level): 40 5");
    }
}
