/**
 * A map bounded by the bytes of its values: the oldest entries go first once `maxBytes` is passed,
 * and a value larger than a sixteenth of the bound is not kept at all.
 */
export function boundedCache<V>(maxBytes: number, sizeOf: (value: V) => number) {
  const entries = new Map<string, V>();
  let bytes = 0;
  return {
    get: (key: string) => entries.get(key),
    set(key: string, value: V): void {
      const size = sizeOf(value);
      if (size > maxBytes / 16 || entries.has(key)) return;
      entries.set(key, value);
      bytes += size;
      for (const [old, kept] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(old);
        bytes -= sizeOf(kept);
      }
    },
  };
}
