// Shishi, the chu shogi engine, as a WebAssembly module for the browser.
//
//   const engine = await Shishi({ wasmBinary, locateFile, wasmMemory });  // all optional
//   engine.addMessageListener(line => ...);   // each line the engine writes (USI)
//   engine.postMessage('usi');                // each line to the engine
//   engine.addExitListener(how => ...);       // if it ends ({code} after quit, {error})
//
// The factory and the two methods are the interface lishogi's engine loader expects of its
// browser engines (an emscripten-style factory on a global name). The engine runs in Web
// Workers, off the page's thread, in one of two builds:
// - threads (shishi.wasm): one worker per search thread over one shared memory. The page
//   must be cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin`
//   and `Cross-Origin-Embedder-Policy: require-corp`, as scripts/web/serve-web.py does).
// - one thread (shishi-single.wasm): on any other page, in a browser with WebAssembly
//   JavaScript Promise Integration (Chromium 137 and later): one worker, which hears
//   `stop` during a search about every 10 ms.
// The factory takes the threads build where it can; `threads: false` asks for the other.
// `wasmBinary`, when given, is used if it is the build the page can run.
(function (global) {
  'use strict';
  const script = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : '';
  const here = (path) => new URL(path, script || global.location.href).href;
  // The threads build's memory: at most 4 GiB (the module is linked with that maximum).
  const MAX_PAGES = 65536;
  // The threads build's input ring: its bytes, and where they start after the control words.
  const RING_BYTES = 1 << 16, RING_DATA = 16;

  // Whether a compiled module is the threads build (it asks for wasi-threads).
  const usesThreads = (module) => WebAssembly.Module.imports(module).some((i) => i.module === 'wasi');

  async function compile(opts, locate, threads) {
    if (opts.wasmBinary) {
      const given = await WebAssembly.compile(opts.wasmBinary);
      if (usesThreads(given) === threads) return given;
    }
    const file = threads ? 'shishi.wasm' : 'shishi-single.wasm';
    return WebAssembly.compile(await (await fetch(locate(file))).arrayBuffer());
  }

  async function Shishi(options) {
    const opts = options || {};
    const locate = opts.locateFile || here;
    const isolated = typeof SharedArrayBuffer !== 'undefined' && global.crossOriginIsolated !== false;
    const threads = isolated && opts.threads !== false;
    if (!threads && typeof WebAssembly.Suspending !== 'function') {
      throw new Error('Shishi needs a cross-origin isolated page (COOP same-origin and COEP require-corp headers) for its threads, '
        + 'or a browser with WebAssembly JavaScript Promise Integration (Chromium 137 or later) for one thread');
    }
    const module = await compile(opts, locate, threads);
    const listeners = [];
    const workers = [];
    const encoder = new TextEncoder();
    const workerUrl = locate('shishi.worker.js');
    const exitListeners = [];
    let ended = false;
    // The engine ended (`quit`, or a fault in the module): said once, to each exit listener.
    const end = (how) => {
      if (ended) return;
      ended = true;
      exitListeners.forEach((fn) => fn(how));
    };
    const onmessage = (event) => {
      const m = event.data;
      if (m.type === 'line') listeners.forEach((fn) => fn(m.line));
      else if (m.type === 'exit') end({ code: m.code });
      else if (m.type === 'error' && m.main) { console.error('shishi:', m.message); end({ error: m.message }); }
      else if (m.type === 'drained') flush();
      else if (m.type === 'spawn') startThread(m.tid, m.startArg);
      else if (m.type === 'error') console.error('shishi:', m.message);
    };
    let send;
    let flush = () => {};
    let startThread = null;
    if (threads) {
      const memory = opts.wasmMemory || new WebAssembly.Memory({ initial: 512, maximum: MAX_PAGES, shared: true });
      // The input ring: [written, read, page waiting] then the bytes (see the worker).
      const stdin = new SharedArrayBuffer(RING_DATA + RING_BYTES);
      const control = new Int32Array(stdin, 0, 3), data = new Uint8Array(stdin, RING_DATA);
      const spawnCounter = new SharedArrayBuffer(4);
      const start = (role, tid, startArg) => {
        const worker = new Worker(workerUrl);
        worker.onmessage = onmessage;
        worker.postMessage({ type: 'start', role, tid, startArg, module, memory, stdin, spawnCounter });
        workers.push(worker);
      };
      startThread = (tid, startArg) => start('thread', tid, startArg);
      start('main', 0, 0);
      // Input the ring has no room for yet, in order: never written over unread bytes.
      const waiting = [];
      let waitingFrom = 0;
      const fill = () => {
        let written = Atomics.load(control, 0);
        const free = RING_BYTES - ((written - Atomics.load(control, 1)) >>> 0);
        let room = free;
        while (room > 0 && waiting.length) {
          const chunk = waiting[0];
          const n = Math.min(room, chunk.length - waitingFrom);
          for (let i = 0; i < n; i++) data[((written + i) >>> 0) % RING_BYTES] = chunk[waitingFrom + i];
          written = (written + n) | 0;
          room -= n;
          waitingFrom += n;
          if (waitingFrom === chunk.length) { waiting.shift(); waitingFrom = 0; }
        }
        if (room !== free) {
          Atomics.store(control, 0, written);
          Atomics.notify(control, 0);
        }
      };
      // Writes what fits; while input waits, the reader says when it has read ('drained').
      flush = () => {
        fill();
        while (waiting.length) {
          Atomics.store(control, 2, 1);
          // The reader may have read between the fill and the flag: look once more.
          if (RING_BYTES - ((Atomics.load(control, 0) - Atomics.load(control, 1)) >>> 0) === 0) return;
          Atomics.store(control, 2, 0);
          fill();
        }
      };
      send = (bytes) => { waiting.push(bytes); flush(); };
    } else {
      const worker = new Worker(workerUrl);
      worker.onmessage = onmessage;
      worker.postMessage({ type: 'start', role: 'single', module });
      workers.push(worker);
      send = (bytes) => worker.postMessage({ type: 'input', bytes });
    }
    return {
      /** Which build runs: 'threads' or 'single'. */
      build: threads ? 'threads' : 'single',
      postMessage(command) { send(encoder.encode(String(command) + '\n')); },
      addMessageListener(fn) { listeners.push(fn); },
      /** Called once if the engine ends ({code} after `quit`, {error} after a fault). */
      addExitListener(fn) { exitListeners.push(fn); },
      /** Whether the engine has ended. */
      get ended() { return ended; },
      removeMessageListener(fn) { const i = listeners.indexOf(fn); if (i >= 0) listeners.splice(i, 1); },
      terminate() { workers.forEach((w) => w.terminate()); workers.length = 0; },
    };
  }

  global.Shishi = Shishi;
})(typeof self !== 'undefined' ? self : this);
