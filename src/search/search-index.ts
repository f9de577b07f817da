import { Document, Encoder } from 'flexsearch';
import { tokens } from './encoders.ts';

/**
 * One FlexSearch Document index per language, over text already tokenised by the
 * script-aware `tokens` (folding, Intl.Segmenter): `all` holds every word of a post (matching),
 * `head` its title, summary and terms (a relevance boost). Whole words only keep the index
 * linear in unique words per post; prefixes (and, in Chinese and Japanese, parts of words)
 * are found by expanding a query word against the language's sorted vocabulary.
 */
/** `id` is the post's position in the catalog: numbers keep the exported index small. */
export type SearchDoc = {
  id: number;
  all: string;
  head: string;
};

export const INDEX_LIMIT = 10_000;
const MAX_EXPANSIONS = 200;
const SUBSTRING = new Set(['zh', 'ja']);

/** The text is tokenised before it reaches FlexSearch, so its encoder only splits on spaces. */
export function createIndex() {
  return new Document<SearchDoc>({
    tokenize: 'strict',
    encoder: new Encoder({ normalize: false, split: ' ', dedupe: false, numeric: false, minlength: 1 }),
    document: { id: 'id', index: ['all', 'head'] },
    cache: false,
  });
}

export type LanguageIndex = ReturnType<typeof createIndex>;

export interface LanguageSearch {
  lang: string;
  index: LanguageIndex;
  /** Every indexed word, sorted. */
  vocabulary: string[];
}

export const indexText = (lang: string, text: string) => tokens(lang, text).join(' ');

/** Exported chunks are kept as JSON values, not JSON strings inside JSON: one parse, no escaping. */
export async function exportIndex(index: LanguageIndex): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await index.export((key: string | number, data: string) => {
    out[String(key)] = JSON.parse(data);
  });
  return out;
}

export function importIndex(data: Record<string, unknown>): LanguageIndex {
  const index = createIndex();
  // FlexSearch parses string chunks itself and takes parsed ones as they are.
  for (const [key, value] of Object.entries(data)) index.import(key, value as string);
  return index;
}

/** Vocabulary words a query word stands for: those it begins (or, in CJK, is part of). */
export function expand(search: LanguageSearch, word: string): string[] {
  const { vocabulary } = search;
  if (SUBSTRING.has(search.lang)) return vocabulary.filter((w) => w.includes(word)).slice(0, MAX_EXPANSIONS);
  let lo = 0;
  let hi = vocabulary.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (vocabulary[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < vocabulary.length && out.length < MAX_EXPANSIONS && vocabulary[i]!.startsWith(word); i++) out.push(vocabulary[i]!);
  return out;
}

/** Ids matching every word of the query (each as itself or a longer word), title and summary hits first. */
export function query(search: LanguageSearch, text: string): number[] {
  let matched: number[] | undefined;
  const head = new Set<number>();
  for (const word of new Set(tokens(search.lang, text))) {
    const ids = new Set<number>();
    for (const form of expand(search, word)) {
      const results = search.index.search(form, { limit: INDEX_LIMIT, index: ['all', 'head'] }) as unknown as { field: string; result: number[] }[];
      for (const r of results) for (const id of r.result) (r.field === 'head' ? head : ids).add(id);
    }
    matched = matched === undefined ? [...ids] : matched.filter((id) => ids.has(id));
    if (matched.length === 0) return [];
  }
  if (!matched) return [];
  return [...matched.filter((id) => head.has(id)), ...matched.filter((id) => !head.has(id))];
}
