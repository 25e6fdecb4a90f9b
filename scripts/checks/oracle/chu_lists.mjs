// Reads `GAME<TAB>SFEN<TAB>MOVES` lines (our moves, sorted) on stdin and compares each list
// with lishogi's rules library (shogiops). Prints every difference and a summary line.
// Run from a folder where `npm install shogiops@0.18.0` was done (see scripts/checks/oracle-diff.sh).
import { createInterface } from 'node:readline';
import { parseSfen } from 'shogiops/sfen';
import { makeUsi } from 'shogiops/util';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const DOUBLE_MOVERS = new Set(['lion', 'lionpromoted', 'eagle', 'falcon']);

function lishogiMoves(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const capture = pos.board.get(to);
      const canPromote = pieceCanPromote('chushogi')(piece, from, to, capture);
      const forced = pieceForcePromote('chushogi')(piece, to);
      if (canPromote) out.push({ from, to, promotion: true });
      if (!forced) out.push({ from, to, promotion: false });
      if (DOUBLE_MOVERS.has(piece.role))
        for (const second of secondLionStepDests(pos, from, to)) out.push({ from, midStep: to, to: second });
    }
  }
  return out.map(makeUsi).sort();
}

let positions = 0, mismatches = 0;
const games = new Set();
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const [game, sfen, ours = ''] = line.split('\t');
  games.add(game);
  positions++;
  const pos = parseSfen('chushogi', sfen, false).unwrap();
  const theirs = lishogiMoves(pos);
  const mine = ours.split(' ').filter(Boolean);
  const a = new Set(mine), b = new Set(theirs);
  const onlyOurs = mine.filter(m => !b.has(m)), onlyTheirs = theirs.filter(m => !a.has(m));
  if (onlyOurs.length || onlyTheirs.length || mine.length !== theirs.length) {
    mismatches++;
    console.log(`MISMATCH game ${game}: ${sfen}\n  only ours: ${onlyOurs.join(' ')}\n  only shogiops: ${onlyTheirs.join(' ')}`);
  }
}
console.log(`chushogi: ${games.size} games, ${positions} positions, ${mismatches} mismatches`);
process.exit(mismatches ? 1 : 0);
