//! A node's children and its result as df-pn keeps them, and its proof and disproof
//! numbers from its children's (Allis), the most-proving child,
//! and df-pn's thresholds with the 1 + epsilon trick (Pawlewicz and Lew).

use super::*;

/// One child of a node during its expansion.
#[derive(Clone, Copy, Debug)]
pub(super) struct Child {
    pub(super) mv: Move,
    pub(super) numbers: Numbers,
    /// Plies to the end of the proof, when proven.
    pub(super) length: u16,
    /// A disproof that holds only on this line (repetition, ply limit).
    pub(super) line_only: bool,
}

/// What an expansion returns to its parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeResult {
    pub(super) numbers: Numbers,
    pub(super) length: u16,
    pub(super) line_only: bool,
}

/// The node's numbers from its children's: at an attacker node the easiest proof and all
/// disproofs together, at a defender node the other way round.
pub(super) fn summarise(children: &[Child], or_node: bool) -> NodeResult {
    let (mut min, mut sum) = (INFINITE, 0u32);
    let mut length: Option<u16> = None;
    let mut line_only = false;
    for c in children {
        let (this, other) = if or_node {
            (c.numbers.pn, c.numbers.dn)
        } else {
            (c.numbers.dn, c.numbers.pn)
        };
        min = min.min(this);
        sum = add(sum, other);
        if c.numbers.pn == 0 {
            length = Some(match length {
                None => c.length,
                Some(l) if or_node => l.min(c.length),
                Some(l) => l.max(c.length),
            });
        }
        if c.numbers.dn == 0 && c.line_only {
            line_only = true;
        }
    }
    let numbers = if or_node {
        Numbers { pn: min, dn: sum }
    } else {
        Numbers { pn: sum, dn: min }
    };
    NodeResult {
        numbers,
        length: length.map_or(0, |l| l.saturating_add(1)),
        line_only,
    }
}

/// The child to expand (smallest proof number at an attacker node, smallest disproof number
/// at a defender node) and the second smallest value.
pub(super) fn most_proving(children: &[Child], or_node: bool) -> (usize, u32) {
    let value = |c: &Child| if or_node { c.numbers.pn } else { c.numbers.dn };
    let mut best = 0;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate().skip(1) {
        let v = value(c);
        if v < value(&children[best]) {
            second = value(&children[best]);
            best = i;
        } else if v < second {
            second = v;
        }
    }
    (best, second)
}

/// The proven child with the shortest proof (attacker node).
pub(super) fn proving_child(children: &[Child]) -> Option<&Child> {
    children
        .iter()
        .filter(|c| c.numbers.pn == 0)
        .min_by_key(|c| c.length)
}

/// The threshold for the most-proving child: a little above the second best value (the
/// "1 + epsilon trick" of Pawlewicz and Lew), so that the search does not switch back and
/// forth between two nearly equal children, re-expanding both at every switch.
pub(super) fn epsilon_threshold(second: u32) -> u32 {
    add(second, 1 + second / 4)
}

/// Proof-number addition: saturates just below [`INFINITE`] unless a term is infinite.
pub(super) fn add(a: u32, b: u32) -> u32 {
    if a >= INFINITE || b >= INFINITE {
        INFINITE
    } else {
        (a + b).min(INFINITE - 1)
    }
}
