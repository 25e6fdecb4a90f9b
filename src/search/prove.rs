//! A `mate` search: the searcher hands the position to the proof-number solver
//! ([`crate::mate`]) and turns its verdict into a [`SearchResult`] and a final `info` line.

use super::{Info, Limits, Observer, SearchControl, SearchResult, Searcher};
use crate::core::score::mate_in;
use crate::mate::{MateLimits, Solver, Verdict};
use crate::position::Position;

impl Searcher {
    /// Proves or disproves a forced win of the side to move within `limits.movetime` and
    /// `limits.nodes` (none: until decided or stopped).
    pub(super) fn prove_mate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &SearchControl,
        observer: &dyn Observer,
    ) -> SearchResult {
        let hash_mb = self.hash_mb();
        if self.solver.as_ref().is_none_or(|s| s.table_mb() != hash_mb) {
            // Drop the old table before making the new one.
            self.solver = None;
            self.solver = Some(Solver::new(hash_mb));
        }
        let solver = self.solver.as_mut().expect("made above");
        let mate_limits = MateLimits {
            time: if limits.infinite {
                None
            } else {
                limits.movetime
            },
            nodes: limits.nodes,
            ..MateLimits::default()
        };
        let solution = solver.solve(pos, mate_limits, control, &mut |p| observer.progress(p));
        let p = &solution.progress;
        let mut result = SearchResult {
            nodes: p.nodes,
            mate: Some(solution.verdict.clone()),
            ..SearchResult::default()
        };
        if let Verdict::Mate(line) = &solution.verdict {
            let score = mate_in(line.len());
            observer.info(&Info {
                depth: line.len() as i32,
                seldepth: line.len(),
                multipv: 1,
                score,
                bound: None,
                nodes: p.nodes,
                time: p.time,
                hashfull: p.hashfull,
                pv: line.clone(),
            });
            result.best = line.first().copied();
            result.ponder = line.get(1).copied();
            result.score = Some(score);
            result.depth = line.len() as i32;
            result.pv = line.clone();
        }
        result
    }
}
