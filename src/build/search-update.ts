import type { ExportedChunks, MapEntry } from '../search/index-codec.ts';
import { createIndex, exportIndex, type SearchDoc } from '../search/search-index.ts';

type Slots = (number[] | null)[];

/** FlexSearch's export splits a map into chunks of this many terms for `docs` documents (flexsearch/src/serialize.js). */
const chunkTerms = (docs: number) => (5000 * (250_000 / docs)) | 0;

/**
 * A language's index with some documents changed, made from the live index instead of from every
 * document: what FlexSearch puts in a term's slots for a document depends on that document alone
 * (its words, their positions and count), and a clean build adds documents in id order, so its
 * slots hold ids ascending. So the changed ids are taken out of every slot, each changed document
 * is indexed alone by FlexSearch and its slots merged in at their id's place, empty trailing slots
 * and empty terms dropped: the chunks a clean build would export, given the same ids (the codec
 * writes terms in vocabulary order). Undefined when the export is not of the one shape this knows
 * (one map chunk per field and one register), so the caller builds the index in full.
 *
 * `changed`: the ids whose document may differ from the live one; `docs`: those of them indexed
 * now; `reg`: every id indexed now, ascending.
 */
export async function updatedChunks(live: ExportedChunks, changed: ReadonlySet<number>, docs: readonly SearchDoc[], reg: readonly number[]): Promise<ExportedChunks | undefined> {
  const keys = Object.keys(live);
  if (reg.length === 0 || !keys.every((key) => key === '1.reg' || /^[a-z]+\.1\.map$/.test(key))) return undefined;
  const alone = await Promise.all(
    docs.map(async (doc) => {
      const index = createIndex();
      index.add(doc);
      return exportIndex(index);
    }),
  );
  if (alone.some((chunks) => Object.keys(chunks).some((key) => !keys.includes(key)))) return undefined;
  const out: ExportedChunks = {};
  for (const key of keys) {
    if (key === '1.reg') {
      out[key] = [...reg];
      continue;
    }
    const terms = new Map<string, Slots>();
    for (const [term, slots] of live[key] as MapEntry[]) terms.set(term, slots.map((slot) => slot && slot.filter((id) => !changed.has(id))));
    for (const chunks of alone) {
      for (const [term, slots] of (chunks[key] ?? []) as MapEntry[]) {
        const into = terms.get(term) ?? [];
        terms.set(term, into);
        slots.forEach((slot, score) => {
          for (const id of slot ?? []) {
            const ids = (into[score] ??= []);
            const at = ids.findIndex((other) => other > id);
            ids.splice(at < 0 ? ids.length : at, 0, id);
          }
        });
      }
    }
    const entries: MapEntry[] = [];
    for (const [term, slots] of terms) {
      const kept = Array.from(slots, (slot) => (slot && slot.length > 0 ? slot : null));
      while (kept.length > 0 && kept[kept.length - 1] === null) kept.pop();
      if (kept.length > 0) entries.push([term, kept]);
    }
    if (entries.length === 0 || entries.length >= chunkTerms(reg.length)) return undefined;
    out[key] = entries;
  }
  return out;
}
