// Reads KIF files written by `shishi match --kif` (or `shishi analyse --kif`) back with lishogi's rules library (shogiops)
// and compares every move with the game's record (`--jsonl`): the move lines are parsed by
// shogiops' own KIF move parser (parseKifMovesOrDrops) and played from the record's start.
//   node kif_roundtrip.mjs RECORDS.jsonl KIF_DIR
// Prints each game that does not read back whole (and why), then
// `kif round trip: G games, M of N moves read back exactly`.
// Run from a folder where `npm install shogiops@0.18.0` was done (see scripts/checks/oracle-diff.sh).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSfen } from 'shogiops/sfen';
import { makeUsi, parseUsi } from 'shogiops/util';
import { normalizedKifLines, parseKifMovesOrDrops } from 'shogiops/notation/kif';

const [recordsPath, kifDir] = process.argv.slice(2);
if (!recordsPath || !kifDir) {
  console.error('usage: node kif_roundtrip.mjs RECORDS.jsonl KIF_DIR');
  process.exit(2);
}

// The move lines of a KIF: after the moves header, without comments and the ending; the
// move number (and shogiops' `手目`) taken off, as lishogi's own reader does.
function moveLines(kif) {
  const lines = normalizedKifLines(kif);
  const start = lines.findIndex(l => l.startsWith('手数'));
  return lines
    .slice(start + 1)
    .filter(l => /^\d/.test(l))
    .map(l => l.replace(/^\d+(手目)?\s*/, ''))
    .filter(l => !/^(投了|詰み|中断|千日手|持将棋|切れ負け|反則)/.test(l));
}

let games = 0, moves = 0, exact = 0;
for (const line of readFileSync(recordsPath, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const record = JSON.parse(line);
  if (record.variant !== 'chushogi') continue;
  games++;
  // `shishi match --kif` names a game game-0001.kif; `shishi analyse --kif` by its id.
  const matchName = `game-${String(record.game).padStart(4, '0')}.kif`;
  const name = existsSync(join(kifDir, matchName)) ? matchName : `${record.id ?? record.game}.kif`;
  const ours = record.moves.split(' ').filter(Boolean);
  moves += ours.length;
  const theirs = parseKifMovesOrDrops(moveLines(readFileSync(join(kifDir, name), 'utf8')));
  const pos = parseSfen('chushogi', record.initialSfen, false).unwrap();
  let same = 0;
  for (; same < ours.length && same < theirs.length; same++) {
    const mine = parseUsi(ours[same]);
    const read = theirs[same];
    // A plain move and the same move written with its path are one move.
    const equal = makeUsi(read) === ours[same] || (mine && makeUsi({ ...mine, midStep: undefined }) === makeUsi({ ...read, midStep: undefined }) && !read.midStep && !mine.midStep);
    if (!equal || !pos.isLegal(read)) break;
    pos.play(read);
  }
  exact += same;
  if (same < ours.length)
    console.log(`${name}: ${same} of ${ours.length} moves read back; next ours ${ours[same]}, read ${theirs[same] ? makeUsi(theirs[same]) : 'nothing'}`);
}
console.log(`kif round trip: ${games} games, ${exact} of ${moves} moves read back exactly`);
// A move that does not read back fails the run (CI runs this on tests/data/kif).
process.exit(exact === moves ? 0 : 1);
