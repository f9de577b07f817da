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
 * holding it in their ranked order, ready to answer a query of that one word without any work: its
 * title and summary hits (`head`) first, then the other posts holding it (`all`), each group in
 * FlexSearch's result order (earlier slots score higher). A Uint32 table of 2 x words + 1 numbers
 * (each word's run start and the end of its head hits; the last number is the end of the last run),
 * then the ids at the export's width.
 */
export type ExportedChunks = Record<string, unknown>;

export type MapEntry = [string, (number[] | null)[]];

export interface IndexHeader {
  width: 16 | 32;
  chunks: { key: string; kind: 'map' | 'reg' | 'json'; value?: unknown }[];
  /** Where the runs start, in bytes (a multiple of 4). */
  runs: number;
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
export function encodeIndex(chunks: ExportedChunks, vocabulary: readonly string[]): { header: IndexHeader; data: Uint8Array } {
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
  return indexFile(layout, out.numbers, vocabulary.length);
}

/** The file of an encoded export (`numbers`, laid out as `chunks` say): the export at its width, then the runs. */
export function indexFile(chunks: IndexHeader['chunks'], numbers: Uint32Array, vocabularySize: number): { header: IndexHeader; data: Uint8Array } {
  let most = 0;
  for (const n of numbers) if (n > most) most = n;
  const Width = most > 0xffff ? Uint32Array : Uint16Array;
  const header: IndexHeader = { width: most > 0xffff ? 32 : 16, chunks, runs: 0 };
  const exported = Width.from(numbers);
  const { table, ids } = runsOf(header, exported, vocabularySize);
  header.runs = Math.ceil(exported.byteLength / 4) * 4;
  const data = new Uint8Array(header.runs + table.byteLength + ids.length * Width.BYTES_PER_ELEMENT);
  data.set(new Uint8Array(exported.buffer), 0);
  data.set(new Uint8Array(table.buffer), header.runs);
  data.set(new Uint8Array(Width.from(ids).buffer), header.runs + table.byteLength);
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

/** Each word's run: its head ids that also hold it in `all` (a match needs `all`), then its other `all` ids. */
function runsOf(header: IndexHeader, data: Uint16Array | Uint32Array, words: number): { table: Uint32Array; ids: Uint32Array } {
  const { fields, most } = termStarts(header.chunks, data, words);
  const all = fields.get('all');
  const head = fields.get('head');
  const table = new Uint32Array(2 * words + 1);
  const ids = new NumberStream();
  // Per id (a post's position), the last word that matched it (2 x position + 1) or ran it first as a
  // head hit (+ 2): nothing to clear between words.
  const marks = new Uint32Array(most + 1);
  /** Calls `each` with the ids of the word at `start` in FlexSearch's order, at most RUN_LIMIT of them. */
  const walk = (start: number, each: (id: number) => void) => {
    let p = start;
    let limit = RUN_LIMIT;
    for (let slots = data[p++]!; slots > 0; slots--) for (let n = data[p++]!; n > 0; n--, p++) if (limit-- > 0) each(data[p]!);
  };
  for (let at = 0; at < words; at++) {
    const [matched, first] = [2 * at + 1, 2 * at + 2];
    table[2 * at] = ids.length;
    const inAll = all?.[at] ?? -1;
    if (inAll >= 0) {
      walk(inAll, (id) => (marks[id] = matched));
      const inHead = head?.[at] ?? -1;
      if (inHead >= 0) {
        walk(inHead, (id) => {
          if (marks[id] !== matched) return;
          ids.push(id);
          marks[id] = first;
        });
      }
    }
    table[2 * at + 1] = ids.length;
    if (inAll >= 0) walk(inAll, (id) => marks[id] === matched && ids.push(id));
  }
  table[2 * words] = ids.length;
  return { table, ids: ids.numbers };
}

/** The export section of an index file at its width, in place (copied once when the bytes are not aligned for it). */
export function exportOf(header: IndexHeader, bytes: Uint8Array): Uint16Array | Uint32Array {
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Width(aligned.buffer as ArrayBuffer, aligned.byteOffset, header.runs / Width.BYTES_PER_ELEMENT);
}

/** The runs read in place, as the server searches them (no FlexSearch import, no arrays per word). */
export interface Runs {
  /** Per word at vocabulary position `i`: its run starts at `table[2i]`, its head hits end at `table[2i + 1]`, and it ends at `table[2i + 2]`. */
  table: Uint32Array;
  ids: Uint16Array | Uint32Array;
}

export function openRuns(header: IndexHeader, bytes: Uint8Array, vocabularySize: number): Runs {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const tableBytes = (2 * vocabularySize + 1) * 4;
  const Width = header.width === 32 ? Uint32Array : Uint16Array;
  const at = aligned.byteOffset + header.runs;
  return {
    table: new Uint32Array(aligned.buffer as ArrayBuffer, at, 2 * vocabularySize + 1),
    ids: new Width(aligned.buffer as ArrayBuffer, at + tableBytes, (aligned.byteLength - header.runs - tableBytes) / Width.BYTES_PER_ELEMENT),
  };
}

/** The ranked posts holding the word at `position`, in place. */
export const runOf = ({ table, ids }: Runs, position: number) => ids.subarray(table[2 * position]!, table[2 * position + 2]!);
