import type { Pieces } from './opening-files.ts';
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
  /** Written with the runs in parts (splitIndex): the vocabulary position of each part's first word. */
  parts?: number[];
  /** The files that open the language which are stored in pieces, and how many each (opening-files.ts). */
  pieces?: Pieces;
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

/**
 * The runs read in place, as the server searches them (no FlexSearch import, no arrays per word):
 * the table, lengths and averages whole, the ids and counts in parts of consecutive words (a whole
 * file is one part; a host reads a language's parts one by one, splitIndex).
 */
export interface Runs {
  /** Per word at vocabulary position `i`: its run is ids `table[i]` to `table[i + 1]` (its length: how many posts hold it). */
  table: Uint32Array;
  /** Per id, its lengths (head, body) as they are read. */
  lengths: Uint16Array;
  /** Per id, its head's and body's length norms (relevance.ts), made on opening. */
  norms: Float64Array;
  collection: Collection;
  /** The vocabulary position of each part's first word, ascending from 0. */
  parts: readonly number[];
  /** Part `k` when it is at hand; undefined when not (the reader reads it, and the search runs again: load-source.ts). */
  part: (k: number) => RunPart | undefined;
}

/** The runs of a part's words: ids and, per id, the word's packed counts in that post (relevance.ts). */
export interface RunPart {
  ids: Uint16Array | Uint32Array;
  counts: Uint8Array;
  /** The table's number of the part's first id. */
  base: number;
}

const aligned = (bytes: Uint8Array) => (bytes.byteOffset % 4 === 0 ? bytes : bytes.slice());

/** The table (words + 1 numbers) and the lengths, over the bytes of the whole file or of `{lang}.words.bin` (at `at`). */
function tableAndLengths(header: IndexHeader, bytes: Uint8Array, vocabularySize: number, at: { table: number; lengths: number }) {
  const { buffer, byteOffset, byteLength } = aligned(bytes);
  const table = new Uint32Array(buffer as ArrayBuffer, byteOffset + at.table, vocabularySize + 1);
  const lengths = new Uint16Array(buffer as ArrayBuffer, byteOffset + at.lengths, (byteLength - at.lengths) / 2);
  return { table, lengths, norms: lengthNorms(lengths, header.collection), collection: header.collection };
}

/** The runs of the whole file (what a build writes, and reads back to update it): one part. */
export function openRuns(header: IndexHeader, bytes: Uint8Array, vocabularySize: number): Runs {
  const whole = aligned(bytes);
  const { buffer, byteOffset } = whole;
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const base = tableAndLengths(header, whole, vocabularySize, { table: header.runs, lengths: header.lengths });
  const postings = base.table[vocabularySize]!;
  const part: RunPart = {
    ids: new Width(buffer as ArrayBuffer, byteOffset + header.runs + base.table.byteLength, postings),
    counts: new Uint8Array(buffer as ArrayBuffer, byteOffset + header.counts, postings),
    base: 0,
  };
  return { ...base, parts: [0], part: () => part };
}

/** The part holding the word at `position`. */
export function partOf(runs: Runs, position: number): RunPart | undefined {
  const { parts } = runs;
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (parts[mid]! <= position) lo = mid;
    else hi = mid - 1;
  }
  return runs.part(lo);
}

const NO_RUN = new Uint32Array(0);

/** The ranked posts holding the word at `position`, in place (none when its part is not at hand). */
export function runOf(runs: Runs, position: number): Uint16Array | Uint32Array {
  const part = partOf(runs, position);
  return part ? part.ids.subarray(runs.table[position]! - part.base, runs.table[position + 1]! - part.base) : NO_RUN;
}

/**
 * A part holds the runs of consecutive words up to about this many bytes (ids and counts; a word's
 * run is never cut, so one word in many posts may make a larger part). What one query word reads
 * is its part (and those of its forms and typos): 64 KiB read from a disk or a CDN is one read.
 */
export const PART_BYTES = 64 * 1024;

/** A language's index as hosts read it (splitIndex). */
export interface IndexFiles {
  /** The header, with `parts` (each part's first word). */
  header: IndexHeader;
  /** FlexSearch's export (`{lang}.index.bin`): only a build updating the index reads it. */
  exported: Uint8Array;
  /** The table and the posts' lengths (`{lang}.words.bin`), read with the vocabulary. */
  words: Uint8Array;
  /** Per part, its ids then their counts (`{lang}.runs.{k}.bin`). */
  parts: Uint8Array[];
}

/** Where the lengths start in `{lang}.words.bin`: after the table. */
const wordsLayout = (vocabularySize: number) => ({ table: 0, lengths: 4 * (vocabularySize + 1) });

/**
 * The whole file cut for reading in parts: the export, the table with the lengths, and the runs by
 * term range, each part the runs of consecutive vocabulary words up to PART_BYTES. A function of
 * the whole file's bytes alone, so an updated index and a clean build's cut the same.
 */
export function splitIndex(header: IndexHeader, data: Uint8Array, vocabularySize: number, partBytes = PART_BYTES): IndexFiles {
  const { table } = tableAndLengths(header, data, vocabularySize, { table: header.runs, lengths: header.lengths });
  const width = header.width / 8;
  const parts: number[] = [];
  let size = 0;
  for (let at = 0; at < vocabularySize; at++) {
    const bytes = (table[at + 1]! - table[at]!) * (width + 1);
    if (parts.length === 0 || (size > 0 && size + bytes > partBytes)) {
      parts.push(at);
      size = 0;
    }
    size += bytes;
  }
  const ids = header.runs + table.byteLength;
  const files = parts.map((first, k) => {
    const [from, to] = [table[first]!, table[parts[k + 1] ?? vocabularySize]!];
    const out = new Uint8Array((to - from) * (width + 1));
    out.set(data.subarray(ids + from * width, ids + to * width));
    out.set(data.subarray(header.counts + from, header.counts + to), (to - from) * width);
    return out;
  });
  const words = new Uint8Array(table.byteLength + data.byteLength - header.lengths);
  words.set(data.subarray(header.runs, header.runs + table.byteLength));
  words.set(data.subarray(header.lengths), table.byteLength);
  return { header: { ...header, parts }, exported: data.slice(0, header.runs), words, parts: files };
}

/** The whole file again from its cut (splitIndex): what an update of the index reads. */
export function joinIndex({ header, exported, words, parts }: IndexFiles, vocabularySize: number): Uint8Array {
  const tableBytes = 4 * (vocabularySize + 1);
  const width = header.width / 8;
  const data = new Uint8Array(header.lengths + words.byteLength - tableBytes);
  data.set(exported.subarray(0, header.runs));
  data.set(words.subarray(0, tableBytes), header.runs);
  data.set(words.subarray(tableBytes), header.lengths);
  let ids = header.runs + tableBytes;
  let counts = header.counts;
  for (const part of parts) {
    const n = part.byteLength / (width + 1);
    data.set(part.subarray(0, n * width), ids);
    data.set(part.subarray(n * width), counts);
    ids += n * width;
    counts += n;
  }
  return data;
}

/** The runs as a host reads them: the table and lengths from `{lang}.words.bin`, each part (`{lang}.runs.{k}.bin`) when `part` has it. */
export function openParts(header: IndexHeader, words: Uint8Array, vocabularySize: number, part: (k: number) => RunPart | undefined): Runs {
  return { ...tableAndLengths(header, words, vocabularySize, wordsLayout(vocabularySize)), parts: header.parts ?? [0], part };
}

/** A part's bytes read in place: ids at the index's width from its start, then their counts. */
export function readPart(header: IndexHeader, table: Uint32Array, k: number, bytes: Uint8Array): RunPart {
  const parts = header.parts ?? [0];
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const base = table[parts[k]!]!;
  const n = table[parts[k + 1] ?? table.length - 1]! - base;
  const { buffer, byteOffset } = aligned(bytes);
  return { ids: new Width(buffer as ArrayBuffer, byteOffset, n), counts: new Uint8Array(buffer as ArrayBuffer, byteOffset + n * Width.BYTES_PER_ELEMENT, n), base };
}
