/**
 * A compact form of FlexSearch's exported index. Its JSON export spends most of an import in
 * JSON.parse building hundreds of thousands of small arrays (556 of 780 ms for 1,000 x 14);
 * the same numbers as one flat Uint16/Uint32 stream decode about three times faster, and terms
 * are written as positions in the language's vocabulary instead of repeating each word.
 *
 * Layout per chunk, in the order of `header.chunks`:
 * - `map` (term -> resolution slots of ids): term count, then per term (in vocabulary order) its
 *   vocabulary position, slot count, and per slot its length (0 for an empty slot) and ids.
 * - `reg` (indexed ids): count, then the ids.
 * Any other chunk kind stays as JSON in the header.
 */
export type ExportedChunks = Record<string, unknown>;

export type MapEntry = [string, (number[] | null)[]];

export interface IndexHeader {
  width: 16 | 32;
  chunks: { key: string; kind: 'map' | 'reg' | 'json'; value?: unknown }[];
}

const kindOf = (key: string): 'map' | 'reg' | 'json' => (key.endsWith('.map') ? 'map' : key.endsWith('reg') ? 'reg' : 'json');

export function encodeIndex(chunks: ExportedChunks, vocabulary: readonly string[]): { header: IndexHeader; data: Uint16Array | Uint32Array } {
  const position = new Map(vocabulary.map((word, i) => [word, i]));
  const out: number[] = [];
  const header: IndexHeader = { width: 16, chunks: [] };
  for (const [key, value] of Object.entries(chunks)) {
    const kind = kindOf(key);
    if (kind === 'map') {
      // In vocabulary order, not FlexSearch's (the order words were first added in): the same
      // postings give the same bytes however they were made (a clean build or an update).
      const entries = (value as MapEntry[]).map(([term, slots]) => {
        const at = position.get(term);
        if (at === undefined) throw new Error(`index term "${term}" is missing from the vocabulary`);
        return [at, slots] as const;
      });
      entries.sort((a, b) => a[0] - b[0]);
      out.push(entries.length);
      for (const [at, slots] of entries) {
        out.push(at, slots.length);
        for (const slot of slots) {
          out.push(slot?.length ?? 0);
          if (slot) for (const id of slot) out.push(id);
        }
      }
      header.chunks.push({ key, kind });
    } else if (kind === 'reg') {
      const ids = value as number[];
      out.push(ids.length, ...ids);
      header.chunks.push({ key, kind });
    } else header.chunks.push({ key, kind, value });
  }
  const wide = out.some((n) => n > 0xffff);
  header.width = wide ? 32 : 16;
  return { header, data: wide ? Uint32Array.from(out) : Uint16Array.from(out) };
}

/** The chunks an encoded index was made from (map entries in vocabulary order), to be updated and encoded again. */
export function decodeIndex(header: IndexHeader, bytes: Uint8Array, vocabulary: readonly string[]): ExportedChunks {
  const data = wordsOf(header, bytes);
  const chunks: ExportedChunks = {};
  let p = 0;
  const ids = (length: number) => Array.from(data.subarray(p, (p += length)));
  for (const chunk of header.chunks) {
    if (chunk.kind === 'json') chunks[chunk.key] = chunk.value;
    else if (chunk.kind === 'reg') chunks[chunk.key] = ids(data[p++]!);
    else {
      const entries: MapEntry[] = [];
      for (let terms = data[p++]!; terms > 0; terms--) {
        const term = vocabulary[data[p++]!]!;
        const slots: (number[] | null)[] = [];
        for (let n = data[p++]!; n > 0; n--) {
          const length = data[p++]!;
          slots.push(length > 0 ? ids(length) : null);
        }
        entries.push([term, slots]);
      }
      chunks[chunk.key] = entries;
    }
  }
  return chunks;
}

/** The encoded numbers, at their width, in place (copied once when the bytes are not aligned for it). */
function wordsOf(header: IndexHeader, bytes: Uint8Array): Uint16Array | Uint32Array {
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const aligned = bytes.byteOffset % Width.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice();
  return new Width(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / Width.BYTES_PER_ELEMENT);
}

/**
 * The compact index read in place, as the server searches it: no FlexSearch import, no arrays per
 * term. For each field (`all`, `head`) and vocabulary position, where the word's slots start in
 * `data` (-1: not in that field). A word's ids are its slots in order, which is FlexSearch's result
 * order for the word (earlier slots score higher).
 */
export interface Postings {
  data: Uint16Array | Uint32Array;
  fields: Map<string, Int32Array>;
}

export function openPostings(header: IndexHeader, bytes: Uint8Array, vocabularySize: number): Postings {
  const data = wordsOf(header, bytes);
  const fields = new Map<string, Int32Array>();
  let p = 0;
  for (const chunk of header.chunks) {
    if (chunk.kind === 'json') continue;
    const count = data[p++]!;
    if (chunk.kind === 'reg') {
      p += count;
      continue;
    }
    const starts = new Int32Array(vocabularySize).fill(-1);
    for (let i = 0; i < count; i++) {
      const position = data[p++]!;
      starts[position] = p;
      for (let slots = data[p++]!; slots > 0; slots--) p += data[p]! + 1;
    }
    fields.set(chunk.key.split('.')[0]!, starts);
  }
  return { data, fields };
}

/**
 * Marks the ids of the word at `position` in `field` with `mark` in `marks`, in rank order, at most
 * `limit` of them; those not marked before are appended to `newly`. False: the word is not in `field`. Marks by number let a query
 * union and intersect words without a Set, and nothing is cleared between queries.
 */
export function markIds(postings: Postings, field: string, position: number, limit: number, marks: Uint32Array, mark: number, newly?: number[]): boolean {
  const { data } = postings;
  let p = postings.fields.get(field)?.[position] ?? -1;
  if (p < 0) return false;
  for (let slots = data[p++]!; slots > 0; slots--) {
    for (let n = data[p++]!; n > 0; n--, p++) {
      if (limit-- <= 0) return true;
      const id = data[p]!;
      if (marks[id] !== mark) {
        marks[id] = mark;
        newly?.push(id);
      }
    }
  }
  return true;
}
