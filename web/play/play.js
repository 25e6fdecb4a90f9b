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
    if (line.startsWith('info ') && !line.startsWith('info string') && onInfo) onInfo(line);
    // The engine's line in KIF notation (the KIF_PV option), as a chu player reads it.
    if (line.startsWith('info string kif multipv 1 ') && onInfo) $('pv').textContent = line.slice('info string kif multipv 1 '.length);
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

  const state = {
    variant: 'chushogi', start: null, moves: [], legal: [], board: [], files: 12, ranks: 12,
    pieces: {}, side: 'sente', over: null, selected: null, mid: null, flipped: false,
    searching: null, kif: [], last: null, restarts: 0,
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
    const room = wrap.parentElement.clientWidth - 30;
    wrap.style.setProperty('--sq', Math.max(20, Math.min(48, Math.floor(room / state.files))) + 'px');
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
      if (cell) {
        const span = document.createElement('span');
        span.className = 'piece' + (cell.sente === state.flipped ? ' turned' : '') + (cell.promoted ? ' promoted' : '');
        span.textContent = state.pieces[cell.kind] || cell.kind;
        sq.appendChild(span);
      }
      sq.addEventListener('click', () => click(name));
      board.appendChild(sq);
    }
  }

  function showMoves() {
    const list = $('moves');
    const from = state.kif.findIndex((l) => l.startsWith('手数'));
    const lines = state.kif.slice(from + 1).filter((l) => /^\s*\d/.test(l));
    list.innerHTML = '';
    // One item a move: a lion's double move is two KIF lines (一歩目, 二歩目) of one number.
    let number = null, li = null;
    for (const l of lines) {
      const n = l.match(/^\s*(\d+)/)[1], text = l.replace(/^\s*\d+/, '').trim();
      if (n === number) { li.textContent += '　' + text; continue; }
      number = n;
      li = document.createElement('li');
      li.value = +n;
      li.textContent = text;
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
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

  async function refresh() {
    await stopSearch();
    const lines = await request([positionCommand(), 'd', 'moves']);
    const error = lines.find((l) => l.startsWith('info string error'));
    if (error) { status(error.slice(12)); return false; }
    parseSfen(lines.find((l) => l.startsWith('sfen ')).slice(5));
    state.side = lines.find((l) => l.startsWith('side to move')).endsWith('gote') ? 'gote' : 'sente';
    const over = lines.find((l) => l.startsWith('info string the game is over'));
    state.over = over ? over.replace('info string ', '') : null;
    state.legal = answer(lines, 'moves').split(' ').slice(1);
    state.last = state.moves[state.moves.length - 1] || null;
    state.kif = (await request(['kif'])).filter((l) => l.startsWith('kif ')).map((l) => l.slice(4));
    state.selected = state.mid = null;
    draw(); showMoves();
    const mark = state.side === 'sente' ? '☗ sente' : '☖ gote';
    if (state.over) status(state.over + '.');
    else if (engineSide() === state.side) think().catch((e) => status('Error: ' + e.message));
    else if (mode() === 'analyse') { status(`${mark} to move (analysing).`); analyse(); }
    else status(`Your move (${mark}).`);
    return true;
  }

  function showInfo(line) {
    const words = line.split(' ');
    const at = (k) => words.indexOf(k);
    const sign = state.side === 'sente' ? 1 : -1;
    let text = null;
    if (at('cp') > 0) text = ((sign * +words[at('cp') + 1]) / 100).toFixed(2);
    if (at('mate') > 0) { const m = sign * +words[at('mate') + 1]; text = `${m > 0 ? '☗ sente' : '☖ gote'} mates in ${Math.abs(m)}`; }
    if (text !== null) $('eval').textContent = (text.startsWith('-') || text.includes('mates') ? '' : '+') + text + `  (depth ${words[at('depth') + 1]})`;
  }

  async function think() {
    status('Shishi is thinking…');
    onInfo = showInfo;
    const done = until((l) => l.startsWith('bestmove'));
    state.searching = done;
    engine.postMessage(`setoption name Skill_Level value ${$('level').value}`);
    engine.postMessage('setoption name Threads value 1');
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
    state.moves.push(best);
    await refresh();
  }

  function analyse() {
    onInfo = showInfo;
    const done = until((l) => l.startsWith('bestmove'));
    state.searching = done.then(() => { state.searching = null; }, () => { state.searching = null; });
    engine.postMessage('setoption name Skill_Level value 20');
    engine.postMessage(`setoption name Threads value ${analysisThreads}`);
    engine.postMessage('go infinite');
  }

  async function play(move) {
    state.moves.push(move);
    state.selected = state.mid = null;
    status('…');
    await refresh();
  }

  function click(square) {
    if (state.over || engineSide() === state.side) return;
    const mine = state.legal.map((m) => [m, parseMove(m)]);
    if (state.selected) {
      const from = mine.filter(([, p]) => p.from === state.selected);
      const choose = (list) => {
        const plain = list.find(([m]) => !m.endsWith('+')), promoting = list.find(([m]) => m.endsWith('+'));
        if (plain && promoting) return confirm('Promote?') ? promoting[0] : plain[0];
        return (promoting || plain)[0];
      };
      if (state.mid) {
        const doubles = from.filter(([, p]) => p.mid === state.mid && p.to === square);
        const single = square === state.mid ? from.filter(([, p]) => !p.mid && p.to === square) : [];
        if (doubles.length) return play(choose(doubles));
        if (single.length) return play(choose(single));
        state.selected = state.mid = null; draw(); return;
      }
      const doubles = from.filter(([, p]) => p.mid === square);
      const singles = from.filter(([, p]) => !p.mid && p.to === square);
      if (doubles.length) { state.mid = square; draw(); return; }
      if (singles.length) return play(choose(singles));
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
    state.pieces = Object.fromEntries(answer(lines, 'pieces ').split(' ').slice(1).map((p) => p.split('=')));
    if (!keep) { state.start = null; state.moves = []; }
  }

  // A pasted SFEN (with `moves ...` after it, or `position sfen ...`): its first line only,
  // without control characters, so that nothing but a position reaches the engine; kept
  // only when the engine takes it.
  async function loadSfen(line) {
    const [setup, moves] = line.replace(/^position\s+/, '').replace(/^sfen\s+/, '').split(/\s+moves\s+/);
    await stopSearch();
    const before = { start: state.start, moves: state.moves };
    state.start = setup.trim();
    state.moves = moves ? moves.trim().split(/\s+/) : [];
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
    state.moves = m[3] ? m[3].split(' ') : [];
    $('mode').value = 'analyse';
    await refresh();
  }

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
    actions = actions.then(() => action(...args)).catch((e) => status('Error: ' + e.message));
    return actions;
  };
  $('variant').onchange = oneAtATime(async () => { await setVariant($('variant').value); await refresh(); });
  $('mode').onchange = oneAtATime(() => refresh());
  $('new').onclick = oneAtATime(async () => { await stopSearch(); state.start = null; state.moves = []; await refresh(); });
  // The side to move after n moves from the start.
  const sideAfter = (n) => {
    const first = state.start && state.start.split(' ')[1] === 'w' ? 'gote' : 'sente';
    return n % 2 === 0 ? first : (first === 'sente' ? 'gote' : 'sente');
  };
  $('undo').onclick = oneAtATime(async () => {
    await stopSearch();
    state.moves.pop();
    // Against the engine, back to the player's own turn.
    if (engineSide() && state.moves.length && sideAfter(state.moves.length) === engineSide()) state.moves.pop();
    await refresh();
  });
  $('flip').onclick = () => { state.flipped = !state.flipped; draw(); };
  $('export').onclick = () => {
    const blob = new Blob([state.kif.join('\n') + '\n'], { type: 'text/plain;charset=utf-8' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob); a.download = 'shishi-game.kif'; a.click();
  };
  $('load').onclick = oneAtATime(() => load($('paste').value));
  $('file').onchange = oneAtATime(async (e) => { const f = e.target.files[0]; if (f) await load(await f.text()); });
  window.addEventListener('resize', draw);

  await request(['usi']);
  await setVariant('chushogi');
  await refresh();
  document.title = 'Shishi – ready';
})();
