import { exportOf, indexFile, NumberStream, openRuns, pushTerm, termStarts, type IndexHeader, type MapEntry } from '../../search/index-codec.ts';
import { postStats, type PostStats, type SearchDoc } from '../../search/relevance.ts';
import { createIndex, exportIndex } from '../../search/search-index.ts';

/** FlexSearch's export splits a map into chunks of this many terms for `docs` documents (flexsearch/src/serialize.js). */
const chunkTerms = (docs: number) => (5000 * (250_000 / docs)) | 0;

/** The live build's index of a language: its file's header and bytes, and its sorted vocabulary. */
export interface LiveIndex {
  header: IndexHeader;
  bytes: Uint8Array;
  vocabulary: readonly string[];
}

/**
 * A language's index with some documents changed, made from the live index instead of from every
 * document, in its encoded form: what FlexSearch puts in a term's slots for a document depends on
 * that document alone (its words, their positions and count), and a clean build adds documents in
 * id order, so its slots hold ids ascending. So the changed ids are taken out of every slot, each
 * changed document is indexed alone by FlexSearch and its ids merged into their slots in id order,
 * empty trailing slots and empty terms dropped, and terms renumbered in the new vocabulary (the
 * words of `all` that still have a post): the file a clean build writes, given the same ids. The
 * runs are ranked again (a changed post changes the averages and the words' rarity), with the live
 * counts and lengths of the posts kept and those of the changed ones counted now.
 * Undefined when the export is not of the one shape this knows (one map chunk per field and one
 * register), so the caller builds the index in full.
 *
 * `changed`: the ids whose document may differ from the live one; `docs`: those of them indexed
 * now; `reg`: every id indexed now, ascending.
 */
export async function updatedIndex(live: LiveIndex, changed: ReadonlySet<number>, docs: readonly SearchDoc[], reg: readonly number[]): Promise<{ header: IndexHeader; data: Uint8Array; words: string[] } | undefined> {
  const { chunks } = live.header;
  const keys = chunks.map((c) => c.key);
  if (reg.length === 0 || !chunks.every((c) => (c.key === '1.reg' && c.kind === 'reg') || (/^[a-z]+\.1\.map$/.test(c.key) && c.kind === 'map'))) return undefined;
  // Per map chunk, each term of the changed documents with its slots (ids ascending in each).
  const added = new Map<string, Map<string, number[][]>>();
  for (const doc of docs) {
    const index = createIndex();
    index.add(doc);
    for (const [key, entries] of Object.entries(await exportIndex(index))) {
      if (!keys.includes(key)) return undefined;
      if (key === '1.reg') continue;
      const terms = added.get(key) ?? new Map<string, number[][]>();
      added.set(key, terms);
      for (const [term, slots] of entries as MapEntry[]) {
        const into = terms.get(term) ?? [];
        terms.set(term, into);
        slots.forEach((slot, score) => (into[score] ??= []).push(...(slot ?? [])));
      }
    }
  }
  for (const terms of added.values()) for (const slots of terms.values()) for (const slot of slots) slot?.sort((a, b) => a - b);

  const data = exportOf(live.header, live.bytes);
  const { fields } = termStarts(chunks, data, live.vocabulary.length);
  const keep = (id: number) => !changed.has(id);
  /** Whether the live term at `start` keeps a post. */
  const kept = (start: number) => {
    let p = start;
    for (let slots = data[p++]!; slots > 0; slots--) for (let n = data[p++]!; n > 0; n--) if (keep(data[p++]!)) return true;
    return false;
  };
  // The vocabulary: the live words of `all` that keep a post, and the changed documents' words, sorted.
  const liveAll = fields.get('all');
  const addedAll = added.get('all.1.map') ?? new Map<string, number[][]>();
  if (!liveAll) return undefined;
  const words = [...new Set([...live.vocabulary.filter((_, at) => liveAll[at]! >= 0 && kept(liveAll[at]!)), ...addedAll.keys()])].sort();
  const livePosition = new Map(live.vocabulary.map((word, at) => [word, at]));

  const out = new NumberStream();
  for (const chunk of chunks) {
    if (chunk.kind === 'reg') {
      out.push(reg.length);
      for (const id of reg) out.push(id);
      continue;
    }
    const starts = fields.get(chunk.key.split('.')[0]!)!;
    const terms = added.get(chunk.key) ?? new Map<string, number[][]>();
    const countAt = out.length;
    out.push(0);
    let count = 0;
    words.forEach((word, at) => {
      const was = livePosition.get(word);
      const start = was === undefined ? -1 : starts[was]!;
      const more = terms.get(word) ?? [];
      if (start < 0 && more.length === 0) return;
      // Each slot: the live ids kept, merged in id order with the changed documents' ids.
      const slots: number[][] = [];
      let p = start;
      const liveSlots = start < 0 ? 0 : data[p++]!;
      for (let score = 0; score < Math.max(liveSlots, more.length); score++) {
        const ids: number[] = [];
        const mine = more[score] ?? [];
        let m = 0;
        for (let n = score < liveSlots ? data[p++]! : 0; n > 0; n--) {
          const id = data[p++]!;
          if (!keep(id)) continue;
          while (m < mine.length && mine[m]! < id) ids.push(mine[m++]!);
          ids.push(id);
        }
        while (m < mine.length) ids.push(mine[m++]!);
        slots.push(ids);
      }
      while (slots.length > 0 && slots[slots.length - 1]!.length === 0) slots.pop();
      if (slots.length === 0) return;
      count++;
      pushTerm(out, at, slots);
    });
    if (count === 0 || count >= chunkTerms(reg.length)) return undefined;
    out.set(countAt, count);
  }
  return { ...indexFile(chunks, out.numbers, words.length, updatedStats(live, words, keep, postStats(docs, words), reg)), words };
}

/** The stats of the posts now: the live ones' for the posts `keep` keeps, `fresh` (the changed posts') for the others. */
function updatedStats(live: LiveIndex, words: readonly string[], keep: (id: number) => boolean, fresh: PostStats, reg: readonly number[]): PostStats {
  const runs = openRuns(live.header, live.bytes, live.vocabulary.length);
  const lengths = new Uint16Array(2 * (reg.at(-1)! + 1));
  for (const id of reg) {
    const from = keep(id) ? runs.lengths : fresh.lengths;
    lengths[2 * id] = from[2 * id] ?? 0;
    lengths[2 * id + 1] = from[2 * id + 1] ?? 0;
  }
  const livePosition = new Map(live.vocabulary.map((word, at) => [word, at]));
  return {
    docs: reg.length,
    lengths,
    counts(at, into) {
      const was = livePosition.get(words[at]!);
      if (was !== undefined) {
        const { ids, counts } = runs.part(0)!;
        for (let k = runs.table[was]!; k < runs.table[was + 1]!; k++) if (keep(ids[k]!)) into[ids[k]!] = counts[k]!;
      }
      fresh.counts(at, into);
    },
  };
}
