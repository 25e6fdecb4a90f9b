//! The switches of a running search, shared by the search threads, the mate solver and the
//! session that started them: stop, and ponder / ponderhit with the clock's start. A module
//! of its own, below both `search` and `mate`, so that neither imports the other for it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Shared switches of a running search: stop, and ponder / ponderhit.
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    start: Instant,
    /// Milliseconds from `start` to the ponderhit (0 when the search was not pondering).
    clock_start_ms: AtomicU64,
}

impl SearchControl {
    /// Controls for a search starting now (`pondering`: `go ponder`).
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Relaxed)
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
