//! The switches of a running search, shared by the search threads, the mate solver and the
//! session that started them: stop, and ponder / ponderhit with the clock's start. A module
//! of its own, below both `search` and `mate`, so that neither imports the other for it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Shared switches of a running search: stop, and ponder / ponderhit.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Instant,
    /// Milliseconds from `start` to the ponderhit (0 when the search was not pondering).
    clock_start_ms: AtomicU64,
    /// The switches of the longer task this search is one step of (a page's game review),
    /// if it is one: that task's stop ends this search too.
    task: Option<Arc<SearchControl>>,
}

impl SearchControl {
    /// Controls for a search starting now (`pondering`: `go ponder`).
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            task: None,
        }
    }

    /// Controls for one search of a longer task (a game review's search of one position),
    /// starting now with a clock of its own: `task`'s stop ends it, and [`stop_all`] ends
    /// both.
    ///
    /// [`stop_all`]: SearchControl::stop_all
    pub fn within(task: &Arc<SearchControl>) -> SearchControl {
        SearchControl {
            task: Some(Arc::clone(task)),
            ..SearchControl::new(false)
        }
    }

    /// Asks the search to stop as soon as it can (the search itself does so at its limits;
    /// the task it belongs to, if any, goes on).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// A stop from outside (the user's `stop`, the end of the input): ends the search and
    /// the task it belongs to.
    pub fn stop_all(&self) {
        self.stop();
        if let Some(task) = &self.task {
            task.stop_all();
        }
    }

    /// Whether a stop was asked for. On one thread (`single_thread`) it also lets the
    /// input in now and then ([`input_poll`]): no other thread could say `stop`.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        #[cfg(single_thread)]
        input_poll::now_and_then(self);
        self.stop_asked()
    }

    /// Whether this search or the task it belongs to was asked to stop.
    fn stop_asked(&self) -> bool {
        self.stop.load(Relaxed) || self.task.as_ref().is_some_and(|t| t.stop_asked())
    }

    /// The expected move was played: the search goes on as a normal search, its clock
    /// starting now.
    /// A `ponderhit` for a search that is not pondering changes nothing (its clock keeps
    /// running from its start).
    pub fn ponderhit(&self) {
        if self.pondering.load(Relaxed) {
            self.clock_start_ms
                .store(self.start.elapsed().as_millis() as u64, Relaxed);
            self.pondering.store(false, Relaxed);
        }
    }

    /// Whether the search is still pondering.
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time on our clock: since the start, or since the ponderhit.
    pub fn clock_elapsed(&self) -> Duration {
        self.start
            .elapsed()
            .saturating_sub(Duration::from_millis(self.clock_start_ms.load(Relaxed)))
    }
}

/// On one thread, a search hears its input through here: the session registers a
/// function that reads what has come in and acts on `stop` and `ponderhit` at once
/// (`session::single_thread`), and the search's stop test calls it about every
/// [`input_poll::EVERY`].
#[cfg(single_thread)]
pub mod input_poll {
    use super::SearchControl;
    use std::cell::Cell;
    use std::time::{Duration, Instant};

    /// How often the input is looked at during a search: a stop is heard within this.
    pub const EVERY: Duration = Duration::from_millis(10);

    /// Stop tests between two looks at the clock (a look at the clock is a call out of
    /// the WebAssembly module).
    const TESTS_PER_CLOCK: u32 = 2048;

    thread_local! {
        static POLL: Cell<Option<fn(&SearchControl)>> = const { Cell::new(None) };
        static TESTS: Cell<u32> = const { Cell::new(0) };
        static LAST: Cell<Option<Instant>> = const { Cell::new(None) };
    }

    /// Registers the function that reads the input during a search.
    pub fn register(poll: fn(&SearchControl)) {
        POLL.with(|p| p.set(Some(poll)));
    }

    /// Calls the registered function now (a search that waits for its release).
    pub fn now(control: &SearchControl) {
        LAST.with(|l| l.set(Some(Instant::now())));
        if let Some(poll) = POLL.with(Cell::get) {
            poll(control);
        }
    }

    /// Calls the registered function when [`EVERY`] has passed since it last ran.
    pub fn now_and_then(control: &SearchControl) {
        let tests = TESTS.with(|t| {
            t.set(t.get().wrapping_add(1));
            t.get()
        });
        if tests % TESTS_PER_CLOCK != 0 {
            return;
        }
        let due = LAST.with(|l| l.get().is_none_or(|last| last.elapsed() >= EVERY));
        if due {
            self::now(control);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_and_its_searches_stop_each_other_as_they_should() {
        let task = Arc::new(SearchControl::new(false));
        // A search ending itself at its limits leaves the task going.
        let first = SearchControl::within(&task);
        first.stop();
        assert!(first.is_stopped() && !task.is_stopped());
        // A stop of the task ends the search running in it.
        let second = SearchControl::within(&task);
        assert!(!second.is_stopped());
        task.stop();
        assert!(second.is_stopped());
        // A stop from outside heard by a search (the one-thread input) ends the task.
        let task = Arc::new(SearchControl::new(false));
        let third = SearchControl::within(&task);
        third.stop_all();
        assert!(task.is_stopped() && third.is_stopped());
    }
}
