//! The command-line tools' own code, apart from `main.rs`'s parsing and dispatch.

#[cfg(not(target_family = "wasm"))]
pub mod match_command;

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
