// Shishi's WebAssembly engine in a Web Worker: a WASI (preview 1) system for the engine
// binary, in one of two modes.
// - threads (shishi.wasm, wasm32-wasip1-threads): its threads (wasi-threads) are more
//   workers over the same shared memory; standard input is a ring buffer in a
//   SharedArrayBuffer that the page fills (shishi.js) as far as it has room, read with
//   Atomics.wait.
// - single (shishi-single.wasm, wasm32-wasip1, for a page that is not cross-origin
//   isolated): one worker, no shared memory; the page posts its input as messages, and
//   the module waits for them (reading stdin, sleeping, or looking for input during a
//   search) by suspending with JavaScript Promise Integration (WebAssembly.Suspending),
//   so that the worker's event loop runs meanwhile.
// Standard output goes to the page a line at a time; standard error to the console.
// Nothing here is the engine: the rules and the search are all in the WebAssembly module.
'use strict';

const ERRNO = { SUCCESS: 0, BADF: 8, INVAL: 28, NOSYS: 52 };
const ENVIRON = `SHISHI_CORES=${(self.navigator && self.navigator.hardwareConcurrency) || 1}`;
let memory, stdinControl, stdinData, spawnCounter;
// Single mode: the input posted by the page and not yet read, and a reader waiting for it.
let inputQueue = new Uint8Array(0), inputWaiter = null;
const pending = { 1: '', 2: '' };
const decoder = new TextDecoder();

const bytes = () => new Uint8Array(memory.buffer);
const view = () => new DataView(memory.buffer);

// Text from the shared memory (a decoder takes no shared view: copied first).
function text(ptr, len) { return decoder.decode(bytes().slice(ptr, ptr + len)); }

function writeOut(fd, chunk) {
  pending[fd] += chunk;
  let end;
  while ((end = pending[fd].indexOf('\n')) >= 0) {
    const line = pending[fd].slice(0, end);
    pending[fd] = pending[fd].slice(end + 1);
    if (fd === 1) postMessage({ type: 'line', line });
    else console.debug('shishi:', line);
  }
}

// Threads mode's input: a ring of bytes in a SharedArrayBuffer that the page fills.
// stdinControl holds [written, read, page waiting]: the two counts of bytes (mod 2^32) and
// a flag the page sets when it holds input the ring had no room for, so that the reader,
// having made room, tells it ('drained'); the page never writes over unread bytes.
// Blocks until the page has written input, then copies what fits (the stdin reader thread
// is the only reader).
function readIn(iovs, count, nreadPtr) {
  let written;
  while ((written = Atomics.load(stdinControl, 0)) === Atomics.load(stdinControl, 1)) {
    Atomics.wait(stdinControl, 0, written);
  }
  let read = Atomics.load(stdinControl, 1), total = 0;
  const size = stdinData.length, dv = view(), mem = bytes();
  for (let i = 0; i < count && read !== written; i++) {
    const ptr = dv.getUint32(iovs + i * 8, true), len = dv.getUint32(iovs + i * 8 + 4, true);
    let n = 0;
    while (n < len && read !== written) { mem[ptr + n++] = stdinData[(read >>> 0) % size]; read = (read + 1) | 0; }
    total += n;
  }
  Atomics.store(stdinControl, 1, read);
  if (Atomics.compareExchange(stdinControl, 2, 1, 0) === 1) postMessage({ type: 'drained' });
  view().setUint32(nreadPtr, total, true);
  return ERRNO.SUCCESS;
}

// Single mode: copies queued input into the iovecs (at least one byte is queued).
function readQueued(iovs, count, nreadPtr) {
  const dv = view(), mem = bytes();
  let taken = 0;
  for (let i = 0; i < count && taken < inputQueue.length; i++) {
    const ptr = dv.getUint32(iovs + i * 8, true), len = dv.getUint32(iovs + i * 8 + 4, true);
    const n = Math.min(len, inputQueue.length - taken);
    mem.set(inputQueue.subarray(taken, taken + n), ptr);
    taken += n;
  }
  inputQueue = inputQueue.slice(taken);
  view().setUint32(nreadPtr, taken, true);
  return ERRNO.SUCCESS;
}

// Single mode: waits (the module suspended) until the page has posted input.
async function readInSingle(fd, iovs, count, nreadPtr) {
  if (fd !== 0) return ERRNO.BADF;
  while (inputQueue.length === 0) await new Promise((resolve) => { inputWaiter = resolve; });
  return readQueued(iovs, count, nreadPtr);
}

// Lets the worker's event loop run once (a message to itself: no timer clamping).
const loopChannel = new MessageChannel();
let loopResume = null;
loopChannel.port1.onmessage = () => { const resume = loopResume; loopResume = null; if (resume) resume(); };
function nextTask() { return new Promise((resolve) => { loopResume = resolve; loopChannel.port2.postMessage(0); }); }

// Single mode, during a search: lets the page's messages in, then says how much input waits.
async function inputWaiting() {
  await nextTask();
  return inputQueue.length;
}

function nowNs(id) {
  const ms = id === 0 ? Date.now() : performance.timeOrigin + performance.now();
  return BigInt(Math.round(ms * 1e6));
}

// Threads mode's sleeps (a page without shared memory has none: single mode sleeps by timer).
const sleeper = typeof SharedArrayBuffer === 'undefined' ? null : new Int32Array(new SharedArrayBuffer(4));

const wasi = {
  args_sizes_get(argcPtr, sizePtr) { view().setUint32(argcPtr, 1, true); view().setUint32(sizePtr, 7, true); return 0; },
  args_get(argvPtr, bufPtr) {
    view().setUint32(argvPtr, bufPtr, true);
    bytes().set([115, 104, 105, 115, 104, 105, 0], bufPtr); // "shishi\0"
    return 0;
  },
  // One variable: the machine's logical cores, which WASI has no call for (the engine caps
  // its threads by them).
  environ_sizes_get(countPtr, sizePtr) {
    view().setUint32(countPtr, 1, true); view().setUint32(sizePtr, ENVIRON.length + 1, true); return 0;
  },
  environ_get(environPtr, bufPtr) {
    view().setUint32(environPtr, bufPtr, true);
    bytes().set(new TextEncoder().encode(ENVIRON + '\0'), bufPtr);
    return 0;
  },
  random_get(ptr, len) {
    const buf = new Uint8Array(len);
    for (let i = 0; i < len; i += 65536) crypto.getRandomValues(buf.subarray(i, Math.min(len, i + 65536)));
    bytes().set(buf, ptr);
    return 0;
  },
  clock_time_get(id, _precision, outPtr) { view().setBigUint64(outPtr, nowNs(id), true); return 0; },
  fd_write(fd, iovs, count, nwrittenPtr) {
    if (fd !== 1 && fd !== 2) return ERRNO.BADF;
    const dv = view();
    let total = 0, chunk = '';
    for (let i = 0; i < count; i++) {
      const ptr = dv.getUint32(iovs + i * 8, true), len = dv.getUint32(iovs + i * 8 + 4, true);
      chunk += text(ptr, len); total += len;
    }
    writeOut(fd, chunk);
    view().setUint32(nwrittenPtr, total, true);
    return 0;
  },
  fd_read(fd, iovs, count, nreadPtr) { return fd === 0 ? readIn(iovs, count, nreadPtr) : ERRNO.BADF; },
  fd_fdstat_get(fd, ptr) {
    if (fd > 2) return ERRNO.BADF;
    const dv = view();
    dv.setUint8(ptr, 2); dv.setUint16(ptr + 2, 0, true);
    dv.setBigUint64(ptr + 8, 0xffffffffffffffffn, true); dv.setBigUint64(ptr + 16, 0xffffffffffffffffn, true);
    return 0;
  },
  fd_close() { return 0; },
  fd_filestat_get() { return ERRNO.BADF; },
  fd_filestat_set_size() { return ERRNO.BADF; },
  fd_prestat_get() { return ERRNO.BADF; },
  fd_prestat_dir_name() { return ERRNO.BADF; },
  path_create_directory() { return ERRNO.NOSYS; },
  path_filestat_get() { return ERRNO.NOSYS; },
  path_open() { return ERRNO.NOSYS; },
  path_readlink() { return ERRNO.NOSYS; },
  // Sleeps (std::thread::sleep) for the earliest clock subscription's timeout.
  poll_oneoff(inPtr, outPtr, count, neventsPtr) {
    const timeout = pollTimeout(inPtr, count);
    if (timeout !== Infinity) Atomics.wait(sleeper, 0, 0, timeout);
    return pollEvents(inPtr, outPtr, count, neventsPtr);
  },
  proc_exit(code) { postMessage({ type: 'exit', code }); throw new ExitSignal(code); },
  sched_yield() { return 0; },
};

// The earliest clock subscription's timeout of a poll_oneoff, in ms.
function pollTimeout(inPtr, count) {
  const dv = view();
  let timeout = Infinity;
  for (let i = 0; i < count; i++) {
    const s = inPtr + i * 48;
    if (dv.getUint8(s + 8) === 0) timeout = Math.min(timeout, Number(dv.getBigUint64(s + 24, true)) / 1e6);
  }
  return timeout;
}

// The events of a poll_oneoff whose clocks have run out.
function pollEvents(inPtr, outPtr, count, neventsPtr) {
  const dv = view();
  let events = 0;
  for (let i = 0; i < count; i++) {
    const s = inPtr + i * 48, e = outPtr + events * 32;
    if (dv.getUint8(s + 8) !== 0) continue;
    dv.setBigUint64(e, dv.getBigUint64(s, true), true); dv.setUint16(e + 8, 0, true); dv.setUint8(e + 10, 0);
    events++;
  }
  dv.setUint32(neventsPtr, events, true);
  return 0;
}

// The imports of the single mode: those that wait suspend the module instead of blocking.
function singleImports() {
  return {
    wasi_snapshot_preview1: {
      ...wasi,
      fd_read: new WebAssembly.Suspending(readInSingle),
      poll_oneoff: new WebAssembly.Suspending(async (inPtr, outPtr, count, neventsPtr) => {
        const timeout = pollTimeout(inPtr, count);
        if (timeout !== Infinity) await new Promise((resolve) => setTimeout(resolve, timeout));
        return pollEvents(inPtr, outPtr, count, neventsPtr);
      }),
    },
    shishi: { input_waiting: new WebAssembly.Suspending(inputWaiting) },
  };
}

class ExitSignal extends Error {}

// A new thread: its id now; the page starts its worker (a worker cannot wait for that).
function threadSpawn(startArg) {
  const tid = Atomics.add(spawnCounter, 0, 1) + 1;
  postMessage({ type: 'spawn', tid, startArg });
  return tid;
}

onmessage = async (event) => {
  const m = event.data;
  if (m.type === 'input') {
    const joined = new Uint8Array(inputQueue.length + m.bytes.length);
    joined.set(inputQueue); joined.set(m.bytes, inputQueue.length);
    inputQueue = joined;
    if (inputWaiter) { const wake = inputWaiter; inputWaiter = null; wake(); }
    return;
  }
  if (m.type !== 'start') return;
  if (m.role === 'single') return startSingle(m.module);
  memory = m.memory;
  stdinControl = new Int32Array(m.stdin, 0, 3);
  stdinData = new Uint8Array(m.stdin, 16);
  spawnCounter = new Int32Array(m.spawnCounter);
  const instance = await WebAssembly.instantiate(m.module, {
    env: { memory },
    wasi_snapshot_preview1: wasi,
    wasi: { 'thread-spawn': threadSpawn },
  });
  try {
    if (m.role === 'main') instance.exports._start();
    else instance.exports.wasi_thread_start(m.tid, m.startArg);
    if (m.role === 'main') postMessage({ type: 'exit', code: 0 });
  } catch (e) {
    if (!(e instanceof ExitSignal)) postMessage({ type: 'error', main: m.role === 'main', message: String(e && e.stack || e) });
  }
  if (m.role !== 'main') close();
};

// Single mode: the module on this worker alone, its memory its own.
async function startSingle(module) {
  const instance = await WebAssembly.instantiate(module, singleImports());
  memory = instance.exports.memory;
  try {
    await WebAssembly.promising(instance.exports._start)();
    postMessage({ type: 'exit', code: 0 });
  } catch (e) {
    if (!(e instanceof ExitSignal)) postMessage({ type: 'error', main: true, message: String(e && e.stack || e) });
  }
}
