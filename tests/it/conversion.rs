//! Converting won endgames: from each position of `data/endgames/conversion.txt` Shishi plays
//! both sides at a fixed node budget, and the side that is far ahead must win (bare king or
//! royal captured) within the ply limit, instead of wandering until the move cap.

use shishi::position::Position;
use shishi::search::{Limits, Request, SearchControl, SearchOptions, Searcher, Silent};
use shishi::variant::sho::EVAL as SHO;
use shishi::variant::Variant;

/// Nodes per move: small enough for CI, large enough to see a few moves ahead.
const NODES: u64 = 20_000;

#[test]
fn every_won_endgame_is_won_within_its_limit() {
    let text = std::fs::read_to_string("data/endgames/conversion.txt").unwrap();
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        let variant = Variant::by_name(fields[0]).unwrap();
        let mut pos = Position::from_sfen(variant, fields[1]).unwrap();
        let limit: usize = fields[2].parse().unwrap();
        let strong = pos.side_to_move();
        // The variant's own search constants, as in play.
        let request = Request::play(Limits {
            nodes: Some(NODES),
            ..Limits::default()
        })
        .with_options(SearchOptions::for_variant(variant));
        let outcome = Searcher::new(16).play_out(&mut pos, &request, limit);
        match outcome {
            Some(o) if o.winner == Some(strong) => {
                eprintln!(
                    "line {}: won by {} at move {} ({})",
                    n + 1,
                    o.reason.describe(),
                    pos.history().len(),
                    fields[3]
                );
            }
            other => failures.push(format!(
                "line {} ({}): {:?} after {} plies, at {}",
                n + 1,
                fields[3],
                other,
                pos.history().len(),
                pos.to_sfen()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// King, crown prince and gold against king and gold is won, but sho's mop-up acts only
/// from its own lead (`SHO.mopup.lead`, 900) and the prince's 500 does not start it. The
/// `mopup_lead` parameter (`Tune_mopup_lead`) lowers the threshold without a rebuild: the
/// search's score then holds the mop-up bonus (never negative for the side ahead). (Each
/// side keeps a gold: king and prince against a lone king is a bare king at once.)
#[test]
fn the_mopup_lead_parameter_reaches_the_search() {
    let sho = Variant::sho();
    let pos = Position::from_sfen(sho, "9/9/2KG5/9/9/9/+e8/1k5g1/9 w - 1").unwrap();
    let score = |lead: i64| {
        let mut options = SearchOptions::for_variant(sho);
        options.params.set("mopup_lead", lead).unwrap();
        let request = Request::play(Limits {
            depth: Some(3),
            ..Limits::default()
        })
        .with_options(options);
        let result = Searcher::new(16).search(&pos, &request, &SearchControl::new(false), &Silent);
        result.score.expect("a finished depth")
    };
    let (own, from_450) = (score(0), score(450));
    assert!(from_450 > own + 20, "{from_450} against {own}");
    // The variant's own lead given by value is the same search.
    assert_eq!(score(i64::from(SHO.mopup.lead)), own);
}
