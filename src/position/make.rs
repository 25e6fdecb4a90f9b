//! Make and unmake a move, keeping the board, bitboards, key and undo stack in step.
//!
//! Make trusts its move: it must come from move generation (or a parser that checked it
//! against move generation) for this very position.

use super::{zobrist, Piece, Position, Undo};
use crate::core::Move;
use crate::variant::Variant;

impl Position {
    /// Plays `mv`, which must be legal here.
    pub fn make_move(&mut self, mv: Move) {
        let us = self.side_to_move;
        let (from, to) = (mv.from(), mv.to());
        let undo_key = self.key;
        let moved = self.take(from);
        let captured_mid = match mv.mid() {
            Some(mid) if !self.board[mid.index()].is_empty() => self.take(mid),
            _ => Piece::EMPTY,
        };
        let captured = if self.board[to.index()].is_empty() {
            Piece::EMPTY
        } else {
            self.take(to)
        };
        let placed = if mv.is_promotion() {
            Piece::new(
                us,
                self.variant.promotion[moved.kind() as usize]
                    .expect("promotion of a promotable kind"),
            )
        } else {
            moved
        };
        self.put(to, placed);

        self.history.push(Undo {
            mv,
            moved,
            captured,
            captured_mid,
            counter_strike: self.counter_strike,
            key: undo_key,
            quiet_plies: self.quiet_plies,
        });

        // Counter-strike: a lion taken by a non-lion bans lion captures by non-lions next
        // ply, except on that square. The final capture decides when both steps take a lion.
        if let Some(sq) = self.counter_strike.take() {
            self.key ^= zobrist::counter_strike(sq);
        }
        let lions = self.variant.lion_mask;
        if !Variant::has(lions, moved.kind()) {
            let lion_taken = |p: Piece| !p.is_empty() && Variant::has(lions, p.kind());
            let square = if lion_taken(captured) {
                Some(to)
            } else if lion_taken(captured_mid) {
                mv.mid()
            } else {
                None
            };
            if let Some(sq) = square {
                self.counter_strike = Some(sq);
                self.key ^= zobrist::counter_strike(sq);
            }
        }

        if captured.is_empty() && captured_mid.is_empty() && !mv.is_promotion() {
            self.quiet_plies += 1;
        } else {
            self.quiet_plies = 0;
        }
        // SFEN move numbers count plies (shogiops and lishogi add one per ply).
        self.move_number += 1;
        self.side_to_move = us.flip();
        self.key ^= zobrist::side();
    }

    /// Takes back the last move played. Does nothing if there is none.
    pub fn unmake_move(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        let mv = undo.mv;
        self.side_to_move = self.side_to_move.flip();
        self.move_number -= 1;
        self.take(mv.to());
        if !undo.captured.is_empty() {
            self.put(mv.to(), undo.captured);
        }
        if let Some(mid) = mv.mid() {
            if !undo.captured_mid.is_empty() {
                self.put(mid, undo.captured_mid);
            }
        }
        self.put(mv.from(), undo.moved);
        self.counter_strike = undo.counter_strike;
        self.quiet_plies = undo.quiet_plies;
        self.key = undo.key;
    }

    /// Passes the turn without moving (null-move pruning). Clears the counter-strike ban,
    /// which lasts one ply.
    pub fn make_null(&mut self) {
        self.history.push(Undo {
            mv: Move::NULL,
            moved: Piece::EMPTY,
            captured: Piece::EMPTY,
            captured_mid: Piece::EMPTY,
            counter_strike: self.counter_strike,
            key: self.key,
            quiet_plies: self.quiet_plies,
        });
        if let Some(sq) = self.counter_strike.take() {
            self.key ^= zobrist::counter_strike(sq);
        }
        self.quiet_plies += 1;
        self.move_number += 1;
        self.side_to_move = self.side_to_move.flip();
        self.key ^= zobrist::side();
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        let Some(undo) = self.history.pop() else {
            return;
        };
        debug_assert_eq!(undo.mv, Move::NULL);
        self.side_to_move = self.side_to_move.flip();
        self.move_number -= 1;
        self.counter_strike = undo.counter_strike;
        self.quiet_plies = undo.quiet_plies;
        self.key = undo.key;
    }
}
