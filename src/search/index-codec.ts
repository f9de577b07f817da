import { bodyCount, collectionOf, headCount, idf, lengthNorms, wordScore, type Collection, type PostStats } from './relevance.ts';

/**
 * A compact form of FlexSearch's exported index, in two sections of one file.
 *
 * The export itself (what an incremental build updates, search-update.ts): its JSON spends most of
 * an import in JSON.parse building hundreds of thousands of small arrays (556 of 780 ms for
 * 1,000 x 14); the same numbers as one flat Uint16/Uint32 stream decode about three times faster,
 * and terms are written as positions in the language's vocabulary instead of repeating each word.
 * Layout per chunk, in the order of `header.chunks`:
 * - `map` (term -> resolution slots of ids): term count, then per term (in vocabulary order) its
 *   vocabulary position, slot count, and per slot its length (0 for an empty slot) and ids.
 * - `reg` (indexed ids): count, then the ids.
 * Any other chunk kind stays as JSON in the header.
 *
 * The runs (what the server reads, in place, at `header.runs` bytes): per vocabulary word, the posts
 * holding it, most relevant first for that word alone (relevance.ts; equal scores by id), ready to
 * answer a query of that one word without any work. A Uint32 table of words + 1 numbers (each
 * word's run start; the last is the end of the last run), then the ids at the export's width; at
 * `header.counts`, one byte per id of the runs: the word's packed counts in that post (head and
 * body, relevance.ts); at `header.lengths`, per id up to the largest, its head and body length in
 * words (Uint16). `header.collection` holds the averages the scores divide by.
 */
export type ExportedChunks = Record<string, unknown>;

export type MapEntry = [string, (number[] | null)[]];

export interface IndexHeader {
  width: 16 | 32;
  chunks: { key: string; kind: 'map' | 'reg' | 'json'; value?: unknown }[];
  /** Where the runs start, in bytes (a multiple of 4). */
  runs: number;
  /** Where the runs' counts start, and the posts' lengths (a multiple of 2), in bytes. */
  counts: number;
  lengths: number;
  collection: Collection;
}

/** A word's run holds at most this many posts (what one query word can match). */
export const RUN_LIMIT = 10_000;

const kindOf = (key: string): 'map' | 'reg' | 'json' => (key.endsWith('.map') ? 'map' : key.endsWith('reg') ? 'reg' : 'json');

/** Numbers appended to a typed array that grows as it fills (no array of boxed numbers, no garbage per number). */
export class NumberStream {
  private data = new Uint32Array(1 << 16);
  length = 0;
  push(n: number): void {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = n;
  }
  /** Sets a number pushed before (a count known only once what it counts is written). */
  set(at: number, n: number): void {
    this.data[at] = n;
  }
  get numbers(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/** A term of a `map` chunk: its vocabulary position, slot count, and per slot its length and ids. */
export function pushTerm(out: NumberStream, position: number, slots: readonly (readonly number[] | null)[]): void {
  out.push(position);
  out.push(slots.length);
  for (const slot of slots) {
    out.push(slot?.length ?? 0);
    for (const id of slot ?? []) out.push(id);
  }
}

/** A clean build's index: FlexSearch's export, encoded. */
export function encodeIndex(chunks: ExportedChunks, vocabulary: readonly string[], stats: PostStats): { header: IndexHeader; data: Uint8Array } {
  const position = new Map(vocabulary.map((word, i) => [word, i]));
  const out = new NumberStream();
  const layout: IndexHeader['chunks'] = [];
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
      for (const [at, slots] of entries) pushTerm(out, at, slots);
      layout.push({ key, kind });
    } else if (kind === 'reg') {
      const ids = value as number[];
      out.push(ids.length);
      for (const id of ids) out.push(id);
      layout.push({ key, kind });
    } else layout.push({ key, kind, value });
  }
  return indexFile(layout, out.numbers, vocabulary.length, stats);
}

/** The file of an encoded export (`numbers`, laid out as `chunks` say): the export at its width, then the runs ranked by `stats`. */
export function indexFile(chunks: IndexHeader['chunks'], numbers: Uint32Array, vocabularySize: number, stats: PostStats): { header: IndexHeader; data: Uint8Array } {
  let most = 0;
  for (const n of numbers) if (n > most) most = n;
  const Width = most > 0xffff ? Uint32Array : Uint16Array;
  const exported = Width.from(numbers);
  const header: IndexHeader = { width: most > 0xffff ? 32 : 16, chunks, runs: 0, counts: 0, lengths: 0, collection: { docs: 0, avgHead: 0, avgBody: 0 } };
  const { fields, most: largest } = termStarts(chunks, exported, vocabularySize);
  const lengths = new Uint16Array(2 * (largest + 1));
  lengths.set(stats.lengths.subarray(0, lengths.length));
  header.collection = collectionOf(lengths, stats.docs);
  const { table, ids, counts } = runsOf(fields.get('all'), exported, vocabularySize, largest, stats, lengthNorms(lengths, header.collection));
  header.runs = Math.ceil(exported.byteLength / 4) * 4;
  header.counts = header.runs + table.byteLength + ids.length * Width.BYTES_PER_ELEMENT;
  header.lengths = Math.ceil((header.counts + counts.length) / 2) * 2;
  const data = new Uint8Array(header.lengths + lengths.byteLength);
  data.set(new Uint8Array(exported.buffer), 0);
  data.set(new Uint8Array(table.buffer), header.runs);
  data.set(new Uint8Array(Width.from(ids).buffer), header.runs + table.byteLength);
  data.set(counts, header.counts);
  data.set(new Uint8Array(lengths.buffer), header.lengths);
  return { header, data };
}

/**
 * Where each word's slots start in the export, per field (`all`, `head`; -1: not in that field), and
 * the largest id.
 */
export function termStarts(chunks: IndexHeader['chunks'], data: Uint16Array | Uint32Array, vocabularySize: number): { fields: Map<string, Int32Array>; most: number } {
  const fields = new Map<string, Int32Array>();
  let most = 0;
  let p = 0;
  for (const chunk of chunks) {
    if (chunk.kind === 'json') continue;
    const count = data[p++]!;
    if (chunk.kind === 'reg') {
      p += count;
      continue;
    }
    const starts = new Int32Array(vocabularySize).fill(-1);
    for (let i = 0; i < count; i++) {
      starts[data[p++]!] = p;
      for (let slots = data[p++]!; slots > 0; slots--) {
        for (let n = data[p++]!; n > 0; n--) most = Math.max(most, data[p++]!);
      }
    }
    fields.set(chunk.key.split('.')[0]!, starts);
  }
  return { fields, most };
}

/**
 * Each word's run: the posts holding it in `all` (`starts`: where each word's slots are), at most
 * RUN_LIMIT of them in FlexSearch's order, ranked by the word's score in each (highest first, then
 * by id), with its counts in each.
 */
function runsOf(starts: Int32Array | undefined, data: Uint16Array | Uint32Array, words: number, most: number, stats: PostStats, norms: Float64Array): { table: Uint32Array; ids: Uint32Array; counts: Uint8Array } {
  const table = new Uint32Array(words + 1);
  const ids = new NumberStream();
  const counts: number[] = [];
  const packed = new Uint8Array(most + 1);
  const scores = new Float64Array(most + 1);
  for (let at = 0; at < words; at++) {
    table[at] = ids.length;
    const start = starts?.[at] ?? -1;
    if (start < 0) continue;
    const run: number[] = [];
    let p = start;
    for (let slots = data[p++]!; slots > 0; slots--) for (let n = data[p++]!; n > 0; n--, p++) if (run.length < RUN_LIMIT) run.push(data[p]!);
    stats.counts(at, packed);
    const weight = idf(stats.docs, run.length);
    for (const id of run) scores[id] = wordScore(weight, headCount(packed[id]!), bodyCount(packed[id]!), norms, id);
    run.sort((a, b) => scores[b]! - scores[a]! || a - b);
    for (const id of run) {
      ids.push(id);
      counts.push(packed[id]!);
      // A post the next word's stats leave out reads as not holding it, not as this word's counts.
      packed[id] = 0;
    }
  }
  table[words] = ids.length;
  return { table, ids: ids.numbers, counts: Uint8Array.from(counts) };
}

/** The export section of an index file at its width, in place (copied once when the bytes are not aligned for it). */
export function exportOf(header: IndexHeader, bytes: Uint8Array): Uint16Array | Uint32Array {
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Width(aligned.buffer as ArrayBuffer, aligned.byteOffset, header.runs / Width.BYTES_PER_ELEMENT);
}

/** The runs read in place, as the server searches them (no FlexSearch import, no arrays per word). */
export interface Runs {
  /** Per word at vocabulary position `i`: its run is `ids[table[i]]` to `ids[table[i + 1]]`. */
  table: Uint32Array;
  ids: Uint16Array | Uint32Array;
  /** Per id of the runs, the word's packed counts in that post (relevance.ts). */
  counts: Uint8Array;
  /** Per id, its lengths (head, body) as they are read. */
  lengths: Uint16Array;
  /** Per id, its head's and body's length norms (relevance.ts), made on opening. */
  norms: Float64Array;
  collection: Collection;
}

export function openRuns(header: IndexHeader, bytes: Uint8Array, vocabularySize: number): Runs {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const { buffer, byteOffset } = aligned;
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const table = new Uint32Array(buffer as ArrayBuffer, byteOffset + header.runs, vocabularySize + 1);
  const postings = table[vocabularySize]!;
  const lengths = new Uint16Array(buffer as ArrayBuffer, byteOffset + header.lengths, (aligned.byteLength - header.lengths) / 2);
  return {
    table,
    ids: new Width(buffer as ArrayBuffer, byteOffset + header.runs + table.byteLength, postings),
    counts: new Uint8Array(buffer as ArrayBuffer, byteOffset + header.counts, postings),
    lengths,
    norms: lengthNorms(lengths, header.collection),
    collection: header.collection,
  };
}

/** The ranked posts holding the word at `position`, in place. */
export const runOf = ({ table, ids }: Runs, position: number) => ids.subarray(table[position]!, table[position + 1]!);
