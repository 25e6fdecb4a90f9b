// The play page: draws the board and asks the engine for everything else (the legal moves,
// the position after a move, the notation, reading a KIF). No rule lives here.
(async function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const status = (text) => { $('status').textContent = text; };
  let engine;
  // Lines from the engine go to whoever waits for them.
  const waiters = [];
  let onInfo = null;
  const heard = (line) => {
    if (line.startsWith('review ')) onReviewLine(line);
    if (line.startsWith('info ') && !line.startsWith('info string') && onInfo) onInfo(line);
    // The engine's line in KIF notation (the KIF_PV option), as a chu player reads it.
    if (line.startsWith('info string kif multipv ') && onInfo) onKifLine(line);
    for (const w of [...waiters]) {
      w.lines.push(line);
      if (w.pred(line)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(w.lines); }
    }
  };
  // Starts the engine; if it ever ends (it should not: nothing the page sends asks it to),
  // what waited for it is let go and a new one takes its place, at the same position.
  async function startEngine() {
    engine = await Shishi({ locateFile: (f) => '../pkg/' + f });
    engine.addMessageListener(heard);
    engine.addExitListener((how) => {
      for (const w of waiters.splice(0)) w.reject(new Error('the engine stopped'));
      state.searching = null;
      status(`The engine stopped (${how.error ? 'a fault' : 'exit code ' + how.code}); starting it again…`);
      oneAtATime(async () => {
        await startEngine();
        await request(['usi']);
        await setVariant(state.variant, true);
        await refresh();
        state.restarts++;
        $('status').textContent += ' (The engine had stopped and was started again.)';
      })();
    });
    engine.postMessage('setoption name KIF_PV value true');
  }
  try {
    await startEngine();
  } catch (e) {
    status('The engine could not start: ' + e.message);
    return;
  }
  // Analysis uses the machine's cores (the threads build); a game against a level, one
  // thread, on which the Skill_Level ladder was measured.
  const analysisThreads = engine.build === 'threads' ? Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 16)) : 1;
  $('build').textContent = engine.build === 'threads'
    ? `its search threads as workers: up to ${analysisThreads} in analysis`
    : 'on one thread: this page is not cross-origin isolated, so it cannot share memory with more';
  const until = (pred) => new Promise((resolve, reject) => waiters.push({ pred, resolve, reject, lines: [] }));
  let chain = Promise.resolve();
  // Commands and every line of their answer, one request at a time: each request ends with
  // `isready`, whose `readyok` comes after everything the commands print, so a late line of
  // one request never counts for the next (a rejected position's `d` and `moves` both print
  // errors). Only while no search runs: on one thread a command waits for the search.
  const request = (commands) => {
    const next = chain.then(() => {
      const p = until((l) => l === 'readyok');
      commands.concat('isready').forEach((c) => engine.postMessage(c));
      return p;
    });
    chain = next.catch(() => {});
    return next;
  };
  const answer = (lines, prefix) => lines.find((l) => l.startsWith(prefix));

  // The game is a main line and its variations; the board shows `ply` moves of one line
  // (`line`: null for the main line, else an index of `vars`). A variation is the moves
  // before it (`prefix`, `at` of them) and its own; playing a move where the line has
  // another makes (or follows) a variation, so no move of the game is ever deleted.
  const state = {
    variant: 'chushogi', start: null, moves: [], legal: [], board: [], files: 12, ranks: 12,
    pieces: {}, side: 'sente', over: null, selected: null, mid: null, flipped: false,
    searching: null, kif: [], last: null, restarts: 0,
    main: [], vars: [], line: null, ply: 0, result: null, listed: { main: [], vars: [] },
    // The KIF file loaded, while the main line is its game (a review keeps its header).
    loaded: null,
    // The last review: the moves reviewed, each ply's verdict, the summary, the KIF.
    review: null, reviewing: false,
  };
  window.SHISHI_PAGE = state; // for the browser tests
  window.SHISHI_SEND = (line) => engine.postMessage(line); // likewise

  const parseMove = (m) => {
    const sq = m.match(/\d+[a-z]/g) || [];
    return { from: sq[0], mid: sq.length === 3 ? sq[1] : null, to: sq[sq.length - 1], promote: m.endsWith('+') };
  };
  const RANK_KANJI = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十', '十一', '十二'];
  const squareName = (x, y) => `${state.files - x}${String.fromCharCode(97 + y)}`;

  function parseSfen(sfen) {
    const rows = sfen.split(' ')[0].split('/');
    state.ranks = rows.length;
    state.board = [];
    for (const row of rows) {
      const cells = [];
      for (const token of row.match(/\d+|\+?[a-zA-Z]/g)) {
        if (/^\d+$/.test(token)) for (let i = 0; i < +token; i++) cells.push(null);
        else {
          const letter = token.replace('+', '');
          const kind = (token.startsWith('+') ? '+' : '') + letter.toLowerCase();
          cells.push({ kind, sente: letter === letter.toUpperCase(), promoted: token.startsWith('+') });
        }
      }
      state.board.push(cells);
    }
    state.files = state.board[0].length;
  }

  function targets() {
    if (!state.selected) return new Set();
    const from = state.legal.map(parseMove).filter((m) => m.from === state.selected);
    if (state.mid) {
      const t = new Set(from.filter((m) => m.mid === state.mid).map((m) => m.to));
      if (from.some((m) => !m.mid && m.to === state.mid)) t.add(state.mid);
      return t;
    }
    return new Set(from.map((m) => m.mid || m.to));
  }

  function draw() {
    const wrap = $('board-wrap'), board = $('board');
    // As wide as the column allows (on a phone, the screen), less the rank names.
    const room = wrap.parentElement.clientWidth - 22;
    wrap.style.setProperty('--sq', Math.max(20, Math.min(48, Math.floor(room / state.files))) + 'px');
    const oneKanji = $('pieceset').value === 'one';
    wrap.classList.toggle('one-kanji', oneKanji);
    wrap.style.setProperty('--files', state.files); wrap.style.setProperty('--ranks', state.ranks);
    const xs = [...Array(state.files).keys()], ys = [...Array(state.ranks).keys()];
    if (state.flipped) { xs.reverse(); ys.reverse(); }
    $('files').innerHTML = xs.map((x) => `<div>${state.files - x}</div>`).join('');
    // Ranks as KIF and lishogi's boards number them: 一 to 十二 from the top.
    $('ranks').innerHTML = ys.map((y) => `<div>${RANK_KANJI[y]}</div>`).join('');
    const hits = targets(), last = state.last ? parseMove(state.last) : null;
    board.innerHTML = '';
    for (const y of ys) for (const x of xs) {
      const name = squareName(x, y), cell = state.board[y][x];
      const sq = document.createElement('div');
      sq.className = 'sq';
      sq.dataset.square = name;
      if (last && (name === last.from || name === last.to || name === last.mid)) sq.classList.add('last');
      if (name === state.selected) sq.classList.add('selected');
      if (name === state.mid) sq.classList.add('mid');
      if (hits.has(name)) sq.classList.add('target');
      if (hits.has(name) && cell) sq.classList.add('occupied');
      if (cell) {
        const span = document.createElement('span');
        span.className = 'piece' + (cell.sente === state.flipped ? ' turned' : '') + (cell.promoted ? ' promoted' : '');
        span.textContent = (oneKanji ? state.pieces1 : state.pieces)[cell.kind] || cell.kind;
        sq.appendChild(span);
        if ((cell.sente ? 'sente' : 'gote') === state.side) sq.classList.add('own');
      }
      sq.addEventListener('click', () => click(name));
      // Drag and drop as well as two clicks: a press on a piece selects it, a release on
      // another square is the click there (a lion's mid square, then the next click or drag).
      sq.addEventListener('pointerdown', (e) => {
        if (!sq.classList.contains('own') || e.button > 0) return;
        dragFrom = name;
      });
      board.appendChild(sq);
    }
  }

  // The move list: the main line, numbered on from the start's move number, each move a
  // button to its position; each variation indented after the move it replaces; the
  // result the loaded file states at the end.
  function showMoves() {
    const list = $('moves');
    list.innerHTML = '';
    const first = firstNumber();
    const moveButton = (text, line, ply) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'mv' + (state.line === line && state.ply === ply ? ' current' : '');
      b.textContent = text;
      b.dataset.line = line === null ? 'main' : line;
      b.dataset.ply = ply;
      b.onclick = oneAtATime(() => goTo(line, ply));
      return b;
    };
    state.listed.main.forEach((text, i) => {
      const li = document.createElement('li');
      li.value = first + i;
      const button = moveButton(text, null, i + 1);
      addMark(button, reviewedPly(i + 1));
      li.appendChild(button);
      list.appendChild(li);
      state.vars.forEach((v, vi) => {
        if (v.at !== i) return;
        const sub = document.createElement('li');
        sub.className = 'variation';
        sub.value = first + i;
        state.listed.vars[vi].forEach((t, j) => {
          const n = document.createElement('span');
          n.className = 'number';
          n.textContent = `${first + v.at + j}.`;
          sub.append(n, moveButton(t, vi, v.at + j + 1));
        });
        list.appendChild(sub);
      });
    });
    // Variations that branch after the main line's last move.
    state.vars.forEach((v, vi) => {
      if (v.at < state.listed.main.length) return;
      const sub = document.createElement('li');
      sub.className = 'variation';
      sub.value = first + v.at;
      state.listed.vars[vi].forEach((t, j) => sub.append(moveButton(t, vi, v.at + j + 1)));
      list.appendChild(sub);
    });
    $('result').textContent = state.result ? `Result (from the file): ${state.result}` : '';
    $('promote').disabled = state.line === null;
    // The current move in view inside the list, without scrolling the page (on a phone
    // the board and status stay where they are).
    const current = list.querySelector('.current');
    if (current) {
      const top = current.offsetTop - list.offsetTop, bottom = top + current.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top - 4;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
    }
  }

  const positionCommand = () => (state.start ? `position sfen ${state.start}` : 'position startpos') +
    (state.moves.length ? ' moves ' + state.moves.join(' ') : '');
  const mode = () => $('mode').value;
  const engineSide = () => ({ 'play-gote': 'gote', 'play-sente': 'sente' })[mode()] || null;

  async function stopSearch() {
    if (!state.searching) return;
    engine.postMessage('stop');
    await state.searching;
  }

  // The moves of a line (null: the main line).
  const lineMoves = (line) => (line === null ? state.main : state.vars[line].prefix.concat(state.vars[line].moves));
  // The first move's number: an SFEN's move number (`... b - 11`) numbers on from there.
  const firstNumber = () => Math.max(1, +((state.start || '').split(' ')[3] || 1));
  // Each move of a line in KIF notation (the engine's), one string a move.
  const kifCache = new Map();
  async function kifMoves(moves) {
    const key = state.variant + '|' + (state.start || '') + '|' + moves.join(' ');
    if (kifCache.has(key)) return kifCache.get(key);
    const command = (state.start ? `position sfen ${state.start}` : 'position startpos') + (moves.length ? ' moves ' + moves.join(' ') : '');
    const answered = await request([command, 'kif']);
    // A position the engine refuses has no list (refresh says why).
    if (answer(answered, 'info string error')) return { texts: [], kif: [] };
    const kif = answered.filter((l) => l.startsWith('kif ')).map((l) => l.slice(4));
    const from = kif.findIndex((l) => l.startsWith('手数'));
    const texts = [];
    let number = null;
    for (const l of kif.slice(from + 1).filter((l) => /^\s*\d/.test(l))) {
      const n = l.match(/^\s*(\d+)/)[1], text = l.replace(/^\s*\d+/, '').trim();
      // A lion's double move is two KIF lines (一歩目, 二歩目) of one number.
      if (n === number) texts[texts.length - 1] += '　' + text; else texts.push(text);
      number = n;
    }
    kifCache.set(key, { texts, kif });
    return { texts, kif };
  }
  // The address of the position shown: the start, the line's moves and the ply, so that a
  // link opens the same place.
  function remember() {
    const params = new URLSearchParams();
    params.set('variant', state.variant);
    if (state.start) params.set('sfen', state.start);
    const moves = lineMoves(state.line);
    if (moves.length) params.set('moves', moves.join(' '));
    if (state.ply !== moves.length) params.set('ply', state.ply);
    history.replaceState(null, '', '#' + params.toString());
  }

  async function refresh() {
    await stopSearch();
    const line = lineMoves(state.line);
    state.ply = Math.max(0, Math.min(state.ply, line.length));
    state.moves = line.slice(0, state.ply);
    const main = await kifMoves(state.main);
    state.kif = main.kif;
    state.listed = { main: main.texts, vars: [] };
    for (const v of state.vars) state.listed.vars.push((await kifMoves(v.prefix.concat(v.moves))).texts.slice(v.at));
    const lines = await request([positionCommand(), 'd', 'moves']);
    const error = lines.find((l) => l.startsWith('info string error'));
    if (error) { status(error.slice(12)); return false; }
    parseSfen(lines.find((l) => l.startsWith('sfen ')).slice(5));
    state.side = lines.find((l) => l.startsWith('side to move')).endsWith('gote') ? 'gote' : 'sente';
    const over = lines.find((l) => l.startsWith('info string the game is over'));
    state.over = over ? over.replace('info string ', '') : null;
    // A game against the engine is over: its thinking, hidden till now, may be shown.
    if (state.over) drawPanel();
    state.legal = answer(lines, 'moves').split(' ').slice(1);
    state.last = state.moves[state.moves.length - 1] || null;
    state.selected = state.mid = null;
    draw(); showMoves(); remember(); showReviewedMove();
    state.shown = `${state.line}:${state.ply}`; // for the browser tests
    const mark = state.side === 'sente' ? '☗ sente' : '☖ gote';
    const atTip = state.ply === line.length;
    if (state.over) status(state.over + '.');
    else if (!atTip && mode() !== 'analyse') status(`Move ${state.ply} of ${line.length}: ${mark} to move. End (or ▶|) returns to the last move; a move played here starts a variation.`);
    else if (engineSide() === state.side) think().catch((e) => status('Error: ' + e.message));
    else if (mode() === 'analyse') { status(`${mark} to move (analysing).`); analyse(); }
    else status(`Your move (${mark}).`);
    return true;
  }

  // The engine panel. Scores are from sente's view and say so (☗ +1.20: sente is better);
  // a bound (the search saw only that the score is at least or at most this) is marked ≥
  // or ≤ and keeps the line before it; each line's moves are numbered as the game's.
  // In a game against the engine its thinking is hidden unless asked for (or the game is
  // over).
  let lines = {}, pendingKif = {};
  const senteView = (words, at) => {
    const sign = state.side === 'sente' ? 1 : -1;
    let bound = words.includes('lowerbound') ? '≥' : words.includes('upperbound') ? '≤' : '';
    if (bound && sign < 0) bound = bound === '≥' ? '≤' : '≥';
    if (at('mate') > 0) {
      const m = sign * +words[at('mate') + 1];
      return { text: `${m > 0 ? '☗ sente' : '☖ gote'} mates in ${Math.abs(m)}`, chances: m > 0 ? 1 : -1, bound };
    }
    const cp = sign * +words[at('cp') + 1];
    const chances = 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
    return { text: `☗ ${cp >= 0 ? '+' : '−'}${(Math.abs(cp) / 100).toFixed(2)}`, chances, bound };
  };
  const hidden = () => engineSide() && !state.over && !$('show-thinking').checked;
  function resetPanel() {
    lines = {}; pendingKif = {};
    $('eval').textContent = '–'; $('stats').textContent = ''; $('lines').innerHTML = '';
    $('evalfill').style.height = '50%';
  }
  function showInfo(line) {
    const words = line.split(' ');
    const at = (k) => words.indexOf(k);
    const value = (k) => (at(k) > 0 ? +words[at(k) + 1] : null);
    if (at('score') < 0) return;
    const n = value('multipv') || 1;
    const score = senteView(words, at);
    const entry = lines[n] || { kif: null };
    entry.score = score;
    entry.depth = value('depth');
    lines[n] = entry;
    // Only an exact line's moves replace the line shown.
    pendingKif[n] = !score.bound;
    if (n === 1) {
      const nodes = value('nodes'), nps = value('nps'), ms = value('time');
      const k = (x) => (x >= 1e6 ? (x / 1e6).toFixed(1) + 'M' : x >= 1e3 ? Math.round(x / 1e3) + 'k' : String(x));
      state.stats = `depth ${entry.depth}${value('seldepth') ? '/' + value('seldepth') : ''} · ${k(nodes || 0)} nodes · ${k(nps || 0)} nodes/s · ${((ms || 0) / 1000).toFixed(1)} s`;
    }
    drawPanel();
  }
  function onKifLine(line) {
    const m = line.match(/^info string kif multipv (\d+) (.*)$/);
    if (!m || !pendingKif[+m[1]] || !lines[+m[1]]) return;
    pendingKif[+m[1]] = false;
    lines[+m[1]].kif = m[2];
  }
  function drawPanel() {
    if (hidden()) {
      $('eval').innerHTML = '<span class="hidden-note">thinking (hidden in a game)</span>';
      $('stats').textContent = ''; $('lines').innerHTML = ''; $('evalfill').style.height = '50%';
      return;
    }
    const best = lines[1];
    if (!best) return;
    $('eval').innerHTML = '';
    const e = document.createElement('span');
    e.textContent = `${best.score.bound}${best.score.text}`;
    if (best.score.bound) e.className = 'bound';
    $('eval').appendChild(e);
    $('evalfill').style.height = `${Math.round(50 + 50 * best.score.chances)}%`;
    $('stats').textContent = state.stats || '';
    const list = $('lines');
    list.innerHTML = '';
    for (const n of Object.keys(lines).map(Number).sort((a, b) => a - b)) {
      const l = lines[n];
      const li = document.createElement('li');
      const sc = document.createElement('span');
      sc.className = 'score';
      sc.textContent = `${l.score.bound}${l.score.text}`;
      li.appendChild(sc);
      // Each move its number (as the game numbers its moves) and no break inside it.
      const moves = (l.kif || '').split(/(?=[☗☖])/).map((t) => t.trim()).filter(Boolean);
      moves.forEach((t, i) => {
        const mv = document.createElement('span');
        mv.className = 'move';
        const num = document.createElement('span');
        num.className = 'n';
        num.textContent = `${firstNumber() + state.ply + i}.`;
        mv.append(num, t);
        li.appendChild(mv);
      });
      list.appendChild(li);
    }
  }
  $('show-thinking').onchange = () => drawPanel();

  async function think() {
    status('Shishi is thinking…');
    resetPanel();
    onInfo = showInfo;
    const done = until((l) => l.startsWith('bestmove'));
    state.searching = done;
    engine.postMessage(`setoption name Skill_Level value ${$('level').value}`);
    engine.postMessage('setoption name Threads value 1');
    engine.postMessage('setoption name MultiPV value 1');
    engine.postMessage(`go movetime ${$('movetime').value}`);
    const lines = await done;
    state.searching = null;
    const best = lines[lines.length - 1].split(' ')[1];
    if (best === 'resign' || best === 'win') {
      state.over = best === 'resign' ? 'Shishi resigns' : 'Shishi claims the win';
      status(state.over + '.');
      return;
    }
    if (engineSide() !== state.side) return;
    // The engine's move as it wrote it (a lion's path may differ from the list's form):
    // the position command checks it, and refresh shows an error if it were refused.
    await play(best);
  }

  function analyse() {
    resetPanel();
    onInfo = showInfo;
    const done = until((l) => l.startsWith('bestmove'));
    state.searching = done.then(() => { state.searching = null; }, () => { state.searching = null; });
    engine.postMessage('setoption name Skill_Level value 20');
    engine.postMessage(`setoption name Threads value ${analysisThreads}`);
    engine.postMessage(`setoption name MultiPV value ${$('multipv').value}`);
    engine.postMessage('go infinite');
  }

  // Plays `move` after the position shown: the line's own next move is followed; at the
  // line's end the move extends it; elsewhere it follows or starts a variation.
  async function play(move) {
    const line = lineMoves(state.line), before = line.slice(0, state.ply);
    if (line[state.ply] === move) {
      state.ply++;
    } else if (state.ply === line.length) {
      if (state.line === null) state.main.push(move); else state.vars[state.line].moves.push(move);
      state.ply++;
    } else {
      // Another line that goes this way from here (the main line first), or a new
      // variation.
      const same = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);
      const goesThisWay = (moves) => same(moves.slice(0, state.ply), before) && moves[state.ply] === move;
      if (goesThisWay(state.main)) {
        state.line = null;
      } else {
        let found = state.vars.findIndex((v, i) => goesThisWay(lineMoves(i)));
        if (found < 0) {
          state.vars.push({ at: state.ply, prefix: before, moves: [move] });
          found = state.vars.length - 1;
        }
        state.line = found;
      }
      state.ply++;
    }
    state.selected = state.mid = null;
    status('…');
    await refresh();
  }

  // Goes to ply `ply` of line `line` (null: the main line).
  async function goTo(line, ply) {
    state.line = line;
    state.ply = ply;
    await refresh();
  }

  // Makes the variation shown the main line; the old main line becomes a variation.
  async function promote() {
    if (state.line === null) return;
    const next = lineMoves(state.line), old = state.main;
    let d = 0;
    while (d < next.length && d < old.length && next[d] === old[d]) d++;
    state.vars.splice(state.line, 1);
    if (d < old.length) state.vars.push({ at: d, prefix: old.slice(0, d), moves: old.slice(d) });
    state.main = next;
    state.line = null;
    await refresh();
  }

  // A drag in progress: the square pressed on.
  let dragFrom = null;
  document.addEventListener('pointerup', (e) => {
    const from = dragFrom;
    dragFrom = null;
    if (!from) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const to = under && under.closest('[data-square]');
    if (!to || to.dataset.square === from) return;
    if (state.selected !== from) click(from);
    click(to.dataset.square);
  });

  // Board coordinates of a square name (`7h`).
  const sqX = (name) => state.files - parseInt(name, 10);
  const sqY = (name) => name.charCodeAt(name.length - 1) - 97;
  const turnText = () => (state.side === 'sente' ? 'Your move (☗ sente).' : 'Your move (☖ gote).');
  // The promotion choice, in the page: names the piece and what it becomes; true to
  // promote. Escape keeps the piece as it is.
  function askPromotion(from) {
    const cell = state.board[sqY(from)][sqX(from)];
    const name = state.pieces[cell.kind] || cell.kind, promoted = state.pieces['+' + cell.kind] || '+' + cell.kind;
    $('promotion-text').textContent = `Promote the ${name} (${cell.kind.toUpperCase()}) to ${promoted}?`;
    $('promote-yes').textContent = `Promote: ${name} → ${promoted}`;
    $('promote-no').textContent = `Keep the ${name}`;
    $('promotion').hidden = false;
    $('promote-yes').focus();
    return new Promise((resolve) => {
      const done = (yes) => {
        $('promotion').hidden = true;
        document.removeEventListener('keydown', onKey, true);
        resolve(yes);
      };
      const onKey = (e) => { if (e.key === 'Escape') { e.stopPropagation(); done(false); } };
      document.addEventListener('keydown', onKey, true);
      $('promote-yes').onclick = () => done(true);
      $('promote-no').onclick = () => done(false);
    });
  }

  function click(square) {
    if (state.over || engineSide() === state.side) return;
    const mine = state.legal.map((m) => [m, parseMove(m)]);
    if (state.selected) {
      const from = mine.filter(([, p]) => p.from === state.selected);
      const choose = async (list) => {
        const plain = list.find(([m]) => !m.endsWith('+')), promoting = list.find(([m]) => m.endsWith('+'));
        if (plain && promoting) return (await askPromotion(state.selected)) ? promoting[0] : plain[0];
        return (promoting || plain)[0];
      };
      const playChosen = async (list) => play(await choose(list));
      if (state.mid) {
        const doubles = from.filter(([, p]) => p.mid === state.mid && p.to === square);
        const single = square === state.mid ? from.filter(([, p]) => !p.mid && p.to === square) : [];
        if (doubles.length) return playChosen(doubles);
        if (single.length) return playChosen(single);
        state.selected = state.mid = null; draw(); status(turnText()); return;
      }
      const doubles = from.filter(([, p]) => p.mid === square);
      const singles = from.filter(([, p]) => !p.mid && p.to === square);
      if (doubles.length) {
        state.mid = square; draw();
        const back = from.some(([, p]) => p.mid === square && p.to === state.selected);
        const stop = singles.length > 0;
        status(`Second step: click where it goes on` + (stop ? `, ${square} again to stop there` : '')
          + (back ? `, or its own square to ${state.board[sqY(square)][sqX(square)] ? 'capture and return (igui)' : 'return (jitto: a pass)'}` : '') + '.');
        return;
      }
      if (singles.length) return playChosen(singles);
    }
    state.selected = mine.some(([, p]) => p.from === square) ? square : null;
    state.mid = null;
    draw();
  }

  async function setVariant(variant, keep) {
    await stopSearch();
    state.variant = variant;
    $('variant').value = variant;
    const lines = await request([`setoption name USI_Variant value ${variant}`, 'pieces']);
    const names = (prefix) => Object.fromEntries(answer(lines, prefix).split(' ').slice(1).map((p) => p.split('=')));
    state.pieces = names('pieces ');
    state.pieces1 = names('pieces1 ');
    if (!keep) { state.start = null; setGame([], 0); }
  }

  // A new game: `moves` as its main line, no variation, the board after `ply` of them.
  function setGame(moves, ply) {
    state.loaded = null;
    state.review = null;
    drawReview();
    state.main = moves.slice();
    state.vars = [];
    state.line = null;
    state.ply = ply;
    state.result = null;
  }

  const describeResult = (r) => ({ '1-0': '1-0, ☗ sente wins', '0-1': '0-1, ☖ gote wins', '1/2-1/2': '½-½, a draw' })[r] || r;

  // A pasted SFEN (with `moves ...` after it, or `position sfen ...`): its first line only,
  // without control characters, so that nothing but a position reaches the engine; kept
  // only when the engine takes it.
  async function loadSfen(line) {
    const [setup, moves] = line.replace(/^position\s+/, '').replace(/^sfen\s+/, '').split(/\s+moves\s+/);
    await stopSearch();
    const before = { start: state.start, main: state.main, vars: state.vars, line: state.line, ply: state.ply, result: state.result };
    state.start = setup.trim();
    const list = moves ? moves.trim().split(/\s+/) : [];
    setGame(list, list.length);
    if (await refresh()) return;
    const why = $('status').textContent.replace(/^error: /, '');
    Object.assign(state, before);
    await refresh();
    status('Not loaded: ' + why + ' (the position is as it was).');
  }

  async function load(text) {
    text = text.trim();
    if (!text) return;
    const first = text.split(/\r?\n/)[0].replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
    if (/^(position\s+)?(sfen\s+)?[1-9a-zA-Z+]+(\/[1-9a-zA-Z+]+)+\s+[bw]\b/.test(first)) return loadSfen(first);
    // No search may run (on one thread the command would wait for it).
    await stopSearch();
    const lines = await request(['kifread ' + encodeURIComponent(text)]);
    const error = answer(lines, 'info string error');
    if (error) { status('Not read: ' + error.slice(19)); return; }
    const m = answer(lines, 'kifgame ').match(/^kifgame variant (\S+) sfen (.+?) moves ?(.*)$/);
    await setVariant(m[1], true);
    state.start = m[2];
    // The whole game in the list, the board at its start.
    setGame(m[3] ? m[3].split(' ') : [], 0);
    state.loaded = { text, moves: state.main.slice() };
    const result = answer(lines, 'kifresult ');
    state.result = result ? describeResult(result.split(' ')[1]) : null;
    $('mode').value = 'analyse';
    // Below the fold on a phone after "Load": the board and status back in view (before the
    // position is drawn, so that it is there when it shows; and after, if it moved).
    $('status').scrollIntoView({ block: 'start' });
    await refresh();
    $('status').scrollIntoView({ block: 'start' });
  }

  // Saves KIF lines (the engine's) as a file.
  function downloadKif(lines, name) {
    const blob = new Blob([lines.join('\n') + '\n'], { type: 'text/plain;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob); a.download = name; a.click();
  }
  // The review: the engine's `review` command (`shishi analyse` on the main line, in the
  // engine) judges every move; the page shows what it says, a ply at a time: marks in the
  // move list, the evaluation graph, each side's figures, the critical moments, the
  // annotated KIF. Nothing is judged here.
  const sameStart = (a, b) => a.every((m, i) => b[i] === m);
  // The review's verdict on main-line ply `ply`, while the main line still begins with the
  // moves reviewed.
  const reviewedPly = (ply) => {
    const r = state.review;
    if (!r || ply < 1 || !sameStart(r.moves.slice(0, ply), state.main)) return null;
    return r.plies[ply - 1] || null;
  };
  function addMark(button, reviewed) {
    const old = button.querySelector('.mark');
    if (old) old.remove();
    const j = reviewed && reviewed.judgement;
    if (!j) return;
    const mark = document.createElement('span');
    mark.className = 'mark ' + j.name;
    mark.textContent = j.glyph;
    mark.title = `${j.words} (${j.kanji})`;
    button.appendChild(mark);
  }
  const side = (mover) => (mover === 'sente' ? '☗' : '☖');
  // A reviewed main-line move as the move list writes it, after its mover's mark.
  const moveText = (ply, reviewed) => side(reviewed.mover) + (state.listed.main[ply - 1] || reviewed.line.played);
  const evalWords = (e) => (e ? '☗ ' + e.text : 'no score');
  // The first moves of a reviewed move's best line (the whole line is in the KIF).
  const bestWords = (p) => {
    const moves = (p.best || p.line.bestmove || '').split(/(?=[☗☖])/).map((t) => t.trim()).filter(Boolean);
    return moves.slice(0, 3).join(' ') + (moves.length > 3 ? ' …' : '');
  };
  // What the review said of the move shown, under the Review heading.
  function showReviewedMove() {
    const el = $('review-move');
    const reviewed = state.line === null ? reviewedPly(state.ply) : null;
    if (!reviewed) { el.textContent = ''; drawGraphCursor(); return; }
    const j = reviewed.judgement;
    el.textContent = `${firstNumber() + state.ply - 1}. ${moveText(state.ply, reviewed)}: ${evalWords(reviewed.eval)}`
      + (j ? ` — ${j.glyph} ${j.words} (${j.kanji}), win chance down ${reviewed.chancesDown} points; best ${bestWords(reviewed)}` : '');
    drawGraphCursor();
  }
  // The graph's size in its own units, and the room kept at each end for a dot.
  const GRAPH_W = 600, GRAPH_H = 120, GRAPH_PAD = 5;
  const graphX = (ply) => GRAPH_PAD + ply / Math.max(1, state.review.moves.length) * (GRAPH_W - 2 * GRAPH_PAD);
  const graphY = (chances) => (1 - chances) / 2 * GRAPH_H;
  // Sente's winning chances after each move reviewed (the engine's numbers), a dot on each
  // judged move in its colour; a click goes to the move under it.
  function drawGraph() {
    const r = state.review, svg = $('graph');
    const points = [[0, 0]];
    r.plies.forEach((p, i) => { if (p && p.eval) points.push([i + 1, p.eval.chances]); });
    const line = points.map(([p, c]) => `${graphX(p).toFixed(1)},${graphY(c).toFixed(1)}`).join(' ');
    const lastX = graphX(points[points.length - 1][0]).toFixed(1);
    let dots = '';
    r.plies.forEach((p, i) => {
      if (!p || !p.eval || !p.judgement) return;
      const x = graphX(i + 1).toFixed(1), y = graphY(p.eval.chances).toFixed(1);
      // A zero-length line with round caps: a round dot however the graph is stretched.
      dots += `<line class="dot ${p.judgement.name}" data-ply="${i + 1}" x1="${x}" y1="${y}" x2="${x}" y2="${y}" `
        + 'stroke="currentColor" stroke-width="8" stroke-linecap="round" vector-effect="non-scaling-stroke"/>';
    });
    svg.innerHTML = `<polygon class="sente-area" points="${GRAPH_PAD},${GRAPH_H} ${line} ${lastX},${GRAPH_H}"/>`
      + `<line class="axis" x1="0" y1="${GRAPH_H / 2}" x2="${GRAPH_W}" y2="${GRAPH_H / 2}"/>`
      + `<polyline class="eval-line" points="${line}"/>${dots}<line class="cursor" x1="0" y1="0" x2="0" y2="${GRAPH_H}"/>`;
    svg.dataset.points = JSON.stringify(points); // for the browser tests
    drawGraphCursor();
  }
  function drawGraphCursor() {
    const cursor = document.querySelector('#graph .cursor');
    if (!cursor || !state.review) return;
    const x = state.line === null ? graphX(Math.min(state.ply, state.review.moves.length)).toFixed(1) : -10;
    cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
  }
  $('graph').onclick = (e) => {
    const r = state.review;
    if (!r) return;
    const box = $('graph').getBoundingClientRect();
    const x = (e.clientX - box.left) / box.width * GRAPH_W;
    const ply = Math.max(0, Math.min(r.moves.length, Math.round((x - GRAPH_PAD) / (GRAPH_W - 2 * GRAPH_PAD) * r.moves.length)));
    if (sameStart(r.moves.slice(0, ply), state.main)) oneAtATime(() => goTo(null, ply))();
  };
  // Each side's figures and the critical moments, when the review has ended.
  function drawSummary() {
    const r = state.review, sum = r.summary.line.summary;
    const row = (label, key, format) => `<tr><td>${label}</td><td>${format(sum.sente[key])}</td><td>${format(sum.gote[key])}</td></tr>`;
    const count = (x) => String(x), percent = (x) => (x === null ? '–' : x.toFixed(1) + '%');
    $('review-sides').innerHTML = '<tr><th></th><th>☗ sente</th><th>☖ gote</th></tr>'
      + row('Accuracy', 'accuracy', percent)
      + row('<span class="inaccuracy">?!</span> Inaccuracies', 'inaccuracies', count)
      + row('<span class="mistake">?</span> Mistakes', 'mistakes', count)
      + row('<span class="blunder">??</span> Blunders', 'blunders', count)
      + row('Average centipawn loss', 'averageCpLoss', (x) => (x === null ? '–' : x.toFixed(1)));
    const list = $('critical');
    list.innerHTML = '';
    for (const ply of r.summary.critical) {
      const p = r.plies[ply - 1], li = document.createElement('li'), b = document.createElement('button');
      b.type = 'button';
      b.dataset.ply = ply;
      b.textContent = `${firstNumber() + ply - 1}. ${moveText(ply, p)} ${p.judgement.glyph}`;
      b.onclick = oneAtATime(() => goTo(null, ply));
      li.append(b, ` ${p.judgement.words} (${p.judgement.kanji}), win chance down ${p.chancesDown} points; best ${bestWords(p)}`);
      list.appendChild(li);
    }
    if (!r.summary.critical.length) list.innerHTML = '<li class="note">No move was judged an inaccuracy or worse.</li>';
  }
  function drawReview() {
    const r = state.review;
    $('review-out').hidden = !r;
    $('review-progress-row').hidden = !r;
    $('review-progress').hidden = !state.reviewing;
    $('review-stop').hidden = !state.reviewing;
    $('review').disabled = state.reviewing;
    document.body.classList.toggle('reviewing', state.reviewing);
    if (!r) return;
    $('review-progress').max = r.moves.length;
    $('review-progress').value = r.plies.filter(Boolean).length;
    const seconds = ((r.seconds ?? (performance.now() - r.started) / 1000)).toFixed(0);
    $('review-count').textContent = `${r.plies.filter(Boolean).length} of ${r.moves.length} moves · ${seconds} s`;
    drawGraph();
    if (r.summary) drawSummary();
  }
  // A line of the running review.
  function onReviewLine(line) {
    const r = state.review;
    if (!r || !state.reviewing) return;
    const [, kind, rest] = line.match(/^review (\S+) ?(.*)$/) || [];
    if (kind === 'ply') {
      const p = JSON.parse(rest);
      r.plies[p.line.ply - 1] = p;
      const button = document.querySelector(`#moves button.mv[data-line="main"][data-ply="${p.line.ply}"]`);
      if (button) addMark(button, reviewedPly(p.line.ply));
      drawReview();
    } else if (kind === 'summary') {
      r.summary = JSON.parse(rest);
    } else if (kind === 'kif') {
      r.kif.push(rest);
    }
  }
  async function review() {
    if (!state.main.length) { status('There is no game to review: load one or play some moves.'); return; }
    // The engine is the opponent in a game still being played: it reviews the game once it is over.
    if (engineSide() && !state.over) { status('A game against Shishi is reviewed when it is over (or switch to analyse).'); return; }
    await stopSearch();
    const moves = state.main.slice();
    state.review = { moves, plies: [], summary: null, kif: [], started: performance.now(), seconds: null };
    state.reviewing = true;
    resetPanel();
    // The loaded file itself while the main line is its game (its players and header
    // go into the annotated KIF); else the main line.
    const file = state.loaded && state.loaded.moves.join(' ') === moves.join(' ') ? ' kif ' + encodeURIComponent(state.loaded.text) : '';
    const done = until((l) => l === 'reviewok');
    state.searching = done.catch(() => {});
    if (!file) engine.postMessage((state.start ? `position sfen ${state.start}` : 'position startpos') + ' moves ' + moves.join(' '));
    engine.postMessage(`review nodes ${$('review-nodes').value}${file}`);
    status(`Reviewing the game (${moves.length} moves)…`);
    drawReview();
    const ended = await done.then(() => true, () => false);
    state.searching = null;
    state.reviewing = false;
    const r = state.review;
    r.seconds = (performance.now() - r.started) / 1000;
    if (!ended || !r.summary) { status('The review did not finish (the engine stopped).'); state.review = null; drawReview(); return; }
    drawReview();
    status(r.summary.stopped
      ? `Review stopped after ${r.summary.analysed} of ${r.summary.plies} moves (${r.seconds.toFixed(0)} s).`
      : `Review done: ${r.summary.plies} moves in ${r.seconds.toFixed(0)} s.`);
    const message = $('status').textContent;
    await oneAtATime(() => refresh())();
    status(message);
  }
  $('review').onclick = () => { if (!state.reviewing) oneAtATime(() => { review().catch((e) => status('Error: ' + e.message)); })(); };
  $('review-stop').onclick = () => { if (state.reviewing) engine.postMessage('stop'); };
  $('review-kif').onclick = () => downloadKif(state.review.kif, 'shishi-review.kif');

  // One kanji a piece by default on a narrow screen (two-kanji names at phone sizes blur).
  $('pieceset').value = window.matchMedia('(max-width: 600px)').matches ? 'one' : 'two';
  $('pieceset').onchange = () => draw();
  for (let level = 20; level >= -9; level--) {
    const o = document.createElement('option');
    o.value = level; o.textContent = level === 20 ? '20 (full strength)' : String(level);
    $('level').appendChild(o);
  }
  $('level').value = '5';
  // The controls' actions one after another: a second one (a mode chosen while the variant
  // is being switched) starts when the first has set the position up.
  let actions = Promise.resolve();
  const oneAtATime = (action) => (...args) => {
    // A review holds the engine: the board waits for it to end (or for Stop).
    if (state.reviewing) { status('Reviewing the game… (Stop ends the review and frees the board.)'); return actions; }
    actions = actions.then(() => action(...args)).catch((e) => status('Error: ' + e.message));
    return actions;
  };
  $('variant').onchange = oneAtATime(async () => { await setVariant($('variant').value); await refresh(); });
  $('mode').onchange = oneAtATime(() => refresh());
  $('new').onclick = oneAtATime(async () => { await stopSearch(); state.start = null; setGame([], 0); await refresh(); });
  // Stepping through the line shown: never changes the game.
  const step = (to) => oneAtATime(async () => {
    const length = lineMoves(state.line).length;
    const ply = { first: 0, back: state.ply - 1, forward: state.ply + 1, last: length }[to];
    if (ply < 0 || ply > length || ply === state.ply) return;
    await goTo(state.line, ply);
  });
  $('first').onclick = step('first');
  $('back').onclick = step('back');
  $('forward').onclick = step('forward');
  $('last').onclick = step('last');
  $('promote').onclick = oneAtATime(() => promote());
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('textarea, input, select') || e.altKey || e.ctrlKey || e.metaKey || !$('promotion').hidden) return;
    const to = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'first', End: 'last' }[e.key];
    if (!to) return;
    e.preventDefault();
    step(to)();
  });
  $('flip').onclick = () => { state.flipped = !state.flipped; draw(); };
  $('export').onclick = () => downloadKif(state.kif, 'shishi-game.kif');
  $('load').onclick = oneAtATime(() => load($('paste').value));
  $('file').onchange = oneAtATime(async (e) => { const f = e.target.files[0]; if (f) await load(await f.text()); });
  window.addEventListener('resize', draw);

  await request(['usi']);
  // A link to a position (`#variant=...&sfen=...&moves=...&ply=N`) opens there; one the
  // engine refuses opens the start position instead.
  const link = new URLSearchParams(location.hash.slice(1));
  await setVariant(['chushogi', 'shoshogi'].includes(link.get('variant')) ? link.get('variant') : 'chushogi');
  if (link.has('sfen') || link.has('moves')) {
    state.start = link.get('sfen') || null;
    const moves = (link.get('moves') || '').split(' ').filter(Boolean);
    setGame(moves, link.has('ply') ? Math.max(0, Math.min(moves.length, parseInt(link.get('ply'), 10) || 0)) : moves.length);
    $('mode').value = 'analyse';
    if (!(await refresh())) {
      const why = $('status').textContent;
      state.start = null; setGame([], 0);
      await refresh();
      status('The link\'s position was not loaded: ' + why);
    }
  } else {
    await refresh();
  }
  document.title = 'Shishi – ready';
})();
