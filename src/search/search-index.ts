import { Document, Encoder } from 'flexsearch';
import { tokens } from './encoders.ts';
import type { Ids } from '../core/types.ts';
import { runOf, type Runs } from './index-codec.ts';

/**
 * One FlexSearch Document index per language, over text already tokenised by the
 * script-aware `tokens` (folding, Intl.Segmenter): `all` holds every word of a post (matching),
 * `head` its title, summary and terms (a relevance boost). Whole words only keep the index
 * linear in unique words per post; prefixes (and, in Chinese and Japanese, parts of words)
 * are found by expanding a query word against the language's sorted vocabulary. FlexSearch builds
 * and exports the index; the build writes each word's ranked posts as one run (index-codec.ts), which
 * the server reads in place: importing costs nothing, a query of one word is its run, and any other
 * query allocates next to nothing.
 */
/** `id` is the post's position in the catalog: numbers keep the exported index small. */
export type SearchDoc = {
  id: number;
  all: string;
  head: string;
};

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

/** One language as the server searches it: the index read in place over its sorted vocabulary. */
export interface LanguageSearch {
  lang: string;
  runs: Runs;
  /** Every indexed word, sorted. */
  vocabulary: string[];
  /** Per-query marks by id (a query's generation number, so nothing is cleared between queries). */
  marks: { seen: Uint32Array; head: Uint32Array; generation: number };
  /** Chinese and Japanese: per character, the vocabulary positions whose word holds it (made on first use). */
  characters?: Map<string, number[]>;
}

export function languageSearch(lang: string, runs: Runs, vocabulary: string[], ids: number): LanguageSearch {
  return { lang, runs, vocabulary, marks: { seen: new Uint32Array(ids), head: new Uint32Array(ids), generation: 0 } };
}

function charactersOf(search: LanguageSearch): Map<string, number[]> {
  if (search.characters) return search.characters;
  const characters = new Map<string, number[]>();
  search.vocabulary.forEach((word, position) => {
    for (const c of new Set(word)) {
      const list = characters.get(c);
      if (list) list.push(position);
      else characters.set(c, [position]);
    }
  });
  return (search.characters = characters);
}

/**
 * The words holding `word`, in vocabulary order: only those holding its rarest character are
 * tried, which is a few dozen words where a scan of the vocabulary tried every one (90 µs a query
 * at 1,000 essays).
 */
function wordsHolding(search: LanguageSearch, word: string): number[] {
  const characters = charactersOf(search);
  let fewest: number[] | undefined;
  for (const c of word) {
    const list = characters.get(c) ?? [];
    if (!fewest || list.length < fewest.length) fewest = list;
  }
  const out: number[] = [];
  for (const i of fewest ?? []) {
    if (out.length >= MAX_EXPANSIONS) break;
    if (search.vocabulary[i]!.includes(word)) out.push(i);
  }
  return out;
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

/** Positions of the vocabulary words a query word stands for: those it begins (or, in CJK, is part of). */
export function expand(search: LanguageSearch, word: string): number[] {
  if (SUBSTRING.has(search.lang)) return wordsHolding(search, word);
  const { vocabulary } = search;
  const out: number[] = [];
  let lo = 0;
  let hi = vocabulary.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (vocabulary[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < vocabulary.length && out.length < MAX_EXPANSIONS && vocabulary[i]!.startsWith(word); i++) out.push(i);
  return out;
}

/**
 * Ids matching every word of the query (each as itself or a longer word), title and summary hits
 * first; within each group, in the order of the first word's runs (its forms in vocabulary order).
 * A query of one word that stands for one word of the vocabulary is that word's run, read in place.
 */
export function query(search: LanguageSearch, text: string): Ids {
  const { runs, marks } = search;
  const { table, ids: runIds } = runs;
  const { seen, head } = marks;
  const words = tokens(search.lang, text);
  // A one-word query's forms, found once: its run itself when it stands for one word.
  const forms = words.length === 1 ? expand(search, words[0]!) : undefined;
  if (forms?.length === 1) return runOf(runs, forms[0]!);
  const queryMark = ++marks.generation;
  let matched: number[] | undefined;
  let headHits = false;
  for (const word of words.length > 1 ? new Set(words) : words) {
    const wordMark = ++marks.generation;
    const first = matched === undefined;
    const ids: number[] = [];
    for (const position of forms ?? expand(search, word)) {
      const [start, headEnd, end] = [table[2 * position]!, table[2 * position + 1]!, table[2 * position + 2]!];
      headHits ||= headEnd > start;
      for (let k = start; k < headEnd; k++) head[runIds[k]!] = queryMark;
      for (let k = start; k < end; k++) {
        const id = runIds[k]!;
        if (seen[id] === wordMark) continue;
        seen[id] = wordMark;
        if (first) ids.push(id);
      }
    }
    if (first) matched = ids;
    else {
      let kept = 0;
      for (const id of matched!) if (seen[id] === wordMark) matched![kept++] = id;
      matched!.length = kept;
    }
    if (matched!.length === 0) return [];
  }
  if (!matched || !headHits) return matched ?? [];
  const out = new Array<number>(matched.length);
  let at = 0;
  for (const id of matched) if (head[id] === queryMark) out[at++] = id;
  for (const id of matched) if (head[id] !== queryMark) out[at++] = id;
  return out;
}
