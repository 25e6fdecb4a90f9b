// The play page in headless Chromium (or Firefox), as a person uses it: a whole game against the engine
// played by clicking (each of our moves one the page offers, picked at random), then a
// lishogi KIF loaded by pasting, an SFEN pasted with a second line, a broken SFEN, the engine
// ended under the page (it must start again), then a few moves of sho. Prints {"moves": [...], "ended":
// "...", "listed": [...], "loaded": [...], "kif": [...], "sho": {...}} for
// scripts/web/web-check.py, which checks the moves with the native engine.
// usage: node scripts/web/web-play-test.js BASE_URL KIF_FILE [MAX_PLIES] [SCREENSHOT.png]
const { launch } = require('./browsers.js');
const fs = require('fs');

(async () => {
  const [base, kifFile, maxPlies, shot] = [process.argv[2], process.argv[3], +(process.argv[4] || 400), process.argv[5]];
  // SHISHI_BROWSER=firefox runs the same test in Firefox ESR (puppeteer-core, WebDriver BiDi).
  const browser = await launch(process.env.SHISHI_BROWSER || 'chromium');
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(base + '/play/index.html');
  await page.waitForFunction(() => document.title === 'Shishi – ready', null, { timeout: 60000 });
  await page.selectOption('#movetime', '1000');
  await page.selectOption('#level', '-9');
  // Waits for `fn` with a name for the step, so a timeout says where it was and what the
  // page showed.
  const waitStep = async (step, fn, arg, timeout) => {
    try {
      await page.waitForFunction(fn, arg, { timeout });
    } catch (e) {
      const seen = await page.evaluate(() => ({ status: document.getElementById('status').textContent,
        moves: window.SHISHI_PAGE.moves.join(' '), restarts: window.SHISHI_PAGE.restarts }));
      throw new Error(`${step}: ${e.message.split('\n')[0]} (page: ${JSON.stringify(seen)})`);
    }
  };
  const state = () => page.evaluate(() => ({ moves: window.SHISHI_PAGE.moves.slice(), over: window.SHISHI_PAGE.over,
    status: document.getElementById('status').textContent }));
  // Plays against the engine by clicking until the game ends or `plies` are played.
  const playPlies = async (plies) => {
    let s = await state();
    while (!s.over && s.moves.length < plies) {
      const before = s.moves.length;
      // Our move: a legal one by the page's list, clicked square by square (a lion's double
      // move on its middle square first).
      const move = await page.evaluate(() => {
        const l = window.SHISHI_PAGE.legal.filter((m) => !m.endsWith('+'));
        return l[Math.floor(Math.random() * l.length)];
      });
      const squares = move.match(/\d+[a-z]/g);
      for (const sq of squares) await page.click(`[data-square="${sq}"]`);
      // A plain move onto a square that is also a lion's middle step: the page waits for a
      // second step, and the same square again ends the move there.
      if (squares.length === 2 && await page.evaluate((to) => window.SHISHI_PAGE.mid === to, squares[1])) {
        await page.click(`[data-square="${squares[1]}"]`);
      }
      // The move chosen does not promote: where the page asks, keep the piece.
      if (await page.evaluate(() => !document.getElementById('promotion').hidden)) await page.click('#promote-no');
      // Our move and the engine's answer (or the end).
      await page.waitForFunction((n) => window.SHISHI_PAGE.over || (window.SHISHI_PAGE.moves.length >= n + 2 &&
        document.getElementById('status').textContent.startsWith('Your move')), before, { timeout: 60000 })
        .catch(async (e) => {
          const at = await state();
          throw new Error(`${e.message} after ${move} (${at.moves.length} moves: ${at.moves.join(' ')}; status: ${at.status})`);
        });
      s = await state();
      if (s.moves[before] !== move) throw new Error(`clicked ${move}, the page played ${s.moves[before]}`);
    }
    return s;
  };
  const s = await playPlies(maxPlies);
  const game = { moves: s.moves, ended: s.over || s.status };
  // The move list shows one numbered item a move (a lion's two steps in one).
  game.listed = await page.evaluate(() => [...document.querySelectorAll('#moves li')].map((li) => li.value));
  if (shot) await page.screenshot({ path: shot });
  // A lishogi KIF, pasted and loaded.
  await page.fill('#paste', fs.readFileSync(kifFile, 'utf8'));
  await page.click('#load');
  await waitStep('the pasted KIF', () => document.getElementById('status').textContent.includes('analysing'), null, 30000);
  game.loaded = await page.evaluate(() => window.SHISHI_PAGE.main.slice());
  game.kif = await page.evaluate(() => window.SHISHI_PAGE.kif.slice());
  // Issue 60, item 1: the loaded game opens at its start, the whole game listed with its
  // result; keys and buttons step through it, a move from a past position makes a
  // variation (the game kept), which can become the main line, and the address opens the
  // same place.
  const view = () => page.evaluate(() => ({ ply: window.SHISHI_PAGE.ply, line: window.SHISHI_PAGE.line,
    main: window.SHISHI_PAGE.main.slice(), vars: window.SHISHI_PAGE.vars.map((v) => ({ at: v.at, moves: v.moves.slice() })),
    buttons: document.querySelectorAll('#moves button.mv').length,
    variations: document.querySelectorAll('#moves li.variation').length,
    current: (document.querySelector('#moves button.current') || {}).textContent || null,
    result: document.getElementById('result').textContent, hash: location.hash }));
  const settled = (ply) => waitStep(`ply ${ply}`, (n) => window.SHISHI_PAGE.shown
    && window.SHISHI_PAGE.shown.endsWith(':' + n), ply, 30000);
  const status = () => page.evaluate(() => document.getElementById('status').textContent);
  const nav = { opened: await view() };
  await page.keyboard.press('End');
  await settled(10);
  nav.end = await view();
  await page.keyboard.press('ArrowLeft');
  await settled(9);
  await page.click('#back');
  await settled(8);
  nav.back = await view();
  // Another legal move than the game's ninth, clicked on the board.
  const other = await page.evaluate(() => window.SHISHI_PAGE.legal.find((m) => !m.endsWith('+')
    && m !== window.SHISHI_PAGE.main[8] && m.match(/\d+[a-z]/g).length === 2));
  for (const sq of other.match(/\d+[a-z]/g)) await page.click(`[data-square="${sq}"]`);
  await settled(9);
  nav.varied = await view();
  nav.other = other;
  await page.click('#moves button.mv[data-line="main"][data-ply="5"]');
  await settled(5);
  nav.clicked = await view();
  await page.click('#moves button.mv[data-line="0"][data-ply="9"]');
  await settled(9);
  await page.click('#promote');
  await waitStep('the promotion', () => window.SHISHI_PAGE.line === null && window.SHISHI_PAGE.main.length === 9, null, 30000);
  nav.promoted = await view();
  // The address of a past position opens it.
  await page.keyboard.press('Home');
  await settled(0);
  await page.keyboard.press('ArrowRight');
  await settled(1);
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction(() => document.title === 'Shishi – ready', null, { timeout: 60000 });
  nav.reopened = await view();
  game.navigation = nav;
  // Issue 60, item 4: promotion asked in the page, naming the piece and what it becomes;
  // the lion's second step explained, a target with a piece on it ringed, not dotted.
  const touch = {};
  await page.fill('#paste', '5kg5/12/12/12/6P5/12/12/12/12/12/12/5KG5 b - 1');
  await page.click('#load');
  await waitStep('the pawn position', () => window.SHISHI_PAGE.shown === 'null:0', null, 30000);
  await page.click('[data-square="6e"]');
  await page.click('[data-square="6d"]');
  await waitStep('the promotion dialog', () => !document.getElementById('promotion').hidden, null, 10000);
  touch.dialog = await page.evaluate(() => [document.getElementById('promotion-text').textContent,
    document.getElementById('promote-yes').textContent, document.getElementById('promote-no').textContent]);
  await page.click('#promote-yes');
  await waitStep('the promoted pawn', () => window.SHISHI_PAGE.shown === 'null:1', null, 30000);
  touch.promoted = await page.evaluate(() => window.SHISHI_PAGE.main.slice());
  await page.fill('#paste', '5kg5/12/12/12/6p5/6N5/12/12/12/12/12/5KG5 b - 1');
  await page.click('#load');
  await waitStep('the lion position', () => window.SHISHI_PAGE.shown === 'null:0', null, 30000);
  await page.click('[data-square="6f"]');
  touch.ringed = await page.evaluate(() => document.querySelector('[data-square="6e"]').className);
  await page.click('[data-square="6e"]');
  touch.hint = await status();
  await page.click('[data-square="6f"]');
  await waitStep('the igui', () => window.SHISHI_PAGE.shown === 'null:1', null, 30000);
  touch.igui = await page.evaluate(() => window.SHISHI_PAGE.main.slice());
  // The engine panel: sente's view said as such, numbered moves, depth and speed.
  await page.waitForFunction(() => document.querySelectorAll('#lines li .move').length > 0, null, { timeout: 30000 });
  touch.panel = await page.evaluate(() => ({ eval: document.getElementById('eval').textContent,
    stats: document.getElementById('stats').textContent,
    first: (document.querySelector('#lines li .move') || {}).textContent }));
  game.touch = touch;
  // Issue 60, item 3: a review of a short game (the page's default search, which is the
  // command line's) with its marks, graph, figures and annotated KIF, for web-check.py to
  // compare with `shishi analyse` on the same file; then a review stopped after its first move.
  await page.fill('#paste', fs.readFileSync(require('path').join(require('path').dirname(kifFile), 'game.kif'), 'utf8'));
  await page.click('#load');
  await waitStep('the game to review', () => window.SHISHI_PAGE.shown === 'null:0', null, 30000);
  await page.click('#review');
  await waitStep('the review', () => window.SHISHI_PAGE.review && window.SHISHI_PAGE.review.summary
    && !window.SHISHI_PAGE.reviewing && document.getElementById('status').textContent.startsWith('Review done'), null, 120000);
  game.review = await page.evaluate(() => {
    const r = window.SHISHI_PAGE.review;
    return { lines: r.plies.map((p) => p.line), summary: r.summary, kif: r.kif,
      marks: Object.fromEntries([...document.querySelectorAll('#moves button.mv[data-line="main"]')]
        .map((b) => [b.dataset.ply, (b.querySelector('.mark') || {}).textContent || ''])),
      markTitles: [...document.querySelectorAll('#moves .mark')].map((m) => m.title),
      graph: JSON.parse(document.getElementById('graph').dataset.points),
      chances: r.plies.map((p) => p.eval && p.eval.chances),
      sides: document.getElementById('review-sides').innerText,
      critical: [...document.querySelectorAll('#critical button')].map((b) => +b.dataset.ply) };
  });
  // The graph and the critical moments go to their move. The click on the graph is made
  // where the graph is at that moment (the engine panel above it grows as lines come).
  await page.evaluate(() => {
    const graph = document.getElementById('graph'), r = graph.getBoundingClientRect();
    graph.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
  });
  await settled(2);
  game.review.graphClick = await page.evaluate(() => ({ ply: window.SHISHI_PAGE.ply,
    said: document.getElementById('review-move').textContent }));
  await page.click('#critical button');
  await settled(game.review.critical[0]);
  game.review.criticalClick = await page.evaluate(() => window.SHISHI_PAGE.ply);
  // A deep review of the ten-move file, stopped after its first move: the board is free again.
  await page.fill('#paste', fs.readFileSync(kifFile, 'utf8'));
  await page.click('#load');
  await waitStep('the game to stop', () => window.SHISHI_PAGE.shown === 'null:0' && !window.SHISHI_PAGE.review, null, 30000);
  await page.selectOption('#review-nodes', '1000000');
  await page.click('#review');
  await waitStep('the first reviewed move', () => window.SHISHI_PAGE.review && window.SHISHI_PAGE.review.plies.length >= 1, null, 120000);
  game.review.busy = await page.evaluate(() => document.body.classList.contains('reviewing'));
  await page.click('#review-stop');
  await waitStep('the stopped review', () => !window.SHISHI_PAGE.reviewing
    && document.getElementById('status').textContent.startsWith('Review stopped'), null, 60000);
  game.review.stopped = { status: await status(), summary: await page.evaluate(() => window.SHISHI_PAGE.review.summary) };
  await page.keyboard.press('End');
  await settled(10);
  game.review.stopped.after = await page.evaluate(() => ({ ply: window.SHISHI_PAGE.ply, legal: window.SHISHI_PAGE.legal.length }));
  await page.selectOption('#review-nodes', '200000');
  // Issue 55, case 7: a pasted SFEN with a second line (`quit`) sent that line to the
  // engine, which ended, and the page waited for ever; a broken SFEN replaced the game.
  const CHU_START = 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
  await page.fill('#paste', `${CHU_START} moves 7i7h\nquit\n\u0007usinewgame`);
  await page.click('#load');
  await waitStep('the SFEN pasted with quit', () => window.SHISHI_PAGE.moves.join(' ') === '7i7h'
    && document.getElementById('status').textContent.includes('analysing'), null, 30000);
  await page.waitForTimeout(1500);
  game.hostile = { pasted: await page.evaluate(() => ({ moves: window.SHISHI_PAGE.moves.slice(), restarts: window.SHISHI_PAGE.restarts })) };
  await page.fill('#paste', 'lfcsgekgscfl/xx b - 1');
  await page.click('#load');
  await waitStep('the broken SFEN', () => document.getElementById('status').textContent.startsWith('Not loaded'), null, 30000);
  game.hostile.broken = { status: await status(), moves: await page.evaluate(() => window.SHISHI_PAGE.moves.slice()) };
  // An engine that ends all the same is noticed and started again, at the same position.
  await page.evaluate(() => window.SHISHI_SEND('quit'));
  await waitStep('the restart', () => window.SHISHI_PAGE.restarts === 1, null, 60000);
  game.hostile.restarted = { status: await status(), moves: await page.evaluate(() => window.SHISHI_PAGE.moves.slice()),
    legal: await page.evaluate(() => window.SHISHI_PAGE.legal.length) };
  // Sho: a few moves of a new game against the engine, on the sho board.
  // The variant and then at once the mode, as a person might: the page takes them in turn.
  await page.selectOption('#variant', 'shoshogi');
  await page.selectOption('#mode', 'play-gote');
  await waitStep('the sho game', () => window.SHISHI_PAGE.variant === 'shoshogi' && window.SHISHI_PAGE.moves.length === 0
    && document.getElementById('status').textContent.startsWith('Your move'), null, 30000);
  const sho = await playPlies(10);
  game.sho = { moves: sho.moves, squares: await page.evaluate(() => document.querySelectorAll('[data-square]').length) };
  // Issue 60, item 5: at 420 x 860 the board is as wide as the screen, one kanji a piece,
  // and after Load the status line and the whole board are in view; a move by dragging.
  const phone = await browser.newPage({ viewport: { width: 420, height: 860 } });
  await phone.goto(base + '/play/index.html');
  await phone.waitForFunction(() => document.title === 'Shishi – ready', null, { timeout: 60000 });
  await phone.fill('#paste', fs.readFileSync(kifFile, 'utf8'));
  await phone.click('#load');
  await phone.waitForFunction(() => window.SHISHI_PAGE.shown === 'null:0', null, { timeout: 30000 });
  const box = (sel) => phone.evaluate((q) => { const r = document.querySelector(q).getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; }, sel);
  // The three boxes at one moment (the page may still be scrolling back after Load).
  await phone.waitForTimeout(300);
  const boxes = await phone.evaluate(() => Object.fromEntries(['#board', '#board-wrap', '#status'].map((q) => {
    const r = document.querySelector(q).getBoundingClientRect();
    return [q, { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }];
  })));
  game.phone = { board: boxes['#board'], wrap: boxes['#board-wrap'], status: boxes['#status'],
    pieceset: await phone.evaluate(() => document.getElementById('pieceset').value),
    kanji: await phone.evaluate(() => document.querySelector('[data-square="7i"] .piece').textContent) };
  // A drag from 8h (the pawn of the game's first move) to 8g... after End the position is
  // the game's last; at the start 8i holds a pawn that may step to 8h.
  const center = async (sq) => { const b = await box(`[data-square="${sq}"]`); return [(b.left + b.right) / 2, (b.top + b.bottom) / 2]; };
  const [fx, fy] = await center('8i'), [tx, ty] = await center('8h');
  await phone.mouse.move(fx, fy); await phone.mouse.down(); await phone.mouse.move(tx, ty, { steps: 5 }); await phone.mouse.up();
  await phone.waitForFunction(() => window.SHISHI_PAGE.shown === 'null:1', null, { timeout: 30000 });
  game.phone.dragged = await phone.evaluate(() => window.SHISHI_PAGE.moves.slice());
  if (shot) await phone.screenshot({ path: shot.replace(/\.png$/, '-420.png') });
  console.log(JSON.stringify(game));
  await browser.close();
})().catch((e) => { console.error(String(e)); process.exit(1); });
