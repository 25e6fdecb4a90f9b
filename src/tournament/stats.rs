//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority,
//! and a sequential probability ratio test.
//!
//! The SPRT is the generalised SPRT with the normal approximation that fastchess and
//! OpenBench use: with `s` the mean score per game, `var` its variance, and `s0`, `s1` the
//! scores that Elo differences `elo0`, `elo1` predict (logistic model),
//! `LLR = n * (s1 - s0) * (2s - s0 - s1) / (2 var)`, accepted at `ln((1-beta)/alpha)`,
//! rejected at `ln(beta/(1-alpha))`.

use super::error::{ArgumentProblem, MatchError};

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    /// Variance of the per-game score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and the half-width of its 95% interval (`None` while undefined: no
    /// games, or all won or all lost).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let stderr = (self.variance() / n).sqrt();
        let lo = elo_of(s - 1.96 * stderr);
        let hi = elo_of(s + 1.96 * stderr);
        Some((elo_of(s), (hi - lo) / 2.0))
    }

    /// Parses `W-L-D` (wins, losses, draws: the order of the match's progress line), at
    /// most `u32::MAX / 2` games in all, so that a match's own games can be added to them.
    pub fn parse(text: &str) -> Option<Tally> {
        let mut counts = text.split('-').map(|c| c.trim().parse::<u32>().ok());
        let (wins, losses, draws) = (counts.next()??, counts.next()??, counts.next()??);
        if counts.next().is_some() {
            return None;
        }
        let tally = Tally {
            wins,
            draws,
            losses,
        };
        let games = u64::from(wins) + u64::from(draws) + u64::from(losses);
        (games <= u64::from(u32::MAX / 2)).then_some(tally)
    }

    /// Likelihood of superiority, in [0, 1].
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// `W-L-D`: wins, losses, draws, as [`Tally::parse`] reads them back.
impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.losses, self.draws)
    }
}

impl std::ops::Add for Tally {
    type Output = Tally;

    /// The games of both (each count saturating at `u32::MAX`).
    fn add(self, other: Tally) -> Tally {
        Tally {
            wins: self.wins.saturating_add(other.wins),
            draws: self.draws.saturating_add(other.draws),
            losses: self.losses.saturating_add(other.losses),
        }
    }
}

/// The Elo difference that a score `s` means (logistic model), clamped to a finite range.
pub fn elo_of(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The score that an Elo difference predicts.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Error function (Abramowitz and Stegun 7.1.26; absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// No decision before this many games: the LLR estimates the variance from the games
    /// themselves, and a run of a few one-sided results (10-0-1 accepted H1 after 11
    /// games in chu self-play) makes it tiny and the ratio huge.
    pub min_games: u32,
    /// Games of an earlier run of the same test, counted with the match's own (`carry=W-L-D`,
    /// the first engine's wins, losses and draws): the test depends on the games only
    /// through their tally, so a test whose record was lost with its machine, or that ran
    /// on two machines, goes on where it stood and stops at its own bounds.
    pub carried: Tally,
}

/// The default of [`Sprt::min_games`].
pub const SPRT_MIN_GAMES: u32 = 40;

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// H1 accepted (the first engine is at least `elo1` stronger).
    AcceptH1,
    /// H0 accepted (it is not stronger than `elo0`).
    AcceptH0,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05,min_games=40,carry=W-L-D` (any order;
    /// missing keys default to those, and to nothing carried).
    pub fn parse(text: &str) -> Result<Sprt, MatchError> {
        let argument = |problem| MatchError::Argument {
            flag: "--sprt",
            problem,
        };
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            min_games: SPRT_MIN_GAMES,
            carried: Tally::default(),
        };
        for part in text.split(',').filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| argument(ArgumentProblem::NotKeyValue(part.to_string())))?;
            if key == "carry" {
                sprt.carried = Tally::parse(value)
                    .ok_or_else(|| argument(ArgumentProblem::NotATally(value.to_string())))?;
                continue;
            }
            let v: f64 = value
                .parse()
                .map_err(|_| argument(ArgumentProblem::NotANumber(value.to_string())))?;
            match key {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                "min_games" if v >= 0.0 && v.fract() == 0.0 && v <= f64::from(u32::MAX) => {
                    sprt.min_games = v as u32
                }
                "min_games" => return Err(argument(ArgumentProblem::NotACount(value.to_string()))),
                _ => {
                    return Err(argument(ArgumentProblem::UnknownKey {
                        key: key.to_string(),
                        known: "elo0, elo1, alpha, beta, min_games, carry",
                    }))
                }
            }
        }
        // alpha + beta < 1 keeps the lower bound below the upper (else the first game
        // decides); NaN fails every comparison, so it is refused with the rest.
        let probabilities = sprt.alpha > 0.0 && sprt.beta > 0.0 && sprt.alpha + sprt.beta < 1.0;
        let elos = sprt.elo0.is_finite() && sprt.elo1.is_finite() && sprt.elo0 < sprt.elo1;
        if !(probabilities && elos) {
            return Err(argument(ArgumentProblem::SprtBounds));
        }
        Ok(sprt)
    }

    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The games the test counts after the match's own `t`: `t` and the carried ones.
    pub fn counted(&self, t: &Tally) -> Tally {
        *t + self.carried
    }

    /// The log-likelihood ratio after the match's own `t` and the carried games (from the
    /// first engine's side).
    pub fn llr(&self, t: &Tally) -> f64 {
        let t = &self.counted(t);
        let n = t.games() as f64;
        let var = t.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * t.score() - s0 - s1) / (2.0 * var)
    }

    /// The state after the match's own `t` and the carried games (always `Continue` before
    /// [`Sprt::min_games`] of them).
    pub fn state(&self, t: &Tally) -> SprtState {
        if self.counted(t).games() < self.min_games {
            return SprtState::Continue;
        }
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_los_and_sprt() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!((even.elo().unwrap().0).abs() < 1e-9);
        assert!((even.los() - 0.5).abs() < 1e-9);
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (elo, err) = strong.elo().unwrap();
        assert!((elo - 190.8).abs() < 1.0, "{elo}");
        assert!(err > 50.0 && err < 120.0, "{err}");
        assert!(strong.los() > 0.999);
        assert_eq!(
            Tally {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        assert!((hi - 2.944).abs() < 0.01 && (lo + 2.944).abs() < 0.01);
        // 75% over 100 games is not yet enough for a 10-Elo test (LLR about 1.9); over 400 it is.
        assert_eq!(sprt.state(&strong), SprtState::Continue);
        assert_eq!(
            sprt.state(&Tally {
                wins: 300,
                draws: 0,
                losses: 100
            }),
            SprtState::AcceptH1
        );
        assert_eq!(
            sprt.state(&Tally {
                wins: 100,
                draws: 0,
                losses: 300
            }),
            SprtState::AcceptH0
        );
        assert_eq!(sprt.state(&even), SprtState::Continue);
        // 10-0-1 is past the upper bound (LLR about 4), but 11 games decide nothing.
        let streak = Tally {
            wins: 10,
            draws: 1,
            losses: 0,
        };
        assert!(sprt.llr(&streak) > hi, "{}", sprt.llr(&streak));
        assert_eq!(sprt.state(&streak), SprtState::Continue);
        let early = Sprt::parse("elo0=0,elo1=10,min_games=10").unwrap();
        assert_eq!(early.min_games, 10);
        assert_eq!(early.state(&streak), SprtState::AcceptH1);
        assert!(Sprt::parse("min_games=2.5").is_err());
        assert!(Sprt::parse("min_games=-1").is_err());
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
    }

    #[test]
    fn carried_games_count_with_the_match_s_own() {
        let wld = |text| Tally::parse(text).unwrap();
        let plain = Sprt::parse("elo0=0,elo1=10").unwrap();
        assert_eq!(plain.carried, Tally::default());
        let carried = Sprt::parse("elo0=0,elo1=10,carry=598-571-183").unwrap();
        assert_eq!(
            carried.carried,
            Tally {
                wins: 598,
                draws: 183,
                losses: 571
            }
        );
        let (new, sum) = (wld("100-90-30"), wld("698-661-213"));
        assert_eq!(sum.to_string(), "698-661-213", "written as it is read");
        assert_eq!(carried.counted(&new), sum);
        assert!((carried.llr(&new) - plain.llr(&sum)).abs() < 1e-12);
        assert!((carried.llr(&new) - plain.llr(&new)).abs() > 0.01);
        // docs/tuning.md (2026-12-07, tenth session): a record lost with its machine
        // (236-212-66) and the new one's games, 952 in all, LLR 0.67 by hand.
        let tenth = Sprt::parse("elo0=0,elo1=10,carry=236-212-66").unwrap();
        let own = wld("194-184-60");
        assert!(
            (tenth.llr(&own) - 0.67).abs() < 0.005,
            "{}",
            tenth.llr(&own)
        );
        // min_games counts the carried games: 40 carried decide at once.
        let decided = Sprt::parse("elo0=0,elo1=10,carry=38-1-1").unwrap();
        assert_eq!(decided.state(&Tally::default()), SprtState::AcceptH1);
        assert_eq!(
            Sprt::parse("carry=1-2-3,elo1=20").unwrap().carried.games(),
            6,
            "any order"
        );
        for bad in [
            "carry=1-2",
            "carry=1-2-3-4",
            "carry=a-1-1",
            "carry=-1-1-1",
            "carry=",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad}");
        }
        for too_many in ["carry=4294967295-1-0", "carry=2147483647-0-1"] {
            assert!(Sprt::parse(too_many).is_err(), "{too_many}");
        }
        assert!(Sprt::parse("carry=2147483646-0-1").is_ok());
    }
}
