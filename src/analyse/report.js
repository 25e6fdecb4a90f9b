(function () {
  const files = GAME.files, ranks = GAME.ranks, cells = files * ranks;
  const wrap = document.getElementById('board-wrap');
  const board = document.getElementById('board');
  const arrows = document.getElementById('arrows');
  const movesList = document.getElementById('moves');
  const note = document.getElementById('position-note');
  const cursors = ['graph-cursor', 'times-cursor'].map(id => document.getElementById(id)).filter(Boolean);
  const glyph = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  const kanji = { inaccuracy: '疑問手', mistake: '悪手', blunder: '大悪手' };
  let current = 0, flipped = false, line = null, size = 44;
  wrap.style.setProperty('--files', files); wrap.style.setProperty('--ranks', ranks);
  const fileRow = document.getElementById('files'), rankCol = document.getElementById('ranks');
  const squares = [];
  for (let i = 0; i < cells; i++) { const d = document.createElement('div'); d.className = 'sq'; board.appendChild(d); squares.push(d); }
  function escapeHtml(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
  const mark = p => p.mover === 'sente' ? '☗' : '☖';
  GAME.plies.forEach((p, i) => {
    const li = document.createElement('li');
    li.value = i + 1;
    const j = p.judgement ? ` <span class="${escapeHtml(p.judgement)}">${glyph[p.judgement] || ''}</span>` : '';
    li.innerHTML = `<div class="row"><span class="mv">${mark(p)}${escapeHtml(p.kif)}${j}</span><span class="ev">${p.eval ? escapeHtml(p.eval.text) : ''}</span></div>`;
    li.addEventListener('click', () => show(i + 1));
    movesList.appendChild(li);
  });
  // The square shown at display place d (flipped: turned around).
  const at = d => flipped ? cells - 1 - d : d;
  function labels() {
    const f = flipped ? [...GAME.fileNames].reverse() : GAME.fileNames;
    const r = flipped ? [...GAME.rankNames].reverse() : GAME.rankNames;
    fileRow.innerHTML = f.map(x => `<div>${escapeHtml(x)}</div>`).join('');
    rankCol.innerHTML = r.map(x => `<div>${escapeHtml(x)}</div>`).join('');
  }
  // The board fits the column: at most 44 px a square, less on a narrow screen.
  function fit() {
    const room = wrap.parentElement.parentElement.clientWidth - 30;
    size = Math.max(18, Math.min(44, Math.floor(room / files)));
    wrap.style.setProperty('--sq', size + 'px');
    arrows.setAttribute('width', files * size); arrows.setAttribute('height', ranks * size);
  }
  function centre(i) { const d = flipped ? cells - 1 - i : i; return [(d % files + 0.5) * size, (Math.floor(d / files) + 0.5) * size]; }
  function arrow(a, b) {
    const [x1, y1] = centre(a), [x2, y2] = centre(b);
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#2c8a3e" stroke-width="${size / 7}" stroke-opacity="0.75" marker-end="url(#head)"/>`;
  }
  const defs = '<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#2c8a3e"/></marker></defs>';
  function draw(boardCells, lastSquares, bestSquares) {
    squares.forEach((sq, d) => {
      const i = at(d), c = boardCells[i];
      sq.className = 'sq'; sq.innerHTML = '';
      if (c !== 0) {
        const kind = GAME.kinds[Math.abs(c) - 1];
        const span = document.createElement('span');
        span.className = 'piece' + ((c < 0) !== flipped ? ' turned' : '') + (kind.promoted ? ' promoted' : '');
        span.textContent = kind.name;
        sq.appendChild(span);
      }
    });
    const mark = (i, cls) => squares[flipped ? cells - 1 - i : i].classList.add(cls);
    let svg = defs;
    if (lastSquares) {
      mark(lastSquares.from, 'last'); mark(lastSquares.to, 'last');
      if (lastSquares.mid !== null) mark(lastSquares.mid, 'mid');
    }
    if (bestSquares) {
      const b = bestSquares;
      mark(b.from, 'best'); mark(b.to, 'best');
      svg += b.mid !== null ? arrow(b.from, b.mid) + arrow(b.mid, b.to) : arrow(b.from, b.to);
    }
    arrows.innerHTML = svg;
    arrows.style.left = board.offsetLeft + 2 + 'px'; arrows.style.top = fileRow.offsetHeight + 2 + 'px';
  }
  function judgementText(j) { return ` <span class="${escapeHtml(j)}">${glyph[j] || ''} ${escapeHtml(j)} (${kanji[j] || ''})</span>`; }
  function render() {
    const ply = GAME.plies[current - 1];
    if (line) {
      // The best line of move `line.ply`, played out from the position before it.
      const p = GAME.plies[line.ply - 1], steps = p.best.steps;
      const before = GAME.boards[line.ply - 1];
      const shown = line.step === 0 ? before : steps[line.step - 1].board;
      const next = steps[line.step];
      draw(shown, line.step > 0 ? steps[line.step - 1].squares : null, next ? next.squares : null);
      let text = `<b>Best line instead of ${line.ply}. ${mark(p)}${escapeHtml(p.kif)}</b><br>`;
      text += steps.map((s, k) => k < line.step ? `<b>${escapeHtml(s.kif)}</b>` : escapeHtml(s.kif)).join('  ');
      text += `<br><button id="line-back">◁</button><button id="line-next">▷</button><button id="line-exit">✕ back to the game</button>`;
      note.innerHTML = text;
      document.getElementById('line-back').onclick = () => step(-1);
      document.getElementById('line-next').onclick = () => step(1);
      document.getElementById('line-exit').onclick = () => { line = null; render(); };
    } else {
      draw(GAME.boards[current], ply ? ply.squares : null, ply && ply.best ? ply.best.steps[0].squares : null);
      let text = current === 0 ? 'Start position.' : '';
      if (ply) {
        text = `<b>${current}. ${mark(ply)}${escapeHtml(ply.kif)}</b>`;
        if (ply.judgement) text += judgementText(ply.judgement);
        if (ply.eval) text += `<br>Evaluation (sente's view): ${escapeHtml(ply.eval.text)}`;
        if (ply.timeMs !== null && ply.timeMs !== undefined) text += ` · ${(ply.timeMs / 1000).toFixed(1)} s`;
        if (ply.mate) text += `<br>${escapeHtml(ply.mate)}`;
        if (ply.best) {
          text += `<br>Best (green arrow, from the position before): ${escapeHtml(ply.best.line)}`;
          text += `<br><button id="line-play">▷ play the best line</button>`;
        }
      }
      note.innerHTML = text;
      const play = document.getElementById('line-play');
      if (play) play.onclick = () => { line = { ply: current, step: 0 }; render(); };
    }
    [...movesList.children].forEach((li, i) => li.classList.toggle('current', i + 1 === current));
    // Scroll the move list alone, never the page (the board stays where it is).
    const li = movesList.children[current - 1];
    if (li) {
      const top = li.offsetTop, bottom = top + li.offsetHeight;
      if (top < movesList.scrollTop) movesList.scrollTop = top;
      else if (bottom > movesList.scrollTop + movesList.clientHeight) movesList.scrollTop = bottom - movesList.clientHeight;
    }
    const x = current / Math.max(1, GAME.plies.length) * 760;
    cursors.forEach(c => { c.setAttribute('x1', x); c.setAttribute('x2', x); });
  }
  function step(d) {
    const n = GAME.plies[line.ply - 1].best.steps.length;
    line.step = Math.max(0, Math.min(n, line.step + d));
    render();
  }
  function show(n) {
    line = null;
    current = Math.max(0, Math.min(GAME.plies.length, n));
    render();
  }
  function chart(id) {
    const svg = document.getElementById(id);
    if (!svg) return;
    svg.addEventListener('click', e => {
      const r = e.currentTarget.getBoundingClientRect();
      show(Math.round((e.clientX - r.left) / r.width * GAME.plies.length));
    });
  }
  chart('graph'); chart('times');
  document.querySelectorAll('a[data-ply]').forEach(a => a.addEventListener('click', e => { e.preventDefault(); show(+a.dataset.ply); }));
  document.getElementById('first').onclick = () => show(0);
  document.getElementById('prev').onclick = () => line ? step(-1) : show(current - 1);
  document.getElementById('next').onclick = () => line ? step(1) : show(current + 1);
  document.getElementById('last').onclick = () => show(GAME.plies.length);
  document.getElementById('flip').onclick = () => { flipped = !flipped; labels(); render(); };
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowLeft') line ? step(-1) : show(current - 1);
    if (e.key === 'ArrowRight') line ? step(1) : show(current + 1);
  });
  window.addEventListener('resize', () => { fit(); render(); });
  // `#ply=N` opens at move N; `&line` with its best line's first move; `&flip` from
  // gote's side.
  flipped = /flip/.test(location.hash);
  labels(); fit();
  const start = parseInt((location.hash.match(/ply=(\d+)/) || [])[1]);
  const lineAt = /line/.test(location.hash);
  show(Number.isNaN(start) ? 0 : start);
  if (lineAt && GAME.plies[current - 1] && GAME.plies[current - 1].best) { line = { ply: current, step: 1 }; render(); }
})();
