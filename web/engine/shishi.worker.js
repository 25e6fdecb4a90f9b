// Shishi's WebAssembly engine in a Web Worker: a WASI (preview 1) system for the engine
// binary built for wasm32-wasip1-threads, and its threads (wasi-threads) as more workers
// over the same shared memory. Standard input is a ring buffer in a SharedArrayBuffer that
// the page fills (shishi.js); standard output goes to the page a line at a time; standard
// error to the console. Nothing here is the engine: the rules and the search are all in
// the WebAssembly module.
'use strict';

const ERRNO = { SUCCESS: 0, BADF: 8, INVAL: 28, NOSYS: 52 };
let memory, stdinControl, stdinData, spawnCounter;
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

// Blocks until the page has written input, then copies what fits (the stdin reader thread
// is the only reader).
function readIn(iovs, count, nreadPtr) {
  let written;
  while ((written = Atomics.load(stdinControl, 0)) === Atomics.load(stdinControl, 1)) {
    Atomics.wait(stdinControl, 0, written);
  }
  let read = Atomics.load(stdinControl, 1), total = 0;
  const size = stdinData.length, dv = view(), mem = bytes();
  for (let i = 0; i < count && read < written; i++) {
    const ptr = dv.getUint32(iovs + i * 8, true), len = dv.getUint32(iovs + i * 8 + 4, true);
    let n = 0;
    while (n < len && read < written) { mem[ptr + n++] = stdinData[read % size]; read++; }
    total += n;
  }
  Atomics.store(stdinControl, 1, read);
  view().setUint32(nreadPtr, total, true);
  return ERRNO.SUCCESS;
}

function nowNs(id) {
  const ms = id === 0 ? Date.now() : performance.timeOrigin + performance.now();
  return BigInt(Math.round(ms * 1e6));
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

const wasi = {
  args_sizes_get(argcPtr, sizePtr) { view().setUint32(argcPtr, 1, true); view().setUint32(sizePtr, 7, true); return 0; },
  args_get(argvPtr, bufPtr) {
    view().setUint32(argvPtr, bufPtr, true);
    bytes().set([115, 104, 105, 115, 104, 105, 0], bufPtr); // "shishi\0"
    return 0;
  },
  environ_sizes_get(countPtr, sizePtr) { view().setUint32(countPtr, 0, true); view().setUint32(sizePtr, 0, true); return 0; },
  environ_get() { return 0; },
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
    const dv = view();
    let timeout = Infinity;
    for (let i = 0; i < count; i++) {
      const s = inPtr + i * 48;
      if (dv.getUint8(s + 8) === 0) timeout = Math.min(timeout, Number(dv.getBigUint64(s + 24, true)) / 1e6);
    }
    if (timeout !== Infinity) Atomics.wait(sleeper, 0, 0, timeout);
    let events = 0;
    for (let i = 0; i < count; i++) {
      const s = inPtr + i * 48, e = outPtr + events * 32;
      if (dv.getUint8(s + 8) !== 0) continue;
      dv.setBigUint64(e, dv.getBigUint64(s, true), true); dv.setUint16(e + 8, 0, true); dv.setUint8(e + 10, 0);
      events++;
    }
    dv.setUint32(neventsPtr, events, true);
    return 0;
  },
  proc_exit(code) { postMessage({ type: 'exit', code }); throw new ExitSignal(code); },
  sched_yield() { return 0; },
};

class ExitSignal extends Error {}

// A new thread: its id now; the page starts its worker (a worker cannot wait for that).
function threadSpawn(startArg) {
  const tid = Atomics.add(spawnCounter, 0, 1) + 1;
  postMessage({ type: 'spawn', tid, startArg });
  return tid;
}

onmessage = async (event) => {
  const m = event.data;
  if (m.type !== 'start') return;
  memory = m.memory;
  stdinControl = new Int32Array(m.stdin, 0, 2);
  stdinData = new Uint8Array(m.stdin, 8);
  spawnCounter = new Int32Array(m.spawnCounter);
  const instance = await WebAssembly.instantiate(m.module, {
    env: { memory },
    wasi_snapshot_preview1: wasi,
    wasi: { 'thread-spawn': threadSpawn },
  });
  try {
    if (m.role === 'main') instance.exports._start();
    else instance.exports.wasi_thread_start(m.tid, m.startArg);
  } catch (e) {
    if (!(e instanceof ExitSignal)) postMessage({ type: 'error', message: String(e && e.stack || e) });
  }
  if (m.role !== 'main') close();
};
