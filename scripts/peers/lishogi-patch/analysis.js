// Drives chu analyses through lishogi's ThreadedWasmWorker (bundled as window.LishogiCeval by
// scripts/peers/lishogi-patch-check.sh), as lishogi's ui/ceval/src/ctrl.ts builds its work: the
// patch's depth target (?target, ?extra), two threads, 16 MB hash. Records, per case, the
// evaluations the protocol emits, their rows, the deepest depth and when the protocol's own
// auto-stop fired (window.RESULT, for scripts/web/web-driver.js).
(async () => {
  const q = new URLSearchParams(location.search);
  const target = +q.get('target'), extra = +q.get('extra');
  const START = 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
  const threads = 2;
  const show = (text) => { document.getElementById('log').textContent += text + '\n'; };
  const result = { cases: [] };
  try {
    const { ThreadedWasmWorker } = window.LishogiCeval;
    const worker = new ThreadedWasmWorker({
      baseName: 'shishi',
      baseUrl: 'vendors/shishi-chushogi/',
      module: 'Shishi',
      version: '0.1.0',
      wasmMemory: new WebAssembly.Memory({ shared: true, initial: 2048, maximum: 32768 }),
    });
    const cases = [
      { name: 'analysis, MultiPV 1', multiPv: 1, moves: ['7i7h', '7d7e'], threatMode: false },
      { name: 'analysis, MultiPV 3', multiPv: 3, moves: ['8i8h', '5d5e', '7j8i', '6c5d'], threatMode: false },
      { name: 'threat mode', multiPv: 1, moves: [], threatMode: true },
    ];
    for (const c of cases) {
      // ctrl.ts's defaultDepth with the patch: the target plus the extra depth of spare threads.
      const maxDepth = target + Math.min(Math.min(Math.max(threads - c.multiPv, 0), 6), extra);
      const record = { name: c.name, multiPv: c.multiPv, maxDepth, evaluations: 0, deepest: 0, rows: [], stoppedMs: null };
      // Threat mode: the position with the other side to move, no moves (as ctrl.ts does it).
      const sfen = c.threatMode ? START.replace(/ (b|w) /, ' w ') : START;
      const work = {
        variant: 'chushogi', threads, hashSize: 16, enteringKingRule: false, stopRequested: false,
        initialSfen: sfen, moves: c.threatMode ? [] : c.moves, currentSfen: sfen, path: '',
        ply: c.threatMode ? 0 : c.moves.length, maxDepth, multiPv: c.multiPv, threatMode: c.threatMode,
        emit(ev) {
          record.evaluations++;
          record.deepest = Math.max(record.deepest, ev.depth);
          record.rows.push(ev.pvs.length);
        },
      };
      const started = performance.now();
      worker.start(work);
      while (!work.stopRequested && performance.now() - started < 240000) {
        await new Promise((r) => setTimeout(r, 100));
      }
      if (work.stopRequested) record.stoppedMs = performance.now() - started;
      while (worker.isComputing()) await new Promise((r) => setTimeout(r, 50));
      show(JSON.stringify(record));
      result.cases.push(record);
    }
    result.ok = true;
  } catch (e) {
    result.ok = false;
    result.error = String(e && e.stack || e);
    show('ERROR ' + result.error);
  }
  window.RESULT = result;
  document.title = result.ok ? 'done' : 'failed';
})();
