//! The command-line tools' own code, apart from `main.rs`'s parsing and dispatch.

pub mod analyse_command;
#[cfg(not(target_family = "wasm"))]
pub mod match_command;
pub mod tools;
pub mod tune_command;

/// The process's exit code for an error: a match that lost games by forfeit has its own
/// (`match_command::FORFEIT_EXIT_CODE`), any other error is 1.
pub fn exit_code(error: &anyhow::Error) -> std::process::ExitCode {
    #[cfg(not(target_family = "wasm"))]
    if error
        .downcast_ref::<match_command::ForfeitsHappened>()
        .is_some()
    {
        return std::process::ExitCode::from(match_command::FORFEIT_EXIT_CODE);
    }
    let _ = error;
    std::process::ExitCode::FAILURE
}

/// The threads to use for a requested count of `what` (search threads, analysis workers,
/// perft threads): at most as many per core as the engine session allows for `Threads`
/// (more only slow the work down, and 100,000 asked for would start them all); a cut is
/// logged.
pub fn capped_threads(what: &str, requested: usize) -> usize {
    let usable = shishi::session::usable_threads(requested);
    if usable != requested {
        log::warn!(
            "{requested} {what} asked for; using {usable} (at most {} per core)",
            shishi::session::MAX_THREADS_PER_CORE
        );
    }
    usable
}
