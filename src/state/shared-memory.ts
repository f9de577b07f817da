/**
 * The memory the worker threads of one server share (SharedArrayBuffers, made by the main thread
 * and handed to each worker): what makes them behave as one process.
 */
export interface SharedMemory {
  /** Rate-limit windows: an open-addressed table (see rate-limit-table.ts). */
  rateTable: SharedArrayBuffer;
  /** Counters: [0] open event streams. */
  counters: SharedArrayBuffer;
  /** Keyed locks for work that must not interleave across threads (see keyed-lock.ts). */
  locks: SharedArrayBuffer;
}

export const RATE_SLOTS = 1 << 16;
export const SLOT_INTS = 5;
export const LOCK_SLOTS = 1024;

export function sharedMemory(): SharedMemory {
  return {
    rateTable: new SharedArrayBuffer(RATE_SLOTS * SLOT_INTS * 4),
    counters: new SharedArrayBuffer(64),
    locks: new SharedArrayBuffer(LOCK_SLOTS * 4),
  };
}

/** Two independent 32-bit FNV-style hashes of a key: its place in the shared tables (0:0 is empty). */
export function hashKey(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  return a === 0 && b === 0 ? [0, 1] : [a, b];
}
