//! The search worker: one long-lived thread that owns the [`Searcher`] (hash table and
//! histories) and runs jobs in the order they were sent: searches, and changes to the
//! searcher (hash size, a cleared table). A change sent while a search runs therefore applies
//! when that search ends, and nothing ever has to take the searcher from another thread.
//!
//! On one thread (`single_thread`, a browser page without shared memory) there is no
//! worker thread: each job runs when it is sent, in the caller's thread.
//!
//! A panic inside a job is caught here (release builds unwind): it is logged, the searcher
//! is rebuilt with the same settings, and a search still answers with a legal move.

use crate::position::Position;
use crate::search::{Observer, Request, SearchControl, SearchResult, Searcher};
use std::panic::{catch_unwind, AssertUnwindSafe};
#[cfg(not(single_thread))]
use std::sync::mpsc;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Called with the result when a search ends (on the worker thread).
pub type Done = Box<dyn FnOnce(SearchResult) + Send>;

/// A change to the searcher, run on the worker thread between searches.
pub type Configure = Box<dyn FnOnce(&mut Searcher) + Send>;

/// One search for the worker.
pub struct SearchJob {
    /// The position searched (its history included).
    pub pos: Position,
    /// What the search is asked.
    pub request: Request,
    /// Stop / ponderhit switches, also kept by the session.
    pub control: Arc<SearchControl>,
    /// Where the search reports.
    pub observer: Box<dyn Observer + Send>,
    /// Gets the result.
    pub done: Done,
}

/// A longer piece of work of the front-end's (a page's game review) run on the worker like
/// a search: `stop` reaches it through its control, and the next search waits for it. It
/// has its own searchers (its results must not depend on what the engine's table holds).
pub struct TaskJob {
    /// Its switches: the session's `stop` stops it.
    pub control: Arc<SearchControl>,
    /// The work.
    pub work: Box<dyn FnOnce() + Send>,
}

enum Job {
    Search(Box<SearchJob>),
    Task(TaskJob),
    Configure(Configure),
}

/// What the session and the worker thread both see.
#[derive(Default)]
struct State {
    /// Searches sent and not yet finished (0 or 1: the session waits before sending one).
    pending: usize,
    /// The switches of the search sent last.
    current: Option<Arc<SearchControl>>,
    /// Searcher changes sent and not yet applied.
    configuring: usize,
}

/// The handle the session keeps.
pub struct SearchWorker {
    jobs: Option<Sender<Job>>,
    state: Arc<(Mutex<State>, Condvar)>,
    thread: Option<JoinHandle<()>>,
    /// On one thread (`single_thread`): the searcher, which runs each job as it is sent.
    #[cfg(single_thread)]
    inline: Mutex<Searcher>,
}

impl SearchWorker {
    /// Starts the worker thread with `searcher`; an error if no thread can be had.
    #[cfg(not(single_thread))]
    pub fn start(searcher: Searcher) -> std::io::Result<SearchWorker> {
        let (jobs, rx) = mpsc::channel();
        let state: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let thread_state = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name("search-worker".into())
            .spawn(move || {
                let mut searcher = searcher;
                for job in rx {
                    run_job(&mut searcher, job, &thread_state);
                }
            })?;
        Ok(SearchWorker {
            jobs: Some(jobs),
            state,
            thread: Some(thread),
        })
    }

    /// On one thread: a worker that runs each job as it is sent.
    #[cfg(single_thread)]
    pub fn start(searcher: Searcher) -> std::io::Result<SearchWorker> {
        Ok(SearchWorker {
            jobs: None,
            state: Arc::default(),
            thread: None,
            inline: Mutex::new(searcher),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[cfg(not(single_thread))]
    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // The worker only ends when the session drops the sender.
            let _ = jobs.send(job);
        }
    }

    /// One thread: the job runs now, in the caller's thread.
    #[cfg(single_thread)]
    fn send(&self, job: Job) {
        let mut searcher = self.inline.lock().unwrap_or_else(|e| e.into_inner());
        run_job(&mut searcher, job, &self.state);
    }

    /// Queues a search; the caller has waited for the previous one ([`wait`]).
    ///
    /// [`wait`]: SearchWorker::wait
    pub fn search(&self, job: SearchJob) {
        {
            let mut state = self.lock();
            state.pending += 1;
            state.current = Some(Arc::clone(&job.control));
        }
        self.send(Job::Search(Box::new(job)));
    }

    /// Queues a task; like [`search`], after the caller has waited for the previous one.
    ///
    /// [`search`]: SearchWorker::search
    pub fn task(&self, job: TaskJob) {
        {
            let mut state = self.lock();
            state.pending += 1;
            state.current = Some(Arc::clone(&job.control));
        }
        self.send(Job::Task(job));
    }

    /// Queues a change of the searcher (runs after the current search, if any).
    pub fn configure(&self, change: Configure) {
        self.lock().configuring += 1;
        self.send(Job::Configure(change));
    }

    /// Waits until the searcher changes sent so far are applied (a new hash table is
    /// allocated, say), unless a search is queued or running: then the changes wait for it,
    /// and so cannot be waited for without blocking until it ends.
    pub fn settle(&self) {
        let (lock, changed) = &*self.state;
        let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
        while state.configuring > 0 && state.pending == 0 {
            state = changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether a search is queued or running.
    pub fn is_searching(&self) -> bool {
        self.lock().pending > 0
    }

    /// The switches of the running search, if one runs.
    pub fn current(&self) -> Option<Arc<SearchControl>> {
        let state = self.lock();
        (state.pending > 0).then(|| state.current.clone()).flatten()
    }

    /// Waits until no search is queued or running (its `done` has run).
    pub fn wait(&self) {
        let (lock, ended) = &*self.state;
        let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
        while state.pending > 0 {
            state = ended.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for SearchWorker {
    /// Stops the running search, lets the worker finish its queue, and joins it.
    fn drop(&mut self) {
        if let Some(control) = self.current() {
            control.stop();
        }
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Runs one job on the worker's searcher (on its thread, or on one thread in the caller's).
fn run_job(searcher: &mut Searcher, job: Job, state: &(Mutex<State>, Condvar)) {
    match job {
        Job::Configure(change) => {
            if catch_unwind(AssertUnwindSafe(|| change(searcher))).is_err() {
                log::error!("changing the searcher failed; starting a fresh one");
                *searcher = searcher.fresh();
            }
            let (lock, changed) = state;
            let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
            state.configuring = state.configuring.saturating_sub(1);
            changed.notify_all();
        }
        Job::Search(job) => {
            let result = search_guarded(
                searcher,
                &job.pos,
                &job.request,
                &job.control,
                job.observer.as_ref(),
            );
            let done = job.done;
            if catch_unwind(AssertUnwindSafe(move || done(result))).is_err() {
                log::error!("reporting the search result failed");
            }
            search_ended(state);
        }
        Job::Task(job) => {
            if catch_unwind(AssertUnwindSafe(job.work)).is_err() {
                log::error!("a task on the search worker failed");
            }
            search_ended(state);
        }
    }
}

/// A search or task has ended: whoever waits for it is let go.
fn search_ended((lock, ended): &(Mutex<State>, Condvar)) {
    let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
    state.pending = state.pending.saturating_sub(1);
    ended.notify_all();
}

/// Runs one search and contains a panic inside it: the panic is logged, `searcher` is
/// rebuilt with the same settings, and the result is the first legal root move (unscored),
/// so that a caller still has a legal answer. Every search of the engine goes through here.
pub fn search_guarded(
    searcher: &mut Searcher,
    pos: &Position,
    request: &Request,
    control: &SearchControl,
    observer: &dyn Observer,
) -> SearchResult {
    match catch_unwind(AssertUnwindSafe(|| {
        searcher.search(pos, request, control, observer)
    })) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            log::error!("the search failed ({what}); answering with a legal move");
            *searcher = searcher.fresh();
            let (limits, options) = (&request.limits, &request.options);
            Searcher::root_moves(pos, &limits.search_moves, options.avoid_repetition)
                .first()
                .map_or_else(SearchResult::default, |&mv| SearchResult::unscored(mv))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Info, Limits};
    use crate::variant::Variant;
    use std::time::Duration;

    /// An observer that fails on the first report, as a bug inside the search would.
    struct Failing;

    impl Observer for Failing {
        fn info(&self, _: &Info) {
            panic!("a bug inside the search");
        }
    }

    #[test]
    fn a_panic_in_a_search_still_answers_a_legal_move_and_the_worker_lives_on() {
        let (tx, rx) = mpsc::channel();
        let worker = SearchWorker::start(Searcher::new(1)).expect("a thread");
        let mut pos = Position::startpos(Variant::chu());
        for observer in [
            Box::new(Failing) as Box<dyn Observer + Send>,
            Box::new(crate::search::Silent),
        ] {
            let tx = tx.clone();
            worker.search(SearchJob {
                pos: pos.clone(),
                request: Request::play(Limits {
                    depth: Some(3),
                    ..Limits::default()
                })
                .with_options(crate::search::SearchOptions {
                    threads: 2,
                    ..Default::default()
                }),
                control: Arc::new(SearchControl::new(false)),
                observer,
                done: Box::new(move |r| tx.send(r).expect("the test waits")),
            });
            let result = rx.recv_timeout(Duration::from_secs(30)).expect("an answer");
            let mv = result.best.expect("a move");
            assert!(pos.is_legal(mv));
            worker.wait();
        }
    }
}
