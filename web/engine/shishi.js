// Shishi, the chu shogi engine, as a WebAssembly module for the browser.
//
//   const engine = await Shishi({ wasmBinary, locateFile, wasmMemory });  // all optional
//   engine.addMessageListener(line => ...);   // each line the engine writes (USI)
//   engine.postMessage('usi');                // each line to the engine
//
// The factory and the two methods are the interface lishogi's engine loader expects of its
// browser engines (an emscripten-style factory on a global name). The engine runs in Web
// Workers, off the page's thread, one per search thread, over one shared memory: the page
// must be cross-origin isolated (served with `Cross-Origin-Opener-Policy: same-origin` and
// `Cross-Origin-Embedder-Policy: require-corp`), which `shishi serve` does.
(function (global) {
  'use strict';
  const script = typeof document !== 'undefined' && document.currentScript ? document.currentScript.src : '';
  const here = (path) => new URL(path, script || global.location.href).href;
  // The module's memory: at most 4 GiB (the module is linked with that maximum).
  const MAX_PAGES = 65536;

  async function Shishi(options) {
    const opts = options || {};
    const locate = opts.locateFile || here;
    if (typeof SharedArrayBuffer === 'undefined' || (global.crossOriginIsolated === false)) {
      throw new Error('Shishi needs a cross-origin isolated page (COOP same-origin and COEP require-corp headers) for its threads');
    }
    const binary = opts.wasmBinary || await (await fetch(locate('shishi.wasm'))).arrayBuffer();
    const module = await WebAssembly.compile(binary);
    const memory = opts.wasmMemory || new WebAssembly.Memory({ initial: 512, maximum: MAX_PAGES, shared: true });
    const stdin = new SharedArrayBuffer(8 + (1 << 16));
    const control = new Int32Array(stdin, 0, 2), data = new Uint8Array(stdin, 8);
    const spawnCounter = new SharedArrayBuffer(4);
    const listeners = [];
    const workers = [];
    const encoder = new TextEncoder();
    const workerUrl = locate('shishi.worker.js');
    function start(role, tid, startArg) {
      const worker = new Worker(workerUrl);
      worker.onmessage = (event) => {
        const m = event.data;
        if (m.type === 'line') listeners.forEach((fn) => fn(m.line));
        else if (m.type === 'spawn') start('thread', m.tid, m.startArg);
        else if (m.type === 'error') console.error('shishi:', m.message);
      };
      worker.postMessage({ type: 'start', role, tid, startArg, module, memory, stdin, spawnCounter });
      workers.push(worker);
    }
    start('main', 0, 0);
    return {
      postMessage(command) {
        // Appended to the input ring; the engine's reader wakes up.
        const bytes = encoder.encode(String(command) + '\n');
        let written = Atomics.load(control, 0);
        for (const b of bytes) { data[written % data.length] = b; written++; }
        Atomics.store(control, 0, written);
        Atomics.notify(control, 0);
      },
      addMessageListener(fn) { listeners.push(fn); },
      removeMessageListener(fn) { const i = listeners.indexOf(fn); if (i >= 0) listeners.splice(i, 1); },
      terminate() { workers.forEach((w) => w.terminate()); workers.length = 0; },
    };
  }

  global.Shishi = Shishi;
})(typeof self !== 'undefined' ? self : this);
