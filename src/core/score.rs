//! Search scores: centipawns, with mate scores near the ends of the range.
//!
//! `MATE - n` means "the side to move wins n plies from the root"; `-(MATE - n)` that it
//! loses. Scores beyond `MATE_BOUND` are mates. In the hash table mate scores are stored
//! relative to the node (`to_tt`) and converted back on load (`from_tt`), so a mate found
//! at one ply is exact when read at another.

/// A search score.
pub type Score = i32;

/// Larger than any score.
pub const INFINITE: Score = 32_000;
/// The score of "mate now" (the side to move takes the last royal).
pub const MATE: Score = 31_000;
/// Scores above this (in absolute value) are mates.
pub const MATE_BOUND: Score = 30_000;
/// The score of a draw.
pub const DRAW: Score = 0;

/// The score of a repetition in the search that the game's fourfold would make lost for
/// the other side, who checked with every move (`perpetual_loss` in `search::params`):
/// above any evaluation (those stop at 20,000) but not a mate, which would claim a
/// distance.
pub const PERPETUAL_WIN: Score = 25_000;

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of losing `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// Whether `score` is a mate score (for either side).
#[inline]
pub const fn is_mate(score: Score) -> bool {
    score > MATE_BOUND || score < -MATE_BOUND
}

/// Plies to mate, positive when the side to move mates: the USI `score mate N` value.
pub fn mate_plies(score: Score) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// A score as the hash table stores it at `ply`: mates relative to this node.
#[inline]
pub const fn to_tt(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score + ply as Score
    } else if score < -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// A score read from the hash table at `ply`.
#[inline]
pub const fn from_tt(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score - ply as Score
    } else if score < -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table_at_any_ply() {
        for mate_ply in [1usize, 2, 7, 40, 120] {
            for (store_ply, load_ply) in [(0usize, 0usize), (3, 3), (5, 9), (20, 2)] {
                for score in [mate_in(mate_ply), mated_in(mate_ply)] {
                    let stored = to_tt(score, store_ply);
                    let loaded = from_tt(stored, load_ply);
                    // The distance to mate from the node is kept: shift by the ply difference.
                    let shift = load_ply as Score - store_ply as Score;
                    assert_eq!(
                        loaded,
                        if score > 0 {
                            score - shift
                        } else {
                            score + shift
                        }
                    );
                }
            }
        }
        assert_eq!(from_tt(to_tt(123, 9), 4), 123);
        assert_eq!(mate_plies(mate_in(5)), Some(5));
        assert_eq!(mate_plies(mated_in(4)), Some(-4));
        assert_eq!(mate_plies(250), None);
    }
}
