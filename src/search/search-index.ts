import { Document, Encoder } from 'flexsearch';
import { fold, segment, SPLIT, tokens } from './encoders.ts';
import { language } from '../core/languages.ts';
import { holdsNear, queryUnits, type QueryUnit } from './query-units.ts';
import type { Ids } from '../core/types.ts';
import { partOf, runOf, type Runs } from './index-codec.ts';
import { bodyCount, headCount, idf, wordScore, type SearchDoc } from './relevance.ts';
import { lowerBound, stemGroups, stemTable, type StemGroups, type StemTable } from './stem-groups.ts';
import { editDistance, hasStemmer, ideographic, stem, typoEdits, withoutParticle } from './word-forms.ts';

/**
 * One FlexSearch Document index per language, over text already tokenised by the
 * script-aware `tokens` (folding, Intl.Segmenter): `all` holds every word of a post (matching);
 * `head` its title, summary and terms is counted apart for relevance (relevance.ts), not indexed.
 * Whole words only keep the index linear in unique words per post; prefixes (and, in Chinese and
 * Japanese, parts of words) are found by expanding a query word against the language's sorted
 * vocabulary. FlexSearch builds and exports the index; the build writes each word's ranked posts
 * as one run with its counts in each (index-codec.ts), which the server reads in place: importing
 * costs nothing, a query of one word is its run, and any other query allocates next to nothing.
 */

const MAX_EXPANSIONS = 200;
const SUBSTRING = new Set(['zh', 'ja']);

/** The text is tokenised before it reaches FlexSearch, so its encoder only splits on spaces. */
export function createIndex() {
  return new Document<SearchDoc>({
    tokenize: 'strict',
    encoder: new Encoder({ normalize: false, split: ' ', dedupe: false, numeric: false, minlength: 1 }),
    document: { id: 'id', index: ['all'] },
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
  /** The vocabulary's words by stem. */
  stems: StemGroups;
  /**
   * Per-query scratch by id, nothing cleared between queries: the last query word that matched it
   * (a generation number), the tier that word matched in and its counts there, and the query's tier
   * (the worst of its matched words') and score so far.
   */
  marks: {
    seen: Uint32Array;
    wordTier: Uint16Array;
    head: Uint16Array;
    body: Uint16Array;
    tier: Uint16Array;
    score: Float64Array;
    generation: number;
    /** The last query that matched the id (a query number), a bit per query word it matched, and one per word it holds as written (or begins). */
    inQuery: Uint32Array;
    mask: Uint32Array;
    written: Uint32Array;
    queries: number;
  };
  /** Each query word's forms, as `formsOf` found them (queries repeat). */
  forms: Map<string, Tiers>;
  /**
   * A post's plain text (the snippets' texts), for what only the text can tell: characters written
   * together; null while the part holding it is not at hand (it is read and the query made again:
   * nothing learnt from its absence is kept).
   */
  text?: (id: number) => string | null | undefined;
  /** Vocabulary words as the posts write them, by position (surfaceForm: a scan of a post's text each). */
  surface?: Map<number, string>;
  /** How often each pair of neighbouring letters occurs in the vocabulary (letterPairs). */
  pairs?: Map<string, number>;
  /** The last posts' texts folded (writesRun). */
  folded?: Map<number, string>;
  /** Chinese and Japanese: per character, the vocabulary positions whose word holds it (made on first use). */
  characters?: Map<string, number[]>;
}

/** `stems`: the build's stem table (made from the vocabulary when not given). */
export function languageSearch(lang: string, runs: Runs, vocabulary: string[], ids: number, stems: StemTable = stemTable(lang, vocabulary), text?: (id: number) => string | null | undefined): LanguageSearch {
  return {
    lang,
    ...(text ? { text } : {}),
    runs,
    vocabulary,
    stems: stemGroups(stems),
    marks: { seen: new Uint32Array(ids), wordTier: new Uint16Array(ids), head: new Uint16Array(ids), body: new Uint16Array(ids), tier: new Uint16Array(ids), score: new Float64Array(ids), generation: 0, inQuery: new Uint32Array(ids), mask: new Uint32Array(ids), written: new Uint32Array(ids), queries: 0 },
    forms: new Map(),
  };
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
  for (let i = lowerBound(vocabulary, word); i < vocabulary.length && out.length < MAX_EXPANSIONS && vocabulary[i]!.startsWith(word); i++) out.push(i);
  return out;
}

/**
 * The vocabulary words a query word stands for, by tier, best first (docs/search.md, "What search
 * matches"), each tier its index: `itself` (0, the word when the vocabulary holds it) and `longer`
 * (1), the longer words it begins (in Chinese and Japanese, those holding it); `form` (2), the other
 * words of its stem (a Korean word without its particle: the words that begins); then, for a word
 * the vocabulary does not hold (nor a longer word it begins), per word a typo away (typoEdits), the
 * likeliest meant first, two tiers: that word, then its other forms. A reader who typed `tidle`
 * means one word, and one who typed `walked` that word before `walk`.
 */
export type Tiers = [itself: number[], longer: number[], form: number[], ...typos: number[][]];

/** Queries repeat (Zipf): a bound keeps odd ones from piling up. */
const REMEMBERED = 4096;

export function formsOf(search: LanguageSearch, word: string): Tiers {
  let tiers = search.forms.get(word);
  if (tiers) return tiers;
  const exact = expand(search, word);
  const form = otherForms(search, word, exact);
  // In Chinese and Japanese a word holding the query word may sort before it.
  const itself = exact.filter((p) => search.vocabulary[p] === word);
  const longer = itself.length > 0 ? exact.filter((p) => p !== itself[0]) : exact;
  tiers = [itself, longer, form, ...(exact.length === 0 ? typos(search, word, form) : [])];
  if (search.forms.size >= REMEMBERED) search.forms.clear();
  search.forms.set(word, tiers);
  return tiers;
}

/** The words of `word`'s stem that it does not begin (`exact`, a run of the vocabulary in stemming languages). */
function otherForms(search: LanguageSearch, word: string, exact: readonly number[]): number[] {
  const { lang, vocabulary, stems } = search;
  if (hasStemmer(lang)) {
    const s = exact.length > 0 && vocabulary[exact[0]!] === word ? stems.stemAt(exact[0]!) : stems.find(stem(lang, word));
    if (s < 0) return [];
    const [first, last] = [exact[0] ?? -1, exact.at(-1) ?? -1];
    return [...stems.words(s)].filter((p) => p < first || p > last);
  }
  if (exact.length > 0) return [];
  for (const bare of withoutParticle(lang, word)) {
    const found = expand(search, bare);
    if (found.length > 0) return found;
  }
  return [];
}

/** Vocabulary words within a typo of `word`, nearest first, each (when not in `form` nor an earlier one's forms) then the other words of its stem: one tier each. */
function typos(search: LanguageSearch, word: string, form: readonly number[]): number[][] {
  const seen = new Set(form);
  const out: number[][] = [];
  const tier = (positions: Iterable<number>) => {
    const fresh = [...positions].filter((p) => !seen.has(p));
    for (const p of fresh) seen.add(p);
    if (fresh.length > 0) out.push(fresh);
  };
  for (const [position] of nearWords(search, word, typoEdits(word))) {
    tier([position]);
    if (hasStemmer(search.lang)) tier(search.stems.words(search.stems.stemAt(position)));
  }
  return out;
}

/** Query words shorter than this (in letters) are not taken for a common word with one letter replaced (otherWord). */
export const SHORT_WORD = 6;
/** A word in at least this share of a language's posts is common. */
export const COMMON_SHARE = 0.5;

/** Whether `a` and `b` (one edit apart) differ by one letter replaced, not one added, dropped or two swapped. */
function replacesLetter(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (first >= 0) return !(i === first + 1 && a[first] === b[i] && a[i] === b[first]);
    first = i;
  }
  return true;
}

/** A letter pair the language's words use: seen this often in its vocabulary (word starts and ends count as letters). */
const PAIR_SEEN = 2;

/** How often each pair of neighbouring letters occurs in the vocabulary (^ and $ mark a word's start and end), made on first use. */
function letterPairs(search: LanguageSearch): Map<string, number> {
  if (search.pairs) return search.pairs;
  const pairs = new Map<string, number>();
  for (const word of search.vocabulary) {
    let before = '^';
    for (const c of word + '$') {
      const pair = before + c;
      pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      before = c;
    }
  }
  return (search.pairs = pairs);
}

/** Whether `word` is spelled as the language's words are: each of its letter pairs is one they use (PAIR_SEEN). */
function wordLike(search: LanguageSearch, word: string): boolean {
  const pairs = letterPairs(search);
  let before = '^';
  for (const c of word + '$') {
    if ((pairs.get(before + c) ?? 0) < PAIR_SEEN) return false;
    before = c;
  }
  return true;
}

/**
 * Whether a short query word one letter from a common word of the posts is more likely another
 * word of the language than that word mistyped (ekmek, bread, is not etmek; रोटी is not छोटी): a
 * short word has many real words one letter away, the posts hold only their common ones, and a
 * reader seldom searches for a word most posts hold. Only a word spelled as the language's words
 * are (wordLike) is taken for one: a slip usually makes a letter pair the language never writes
 * (thxre, stiln). Such a word is not corrected (nor suggested).
 */
function otherWord(search: LanguageSearch, word: string, position: number, distance: number): boolean {
  const { runs, vocabulary } = search;
  if (distance !== 1 || [...word].length >= SHORT_WORD || !replacesLetter(word, vocabulary[position]!)) return false;
  return runs.table[position + 1]! - runs.table[position]! >= COMMON_SHARE * runs.collection.docs && wordLike(search, word);
}

/**
 * Vocabulary words at most `edits` from `word`, as [position, distance]: nearest first, then those
 * with its first letter (a typo seldom starts a word), then those in most posts; none that `word`
 * is likely another word than (otherWord).
 */
function nearWords(search: LanguageSearch, word: string, edits: number): [number, number][] {
  if (edits === 0) return [];
  const { vocabulary, runs } = search;
  const found: [number, number, number][] = [];
  for (let i = 0; i < vocabulary.length; i++) {
    const d = editDistance(word, vocabulary[i]!, edits);
    if (d <= edits && !otherWord(search, word, i, d)) found.push([i, d + (vocabulary[i]![0] === word[0] ? 0 : 0.5), runs.table[i + 1]! - runs.table[i]!]);
  }
  return found.sort((a, b) => a[1] - b[1] || b[2] - a[2]).map(([p, d]) => [p, Math.floor(d)]);
}

/** A query's matches: ranked ids, and per id that lacks some of the query's units, which (`missing`). */
export interface Match {
  ids: Ids;
  /** The query's units by name (queryUnits), in order. */
  units: readonly string[];
  /** Per id holding only some units: a bit per unit it lacks (bit i: units[i]); absent when it holds all. */
  missing: ReadonlyMap<number, number>;
  /** The query's words (folded, distinct), and per id a bit for each it holds as written or as the start of a longer word (what its snippet can show). */
  words: readonly string[];
  written(id: number): number;
}

/** Words a query is matched by (a bit each in a 32-bit mask); a query of 256 characters seldom has more distinct ones. */
export const MAX_WORDS = 32;
const NONE: ReadonlyMap<number, number> = new Map();
/** The tier of the longer words a word begins (Tiers): it and the word itself are the word as written. */
const LONGER = 1;
/** The first typo tier (Tiers): what a unit held only one kana off ranks with. */
const TYPO_TIER = 3;

/** Units whose bits are set in `mask`. */
export const unitsIn = (units: readonly string[], mask: number): string[] => (mask === 0 ? [] : units.filter((_, i) => (mask >>> i) & 1));

/** The units of `text` with their words' bits (distinct words, MAX_WORDS at most: units past them are left out). */
function unitsOf(lang: string, text: string) {
  const bit = new Map<string, number>();
  const units: (QueryUnit & { bits: number })[] = [];
  for (const unit of queryUnits(lang, text)) {
    const fresh = unit.tokens.filter((t) => !bit.has(t));
    if (bit.size + fresh.length > MAX_WORDS) break;
    for (const t of fresh) bit.set(t, bit.size);
    units.push({ ...unit, bits: unit.tokens.reduce((m, t) => (m | (1 << bit.get(t)!)) >>> 0, 0) });
  }
  return { words: [...bit.keys()], units };
}

/**
 * Whether post `id` writes `run` (a query's single characters standing together): in its text as
 * written (a native search), else, for a text whose characters fold (traditional Chinese), in its
 * folded text, folding at most FOLDS texts a query (a whole text's folding is the costly part).
 */
const FOLDS = 8;
function writesRun(search: LanguageSearch, id: number, run: string, budget: { folds: number }): boolean {
  const at = search.text?.(id);
  // Not at hand yet: nothing folded is kept for it (the query is made again once it is read).
  if (at === null) return false;
  const text = at ?? '';
  if (text.includes(run)) return true;
  const cache = (search.folded ??= new Map());
  let folded = cache.get(id);
  if (folded === undefined) {
    if (budget.folds <= 0) return false;
    budget.folds--;
    if (cache.size >= 64) cache.clear();
    cache.set(id, (folded = fold(search.lang, text)));
  }
  return folded.includes(run);
}

/**
 * Ids holding at least one unit of the query (queryUnits: a word, or in Chinese and Japanese what
 * was written together), a word held in one of its forms (formsOf); ranked first by how many units
 * they lack (none first: posts holding every unit, then those holding most), then by the worst
 * tier any word matched in (the word itself, the longer words it begins, its other forms, then
 * typos: the likeliest meant word first, each before its forms), then by relevance (relevance.ts:
 * the sum of each matched word's BM25F score, its counts summed over the forms of the tier it
 * matched in, its idf from the posts any of its forms matched), then by id. A query of one word
 * that stands for one word of the vocabulary is that word's run, read in place (the build ranked it so).
 */
export function query(search: LanguageSearch, text: string): Match {
  const { runs, marks } = search;
  const { table, norms, collection } = runs;
  const { seen, wordTier, head, body, tier: rank, score, inQuery, mask, written } = marks;
  const { words, units } = unitsOf(search.lang, text);
  const names = units.map((u) => u.name);
  const forms = words.map((w) => formsOf(search, w));
  if (forms.length === 1 && units[0]!.runs.length === 0) {
    const all = forms[0]!.flat();
    // The word's one vocabulary word: the word itself, a longer one it begins, or another form (then no post writes the word).
    const asWritten = forms[0]![0]!.length + forms[0]![1]!.length > 0 ? 1 : 0;
    if (all.length === 1) return { ids: runOf(runs, all[0]!), units: names, missing: NONE, words, written: () => asWritten };
  }
  const queryMark = ++marks.queries;
  const union: number[] = [];
  forms.forEach((tiers, w) => {
    const wordMark = ++marks.generation;
    const touched: number[] = [];
    tiers.forEach((positions, tier) => {
      for (const position of positions) {
        const part = partOf(runs, position);
        if (!part) continue;
        const { ids: runIds, counts, base } = part;
        for (let k = table[position]! - base, end = table[position + 1]! - base; k < end; k++) {
          const id = runIds[k]!;
          const c = counts[k]!;
          if (seen[id] !== wordMark) {
            seen[id] = wordMark;
            wordTier[id] = tier;
            head[id] = headCount(c);
            body[id] = bodyCount(c);
            touched.push(id);
          } else if (wordTier[id] === tier) {
            head[id]! += headCount(c);
            body[id]! += bodyCount(c);
          }
        }
      }
    });
    const weight = idf(collection.docs, touched.length);
    for (const id of touched) {
      if (inQuery[id] !== queryMark) {
        inQuery[id] = queryMark;
        mask[id] = 0;
        written[id] = 0;
        rank[id] = 0;
        score[id] = 0;
        union.push(id);
      }
      mask[id]! |= 1 << w;
      if (wordTier[id]! <= LONGER) written[id]! |= 1 << w;
      rank[id] = Math.max(rank[id]!, wordTier[id]!);
      score[id]! += wordScore(weight, head[id]!, body[id]!, norms, id);
    }
  });
  // Each id's units: held when it holds each word, the runs written together (where the text is
  // at hand); a kana unit nothing holds exactly, when the text holds it one kana off.
  const held = new Map<number, number>();
  const budget = { folds: FOLDS };
  units.forEach((unit, u) => {
    let any = false;
    for (const id of union) {
      if ((mask[id]! & unit.bits) >>> 0 !== unit.bits) continue;
      if (search.text && unit.runs.some((r) => !writesRun(search, id, r, budget))) continue;
      held.set(id, (held.get(id) ?? 0) | (1 << u));
      any = true;
    }
    if (any || !unit.kana || !search.text) return;
    for (const id of union) {
      // Kana fold to themselves: the text as written is compared.
      if ((mask[id]! & unit.bits) === 0 || !holdsNear(search.text(id) ?? '', unit.kana)) continue;
      held.set(id, (held.get(id) ?? 0) | (1 << u));
      rank[id] = Math.max(rank[id]!, TYPO_TIER);
    }
  });
  const all = units.length === 32 ? 0xffffffff : 2 ** units.length - 1;
  const kept: number[] = [];
  let worst = 0;
  for (const id of union) if (held.has(id) && rank[id]! > worst) worst = rank[id]!;
  let missing: Map<number, number> | undefined;
  // Kept apart from the scratch, which the next query overwrites.
  const writtenOf = new Map<number, number>();
  for (const id of union) {
    const has = held.get(id);
    if (has === undefined) continue;
    kept.push(id);
    writtenOf.set(id, written[id]!);
    const lacks = (all & ~has) >>> 0;
    if (lacks === 0) continue;
    (missing ??= new Map()).set(id, lacks);
    // Lacking more units outranks any tier: the class is the count lacked, then the tier.
    rank[id] = Math.min(0xffff, bitCount(lacks) * (worst + 1) + rank[id]!);
  }
  return { ids: ranked(kept, rank, score), units: names, missing: missing ?? NONE, words, written: (id) => writtenOf.get(id) ?? 0 };
}

function bitCount(n: number): number {
  let c = 0;
  for (; n; n &= n - 1) c++;
  return c;
}

/**
 * `ids` by tier, then score (highest first), then id, sorted as one Float64Array of keys (a native
 * numeric sort, several times faster than a comparator): per id, its tier, then its score as a
 * fraction of the best, then the id, in 53 bits.
 */
function ranked(ids: number[], tier: Uint16Array, score: Float64Array): number[] {
  if (ids.length < 2) return ids;
  let [best, worst] = [0, 0];
  for (const id of ids) {
    if (score[id]! > best) best = score[id]!;
    if (tier[id]! > worst) worst = tier[id]!;
  }
  const idSpan = 2 ** Math.ceil(Math.log2(tier.length + 1));
  const tierSpan = 2 ** Math.ceil(Math.log2(worst + 1));
  const steps = 2 ** 53 / idSpan / tierSpan - 1;
  const keys = new Float64Array(ids.length);
  ids.forEach((id, i) => (keys[i] = (tier[id]! * (steps + 1) + Math.round((1 - score[id]! / (best || 1)) * steps)) * idSpan + id));
  keys.sort();
  for (let i = 0; i < keys.length; i++) ids[i] = keys[i]! % idSpan;
  return ids;
}

/** At most this many other forms are given for snippets: the first of them are the nearest. */
const MAX_FORMS = 32;

/** The vocabulary words the query's words stand for besides themselves and the words they begin: for snippets to find. */
export function otherFormsOf(search: LanguageSearch, text: string): string[] {
  const out = new Set<string>();
  for (const word of new Set(tokens(search.lang, text))) {
    const [, , form, ...typos] = formsOf(search, word);
    for (const p of [...form, ...typos.flat()].slice(0, MAX_FORMS)) out.add(search.vocabulary[p]!);
  }
  return [...out];
}

/**
 * The query with each word the vocabulary holds in no form replaced by the nearest word it holds
 * (fewest edits, then the word in most posts; one edit for words of 3 and 4 letters), written as
 * the posts write it (surfaceForm), the other words as typed; or undefined when it
 * holds every word or has nothing near one.
 */
export function suggestion(search: LanguageSearch, text: string): string | undefined {
  let changed = false;
  const words = queryUnits(search.lang, text).map(({ typed, tokens: [word, ...more] }) => {
    if (word === undefined || more.length > 0) return typed;
    const [itself, longer, form, typo] = formsOf(search, word);
    if (itself.length > 0 || longer.length > 0 || form.length > 0) return typed;
    // The typo tier starts with the nearest word; a word too short for typos looks one edit away.
    const near = typo?.[0] ?? (ideographic(word) || [...word].length < 3 ? undefined : nearWords(search, word, 1)[0]?.[0]);
    if (near === undefined) return typed;
    changed = true;
    return surfaceForm(search, near);
  });
  return changed ? words.join(' ') : undefined;
}

/**
 * The vocabulary word at `position` as a post writes it (Bäcker, Großvater: the vocabulary is
 * folded): its first spelling in lower case in the first post holding it, else its first spelling
 * there (a German noun), else the folded word (one only the title holds).
 */
export function surfaceForm(search: LanguageSearch, position: number): string {
  const cache = (search.surface ??= new Map());
  let form = cache.get(position);
  // Without its run's part at hand (read, then searched again) it is not known yet.
  if (form === undefined && !partOf(search.runs, position)) return search.vocabulary[position]!;
  if (form === undefined) {
    const written = writtenForm(search, position);
    // The text not at hand yet (read, then searched again): not known yet either.
    if (written === null) return search.vocabulary[position]!;
    if (cache.size >= REMEMBERED) cache.clear();
    cache.set(position, (form = written));
  }
  return form;
}

/** null while the text of the post it looks in is not at hand. */
function writtenForm(search: LanguageSearch, position: number): string | null {
  const word = search.vocabulary[position]!;
  const [id] = runOf(search.runs, position);
  const text = id === undefined ? undefined : search.text?.(id);
  if (text === null) return null;
  if (text === undefined) return word;
  const locale = language(search.lang).locale;
  let first: string | undefined;
  for (const written of segment(search.lang, text).split(SPLIT)) {
    if (!written || fold(search.lang, written) !== word) continue;
    if (written === written.toLocaleLowerCase(locale)) return written;
    first ??= written;
  }
  return first ?? word;
}
