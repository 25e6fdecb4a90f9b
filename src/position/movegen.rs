//! Legal move generation in two modes.
//!
//! * [`GenMode::Perft`] lists every move *string path* as lishogi does: a double move
//!   through an empty mid square counts beside the plain step or jump it duplicates, and
//!   every empty neighbour gives its own jitto. Perft counts follow this convention.
//! * [`GenMode::Search`] lists each resulting position once: double moves only when the
//!   first step captures, and a single pass (jitto) per position, since every pass leads to
//!   the same position.
//!
//! Chu is pseudo-legal (moving into check is allowed); the only filters are the lion-trading
//! rules, applied here while generating. Sho forbids leaving a lone royal attacked; that
//! filter makes and unmakes each candidate.

use super::{Piece, Position};
use crate::core::{Bitboard, Move, Square};
use crate::variant::{Kind, PromotionRule, Variant};

/// Which moves to list; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenMode {
    /// Every distinct move string path (lishogi's perft convention).
    Perft,
    /// Every distinct resulting position once.
    Search,
}

impl Position {
    /// Appends the legal moves of the side to move to `out` (after clearing it).
    pub fn legal_moves(&mut self, mode: GenMode, out: &mut Vec<Move>) {
        out.clear();
        self.pseudo_legal_moves(mode, out);
        if self.variant.spec.rules.lone_royal_check {
            self.retain_royal_safe(out);
        }
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut moves = Vec::with_capacity(256);
        self.legal_moves(GenMode::Search, &mut moves);
        !moves.is_empty()
    }

    /// Drops the moves that leave a lone royal attacked (sho's check rule).
    fn retain_royal_safe(&mut self, moves: &mut Vec<Move>) {
        let us = self.side_to_move;
        let royals = self.royals(us);
        if royals.count() != 1 {
            return;
        }
        let royal = royals.first().expect("one royal");
        moves.retain(|&mv| {
            self.make_move(mv);
            let square = if mv.from() == royal { mv.to() } else { royal };
            let safe = !self.is_attacked(square, us.flip());
            self.unmake_move();
            safe
        });
    }

    /// Lion-trading rules for a capture of `target` on `to` by a `kind` piece from `from`.
    /// `transparent` holds the squares vacated on the way (the mover's start square, and
    /// the mid square of a double move) for the protection test; `valuable_first_step` is
    /// true when the first step of a double move took a piece other than a pawn or
    /// go-between.
    #[inline]
    fn capture_allowed(
        &self,
        kind: Kind,
        from: Square,
        to: Square,
        target: Piece,
        transparent: Bitboard,
        valuable_first_step: bool,
    ) -> bool {
        let v = self.variant;
        if !Variant::has(v.lion_mask, target.kind()) {
            return true;
        }
        if Variant::has(v.lion_mask, kind) {
            // A lion may take a lion two squares away only if it is unprotected, or if the
            // first step took something worth more than a pawn or go-between.
            from.distance(to) <= 1
                || valuable_first_step
                || !self.is_attacked_through(to, target.color(), transparent)
        } else {
            // Counter-strike: after a lion was taken by a non-lion, non-lions may take a lion
            // only on that square.
            match self.counter_strike {
                Some(sq) => sq == to,
                None => true,
            }
        }
    }

    /// Pushes the move from `from` to `to` with the promotion choices the rules give.
    #[inline]
    fn push_promotions(
        &self,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        to: Square,
        capture: bool,
    ) {
        let v = self.variant;
        let us = self.side_to_move;
        let forced = v.tables.forced[kind as usize][us.index()].contains(to);
        if v.promotion[kind as usize].is_some() {
            let zone = v.tables.zone[us.index()];
            let (zf, zt) = (zone.contains(from), zone.contains(to));
            let can = match v.spec.rules.promotion {
                PromotionRule::EnterOrCaptureInZone => {
                    let enters = !zf && zt;
                    let captures_in_zone = capture && (zf || zt);
                    // Pawns and lances may also promote on reaching the last rank.
                    let reaches_last_rank =
                        v.one_way[kind as usize] && v.tables.last_rank[us.index()].contains(to);
                    enters || captures_in_zone || reaches_last_rank
                }
                PromotionRule::StartOrEndInZone => zf || zt,
            };
            if can {
                out.push(Move::new(from, to, true));
                if !forced {
                    out.push(Move::new(from, to, false));
                }
                return;
            }
        }
        if !forced {
            out.push(Move::new(from, to, false));
        }
    }

    /// Every move that obeys the piece movements and the lion-trading rules.
    fn pseudo_legal_moves(&self, mode: GenMode, out: &mut Vec<Move>) {
        let us = self.side_to_move;
        let v = self.variant;
        let tables = &v.tables;
        let mut pass_listed = false;
        for from in self.occupied[us.index()] {
            let kind = self.board[from.index()].kind();
            let table = tables.piece(kind, us);
            let from_bb = Bitboard::from_square(from);
            for &to in table.leaps(from) {
                let target = self.board[to.index()];
                if target.is_empty() {
                    self.push_promotions(out, kind, from, to, false);
                } else if !target.is(us)
                    && self.capture_allowed(kind, from, to, target, from_bb, false)
                {
                    self.push_promotions(out, kind, from, to, true);
                }
            }
            for &(dir, range) in &table.slides {
                for (i, &to) in tables.ray(dir as usize, from).iter().enumerate() {
                    if i >= range as usize {
                        break;
                    }
                    let target = self.board[to.index()];
                    if target.is_empty() {
                        self.push_promotions(out, kind, from, to, false);
                        continue;
                    }
                    if !target.is(us)
                        && self.capture_allowed(kind, from, to, target, from_bb, false)
                    {
                        self.push_promotions(out, kind, from, to, true);
                    }
                    break;
                }
            }
            if table.lion_area {
                self.lion_double_moves(mode, out, kind, from, &mut pass_listed);
            }
            for &dir in &table.lion_dirs {
                self.lion_line_double_moves(mode, out, kind, from, dir as usize, &mut pass_listed);
            }
        }
    }

    /// Two king steps `from -> mid -> to` of a lion.
    fn lion_double_moves(
        &self,
        mode: GenMode,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        pass_listed: &mut bool,
    ) {
        let us = self.side_to_move;
        let v = self.variant;
        let from_bb = Bitboard::from_square(from);
        for &mid in v.tables.neighbors(from) {
            let first = self.board[mid.index()];
            if first.is(us)
                || (!first.is_empty()
                    && !self.capture_allowed(kind, from, mid, first, from_bb, false))
            {
                continue;
            }
            if first.is_empty() && mode == GenMode::Search {
                // Through an empty square the only new position is the pass.
                if !*pass_listed {
                    *pass_listed = true;
                    out.push(Move::double(from, mid, from));
                }
                continue;
            }
            let valuable = !first.is_empty() && !Variant::has(v.weak_mask, first.kind());
            let mut transparent = from_bb;
            transparent.insert(mid);
            for &to in v.tables.neighbors(mid) {
                if to == from {
                    out.push(Move::double(from, mid, from));
                    continue;
                }
                let target = self.board[to.index()];
                if target.is(us) {
                    continue;
                }
                if target.is_empty()
                    || self.capture_allowed(kind, from, to, target, transparent, valuable)
                {
                    out.push(Move::double(from, mid, to));
                }
            }
        }
    }

    /// Double moves along one lion-power line (horned falcon, soaring eagle): through the
    /// first square to the second, or back to the start.
    fn lion_line_double_moves(
        &self,
        mode: GenMode,
        out: &mut Vec<Move>,
        kind: Kind,
        from: Square,
        dir: usize,
        pass_listed: &mut bool,
    ) {
        let us = self.side_to_move;
        let ray = self.variant.tables.ray(dir, from);
        let Some(&mid) = ray.first() else { return };
        let first = self.board[mid.index()];
        let from_bb = Bitboard::from_square(from);
        if first.is(us)
            || (!first.is_empty() && !self.capture_allowed(kind, from, mid, first, from_bb, false))
        {
            return;
        }
        if first.is_empty() {
            if mode == GenMode::Search {
                if !*pass_listed {
                    *pass_listed = true;
                    out.push(Move::double(from, mid, from));
                }
                return;
            }
            out.push(Move::double(from, mid, from));
        } else {
            out.push(Move::double(from, mid, from));
        }
        if let Some(&to) = ray.get(1) {
            let target = self.board[to.index()];
            if target.is(us) {
                return;
            }
            let mut transparent = from_bb;
            transparent.insert(mid);
            let valuable = !first.is_empty() && !Variant::has(self.variant.weak_mask, first.kind());
            if target.is_empty()
                || self.capture_allowed(kind, from, to, target, transparent, valuable)
            {
                out.push(Move::double(from, mid, to));
            }
        }
    }
}
