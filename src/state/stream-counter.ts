import type { StreamCounter } from '../../functions/sse.ts';

/** Open event streams counted in shared memory, so /status reports every worker's. */
export function sharedStreamCounter(counters: SharedArrayBuffer, index = 0): StreamCounter {
  const ints = new Int32Array(counters);
  return {
    opened: () => void Atomics.add(ints, index, 1),
    closed: () => void Atomics.sub(ints, index, 1),
    count: () => Atomics.load(ints, index),
  };
}
