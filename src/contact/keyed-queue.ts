/**
 * Runs tasks one after another per key, in arrival order; different keys run side by side.
 * It is how the relayer's nonces and one payer's settlements are kept from interleaving.
 */
export type KeyedQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function keyedQueue(): KeyedQueue {
  const tails = new Map<string, Promise<unknown>>();
  return async (key, task) => {
    const result = (tails.get(key) ?? Promise.resolve()).then(task, task);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
