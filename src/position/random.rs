//! Random games for differential testing: moves are drawn with captures, lion double moves
//! and promotions favoured, so that the rare rules (lion trades, counter-strike, bare king)
//! come up often.

use super::{GenMode, Position};
use crate::core::rng::Rng;
use crate::core::Move;

impl Position {
    /// Picks a random legal move (perft mode, so every move path can be drawn), weighting
    /// captures x4, double moves x3 and promotions x2. `None` if there is no legal move.
    pub fn random_move(&mut self, rng: &mut Rng) -> Option<Move> {
        let mut moves = Vec::new();
        self.legal_moves(GenMode::Perft, &mut moves);
        let weight = |mv: &Move| {
            let capture = !self.piece_on(mv.to()).is_empty()
                || mv.mid().is_some_and(|m| !self.piece_on(m).is_empty());
            let mut w = 1;
            if capture {
                w *= 4;
            }
            if mv.is_double() {
                w *= 3;
            }
            if mv.is_promotion() {
                w *= 2;
            }
            w
        };
        let total: usize = moves.iter().map(weight).sum();
        if total == 0 {
            return None;
        }
        let mut pick = rng.below(total);
        for mv in &moves {
            let w = weight(mv);
            if pick < w {
                return Some(*mv);
            }
            pick -= w;
        }
        None
    }
}
