import { Document, Encoder } from 'flexsearch';
import { encoderOptions } from './encoders.ts';

/**
 * One FlexSearch Document index per language. `all` holds every searchable word (matching),
 * `head` the title, summary and terms (a relevance boost). Built once at build time,
 * exported into the bundle and imported at run time with identical options.
 */
/** `id` is the post's position in the catalog: numbers keep the exported index small. */
export type SearchDoc = {
  id: number;
  all: string;
  head: string;
};

export const INDEX_LIMIT = 10_000;

/** Chinese and Japanese words found by the segmenter differ in and out of context, so every substring is indexed. */
const FULL_TOKENIZE = new Set(['zh', 'ja']);

export function createIndex(lang: string) {
  return new Document<SearchDoc>({
    tokenize: FULL_TOKENIZE.has(lang) ? 'full' : 'forward',
    encoder: new Encoder(encoderOptions(lang)),
    document: { id: 'id', index: ['all', 'head'] },
    cache: false,
  });
}

export type LanguageIndex = ReturnType<typeof createIndex>;

export async function exportIndex(index: LanguageIndex): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  await index.export((key: string | number, data: string) => {
    out[String(key)] = data;
  });
  return out;
}

export function importIndex(lang: string, data: Record<string, string>): LanguageIndex {
  const index = createIndex(lang);
  for (const [key, value] of Object.entries(data)) index.import(key, value);
  return index;
}

/** Ids matching every word of the query, most relevant first (title and summary hits ahead). */
export function query(index: LanguageIndex, text: string): number[] {
  const results = index.search(text, { limit: INDEX_LIMIT, index: ['all', 'head'] }) as unknown as { field: string; result: number[] }[];
  const all = results.find((r) => r.field === 'all')?.result ?? [];
  const head = new Set(results.find((r) => r.field === 'head')?.result ?? []);
  return [...all.filter((id) => head.has(id)), ...all.filter((id) => !head.has(id))];
}
