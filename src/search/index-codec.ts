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

export function encodeIndex(chunks: ExportedChunks, vocabulary: readonly string[]): { header: IndexHeader; data: Uint8Array } {
  const position = new Map(vocabulary.map((word, i) => [word, i]));
  const out: number[] = [];
  const header: IndexHeader = { width: 16, chunks: [], runs: 0 };
  /** Per field, each word's ids in FlexSearch's order. */
  const fields = new Map<string, number[][]>();
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
      const words = fields.get(key.split('.')[0]!) ?? [];
      fields.set(key.split('.')[0]!, words);
      out.push(entries.length);
      for (const [at, slots] of entries) {
        out.push(at, slots.length);
        const ids = (words[at] ??= []);
        for (const slot of slots) {
          out.push(slot?.length ?? 0);
          for (const id of slot ?? []) {
            out.push(id);
            ids.push(id);
          }
        }
      }
      header.chunks.push({ key, kind });
    } else if (kind === 'reg') {
      const ids = value as number[];
      out.push(ids.length, ...ids);
      header.chunks.push({ key, kind });
    } else header.chunks.push({ key, kind, value });
  }
  const { table, ids } = runsOf(fields, vocabulary.length);
  const wide = out.some((n) => n > 0xffff);
  header.width = wide ? 32 : 16;
  const Width = wide ? Uint32Array : Uint16Array;
  const exported = Width.from(out);
  header.runs = Math.ceil(exported.byteLength / 4) * 4;
  const data = new Uint8Array(header.runs + table.byteLength + ids.length * Width.BYTES_PER_ELEMENT);
  data.set(new Uint8Array(exported.buffer), 0);
  data.set(new Uint8Array(table.buffer), header.runs);
  data.set(new Uint8Array(Width.from(ids).buffer), header.runs + table.byteLength);
  return { header, data };
}

/** Each word's run: its head ids that also hold it in `all` (a match needs `all`), then its other `all` ids. */
function runsOf(fields: Map<string, number[][]>, words: number): { table: Uint32Array; ids: number[] } {
  const all = fields.get('all') ?? [];
  const head = fields.get('head') ?? [];
  const table = new Uint32Array(2 * words + 1);
  const ids: number[] = [];
  // Per id (a post's position), the last word that matched it (2 x position + 1) or ran it first as a
  // head hit (+ 2): nothing to clear between words.
  let most = 0;
  for (const list of all) for (const id of list ?? []) most = Math.max(most, id);
  const marks = new Uint32Array(most + 1);
  for (let at = 0; at < words; at++) {
    const matching = all[at] ?? [];
    const limit = Math.min(matching.length, RUN_LIMIT);
    const [matched, first] = [2 * at + 1, 2 * at + 2];
    for (let k = 0; k < limit; k++) marks[matching[k]!] = matched;
    table[2 * at] = ids.length;
    for (const id of head[at] ?? []) {
      if (marks[id] !== matched) continue;
      ids.push(id);
      marks[id] = first;
    }
    table[2 * at + 1] = ids.length;
    for (let k = 0; k < limit; k++) if (marks[matching[k]!] === matched) ids.push(matching[k]!);
  }
  table[2 * words] = ids.length;
  return { table, ids };
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
