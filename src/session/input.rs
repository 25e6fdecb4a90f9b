//! What the input of a protocol front-end is made of: lines, over-long lines skipped, the
//! end. A leaf shared by the reader (`io`) and the one-thread input (`single_thread`), with
//! what the one-thread input does to a running search with the lines queued behind it
//! ([`act_on_queued`]; compiled everywhere so that it is tested natively).

use crate::control::SearchControl;

/// Longest input line accepted (longer ones are reported and skipped).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader hands on.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// A line, without its line end (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`] was skipped; its length so far.
    Overlong(usize),
    /// The input was closed.
    Eof,
}

/// The commands that end a running search when their front-end takes them (USI's `stop`,
/// `quit`, a new `go` or `review`, `usinewgame`, `gameover`; XBoard's `?`, `exit`, `quit`, `analyze` and
/// its game commands). On one thread the front-end takes them only when the search has
/// answered, so the search ends as soon as they come, as it would have been ended.
const ENDS_A_SEARCH: &[&str] = &[
    "stop",
    "quit",
    "go",
    "review",
    "usinewgame",
    "gameover",
    "?",
    "exit",
    "analyze",
    "new",
    "variant",
    "force",
    "playother",
    "result",
    "undo",
    "remove",
    "usermove",
    "setboard",
];

/// What the input waiting behind a running search does to it at once (one thread, where
/// the front-end takes the next line only when the search has answered): `queued` holds
/// the lines read after the command that started the search, in order. A `ponderhit`
/// releases it; the first line that ends a search stops it, and nothing after that line
/// concerns this search: a `stop` behind a later `go` is that `go`'s, never spent on this
/// one. The end of the input ends it too. A search that is one step of a longer task (a
/// game review) ends with its task. Asked again at every poll; both actions are
/// idempotent.
pub fn act_on_queued<'a>(queued: impl IntoIterator<Item = &'a Input>, control: &SearchControl) {
    for input in queued {
        match input {
            Input::Line(line) => {
                let command = line.split_whitespace().next().unwrap_or("");
                if command == "ponderhit" {
                    control.ponderhit();
                } else if ENDS_A_SEARCH.contains(&command) {
                    control.stop_all();
                    return;
                }
            }
            Input::Overlong(_) => {}
            Input::Eof => {
                control.stop_all();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<Input> {
        text.iter().map(|l| Input::Line(l.to_string())).collect()
    }

    #[test]
    fn a_stop_behind_a_later_go_is_not_spent_on_the_running_search() {
        // Issue 55, case 2: `go infinite`, then in one burst `stop`, `position ...`,
        // `go infinite`, `stop`: each search gets its own stop.
        let burst = lines(&[
            "stop",
            "position startpos moves 7i7h",
            "go infinite",
            "stop",
        ]);
        let first = SearchControl::new(false);
        act_on_queued(&burst, &first);
        assert!(first.is_stopped());
        // The front-end has taken the lines up to the second `go`: what is left is the
        // second search's.
        let second = SearchControl::new(false);
        act_on_queued(&burst[3..], &second);
        assert!(second.is_stopped());
        // With nothing behind it yet, a search runs on.
        let third = SearchControl::new(false);
        act_on_queued(&burst[4..], &third);
        assert!(!third.is_stopped());
    }

    #[test]
    fn a_ponderhit_belongs_to_the_search_it_follows() {
        // `go ponder`, then `stop`, `position`, `go ponder`, `ponderhit`.
        let burst = lines(&["stop", "position startpos", "go ponder", "ponderhit"]);
        let first = SearchControl::new(true);
        act_on_queued(&burst, &first);
        assert!(
            first.is_stopped() && first.is_pondering(),
            "stopped, not released"
        );
        let second = SearchControl::new(true);
        act_on_queued(&burst[3..], &second);
        assert!(!second.is_stopped() && !second.is_pondering(), "released");
        // `isready` and other lines pass; `usinewgame` and a new `go` end a search.
        for ender in ["usinewgame", "go movetime 100", "gameover win", "quit"] {
            let control = SearchControl::new(false);
            act_on_queued(
                &lines(&["isready", "setoption name MultiPV value 2", ender]),
                &control,
            );
            assert!(control.is_stopped(), "{ender}");
        }
        let control = SearchControl::new(false);
        act_on_queued(&[Input::Overlong(5_000_000), Input::Eof], &control);
        assert!(control.is_stopped(), "the end of the input");
        let control = SearchControl::new(false);
        act_on_queued(
            &lines(&["isready", "position startpos", "stopped"]),
            &control,
        );
        assert!(!control.is_stopped());
    }
}
