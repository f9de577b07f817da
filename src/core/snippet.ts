import { ASCII, fold, WORD_CHARACTER } from '../search/encoders.ts';
import { language } from './languages.ts';

/**
 * Plain text around the best match, cut on word boundaries (white space, or Intl.Segmenter's
 * words in Chinese and Japanese, so no word or Devanagari cluster is split), with ellipses where a
 * sentence is cut.
 */
const CHARACTER_SCRIPTS = new Set(['zh', 'ja', 'ko']);
/** Scripts without spaces between words. */
const SEGMENTED = new Set(['zh', 'ja']);
const segmenters = new Map<string, Intl.Segmenter>();

/** Segmenter word boundaries within `MARGIN` of `at` (the margin's own edges only where they are the text's). */
const MARGIN = 16;
function boundariesNear(lang: string, text: string, at: number): number[] {
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' })));
  const from = Math.max(0, at - MARGIN);
  const to = Math.min(text.length, at + MARGIN);
  const out: number[] = from === 0 ? [0] : [];
  for (const part of seg.segment(text.slice(from, to))) {
    const b = from + part.index + part.segment.length;
    if (b < to || to === text.length) out.push(b);
  }
  return out;
}

const SPACE = /\s/;

/**
 * Where a snippet of about `size` from near `wantStart` starts and ends: never before `matchEnd`,
 * as a start moved back to a word boundary would otherwise pull the end back over a match near it.
 * Scripts that separate words with spaces are cut at white space (never inside a word, a
 * Devanagari cluster or a surrogate pair) by a scan; Chinese and Japanese need the segmenter's
 * word boundaries.
 */
function window(lang: string, text: string, wantStart: number, size: number, matchEnd: number): [number, number] {
  if (SEGMENTED.has(lang)) {
    const start = wantStart === 0 ? 0 : boundariesNear(lang, text, wantStart).filter((b) => b <= wantStart).pop() ?? wantStart;
    const wantEnd = Math.max(start + size, matchEnd);
    return [start, boundariesNear(lang, text, wantEnd).find((b) => b >= wantEnd) ?? Math.min(text.length, wantEnd)];
  }
  // A word boundary: the text's edges, or next to white space; at most 40 characters away (a longer word is cut).
  const edge = (p: number) => p <= 0 || p >= text.length || SPACE.test(text[p - 1]!) || SPACE.test(text[p]!);
  let start = wantStart;
  while (!edge(start) && wantStart - start < 40) start--;
  const wantEnd = Math.min(text.length, Math.max(start + size, matchEnd));
  let end = wantEnd;
  while (!edge(end) && end - wantEnd < 40) end++;
  return [start, end];
}

const foldedChars = new Map<string, Map<string, string>>();

/** Folding one character at a time is the hot path of snippets: memoise it per language. */
function foldChar(lang: string, ch: string): string {
  let m = foldedChars.get(lang);
  if (!m) foldedChars.set(lang, (m = new Map()));
  let f = m.get(ch);
  if (f === undefined) m.set(ch, (f = fold(lang, ch)));
  return f;
}

const longestFirst = (terms: readonly string[]) => [...terms].sort((a, b) => b.length - a.length);

/** Code points whose folding is worked out for term patterns: Latin, Greek, Cyrillic, Arabic, Vietnamese. */
const FOLDED_RANGES: [number, number][] = [[0x20, 0x52f], [0x600, 0x6ff], [0x1e00, 0x1eff]];
const variantsOf = new Map<string, { variants: Map<string, string[]>; ignorable: string; unseen: RegExp }>();
const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * Per language: the characters that fold to each character, those folding drops (marks), and a
 * pattern for those folding to more than one (ß), which term patterns cannot see.
 */
function variants(lang: string) {
  let v = variantsOf.get(lang);
  if (v) return v;
  const map = new Map<string, string[]>();
  let ignorable = '';
  let multiple = '';
  for (const [lo, hi] of FOLDED_RANGES) {
    for (let c = lo; c <= hi; c++) {
      const ch = String.fromCharCode(c);
      const f = foldChar(lang, ch);
      if (f === '') ignorable += ch;
      else if (f.length === 1 && f !== ch) map.set(f, [...(map.get(f) ?? [f]), ch]);
      else if (f.length > 1) multiple += ch;
    }
  }
  variantsOf.set(lang, (v = { variants: map, ignorable, unseen: new RegExp(multiple ? `[${escape(multiple)}]` : '(?!)', 'u') }));
  return v;
}

/**
 * How an occurrence of a term stands in the text, best first: as a word of its own; as the
 * beginning of a longer word (a form of it: the index matches a query word to the words it
 * begins); anywhere, even inside a word ("legible" in "illegible", which the index does not
 * match), a last resort. Chinese and Japanese have no white space to tell where a word begins and
 * the index matches terms inside their words: anywhere is all they have.
 */
const WHOLE = 0;
const START = 1;
const ANYWHERE = 2;
type Fit = typeof WHOLE | typeof START | typeof ANYWHERE;
const fitsOf = (lang: string): Fit[] => (SEGMENTED.has(lang) ? [ANYWHERE] : [WHOLE, START, ANYWHERE]);

/** An occurrence: its start and end in the text. */
type Match = [number, number];

const patterns = new Map<string, RegExp>();

/**
 * A pattern matching `term` (folded) in unfolded text: each character as any that folds to it, the
 * marks folding drops allowed between them and after them. Finds occurrences without folding the
 * text (global: each search sets `lastIndex`).
 */
function pattern(lang: string, term: string): RegExp {
  const key = `${lang}:${term}`;
  let re = patterns.get(key);
  if (re) return re;
  const { variants: map, ignorable } = variants(lang);
  const gap = ignorable ? `[${escape(ignorable)}]*` : '';
  const parts = [...term].map((c) => {
    const v = map.get(c);
    return v ? `[${escape(v.join(''))}]` : escape(c);
  });
  re = new RegExp(parts.join(gap) + gap, 'gu');
  // Queries repeat (Zipf); a bound keeps odd ones from piling up.
  if (patterns.size >= 4096) patterns.clear();
  patterns.set(key, re);
  return re;
}

/**
 * Word edges are looked at around each occurrence rather than in the term's pattern: a Unicode
 * property class costs about half a millisecond to compile, once here and not per term.
 */
const WORD_BEFORE = new RegExp(`${WORD_CHARACTER}$`, 'u');
const WORD_AFTER = new RegExp(`^${WORD_CHARACTER}`, 'u');

/** Whether the occurrence [start, end) of a term fits as `fit` asks (two code units: a surrogate pair is one character). */
function fits(text: string, start: number, end: number, fit: Fit): boolean {
  if (fit === ANYWHERE) return true;
  if (start > 0 && WORD_BEFORE.test(text.slice(Math.max(0, start - 2), start))) return false;
  return fit === START || !WORD_AFTER.test(text.slice(end, end + 2));
}

/**
 * The fallback for what a pattern cannot see (a character folding to two, as ß to ss): scanned in
 * pieces, so a term near the start costs a piece's folding and not the whole text's. Pieces overlap
 * by the term's length.
 */
const PIECE = 512;

/**
 * The first occurrence of `term` in `text` that fits as `fit` asks, comparing folded forms. The
 * fallback runs for a word's edges only where the text has a character patterns cannot see; for
 * an occurrence anywhere, always, as the last resort.
 */
function find(lang: string, text: string, term: string, fit: Fit): Match | undefined {
  const re = pattern(lang, term);
  re.lastIndex = 0;
  // Occurrences of a word never overlap in a way that matters: one inside another's run has a word character before it.
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (fits(text, m.index, m.index + m[0].length, fit)) return [m.index, m.index + m[0].length];
  }
  return fit === ANYWHERE || variants(lang).unseen.test(text) ? findInPieces(lang, text, term, fit) : undefined;
}

function findInPieces(lang: string, text: string, term: string, fit: Fit): Match | undefined {
  for (let from = 0; from < text.length; from += PIECE) {
    const piece = text.slice(from, from + PIECE + term.length - 1);
    for (const [start, end] of occurrences(lang, piece, term)) {
      if (fits(text, from + start, from + end, fit)) return [from + start, from + end];
    }
  }
  return undefined;
}

/** Occurrences of `term` in a piece, comparing folded forms (some may come twice). */
function* occurrences(lang: string, piece: string, term: string): Generator<Match> {
  const all = function* (hay: string) {
    for (let at = hay.indexOf(term); at >= 0; at = hay.indexOf(term, at + 1)) yield [at, at + term.length] as Match;
  };
  // Most queries appear in the text as written, up to case: the cheapest check first.
  const lower = piece.toLowerCase();
  if (lower.length === piece.length) yield* all(lower);
  // Text without a character beyond ASCII folds to its lower case (fold): searched above already.
  if (ASCII.test(piece)) return;
  // Usually folding keeps the length, so positions carry over one to one.
  const whole = fold(lang, piece);
  if (whole.length === piece.length) yield* all(whole);
  else yield* foldedOccurrences(lang, piece, term);
}

/** Occurrences in a piece whose folded form has another length: folded one character at a time, with each unit's origin. */
function* foldedOccurrences(lang: string, text: string, term: string): Generator<Match> {
  const folded: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      folded.push(code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : text[i]!);
      origin.push(i);
      i++;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    for (const unit of foldChar(lang, ch)) {
      folded.push(unit);
      origin.push(i);
    }
    i += ch.length;
  }
  const hay = folded.join('');
  for (let at = hay.indexOf(term); at >= 0; at = hay.indexOf(term, at + 1)) {
    // The occurrence ends with the whole character its last unit comes from (ß for a term ending in "s").
    const last = origin[at + term.length - 1]!;
    yield [origin[at]!, last + String.fromCodePoint(text.codePointAt(last)!).length];
  }
}

/** The first occurrence fitting as `fit` asks of the first of `terms` (longest first) that has one. */
function matchAt(lang: string, text: string, terms: readonly string[], fit: Fit): Match | undefined {
  for (const term of terms) {
    const m = find(lang, text, term, fit);
    if (m) return m;
  }
  return undefined;
}

/** The block (one line of the text: a paragraph, a heading, a list item) holding position `at`. */
function blockAt(text: string, at: number): [number, number] {
  const stop = text.indexOf('\n', at);
  return [at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1, stop < 0 ? text.length : stop];
}

/**
 * The best fitting occurrence (a word of its own before a longer word's beginning, so the snippet
 * shows the word searched where the text has it; the query's own words before their other forms):
 * in the first block long enough to say something (a heading alone says little), else the first anywhere.
 */
function bestMatch(lang: string, text: string, terms: readonly string[], forms: readonly string[], long: number): Match {
  for (const group of [terms, forms]) {
    const ordered = longestFirst(group);
    for (const fit of fitsOf(lang)) {
      const first = matchAt(lang, text, ordered, fit);
      if (!first) continue;
      for (let m = first; ; ) {
        const [from, to] = blockAt(text, m[0]);
        if (to - from >= long) return m;
        const next = to < text.length ? matchAt(lang, text.slice(to), ordered, fit) : undefined;
        if (!next) return first;
        m = [to + next[0], to + next[1]];
      }
    }
  }
  return [0, 0];
}

/** The end of a sentence, with the quotes or brackets closing after it. */
const SENTENCE_END = /[.!?…。！？؟।॥]["'’”»」』)\]]*$/u;

/**
 * The snippet never leaves the block holding the match: the texts keep one line per block, so a
 * heading is never run into the sentence after it. An ellipsis marks a sentence cut, not a block
 * left out: a snippet ending with its block, or on a sentence's end, ends there (never `.…`).
 * `forms`: the other words the query matched (its words' other forms, corrected typos), shown where the text has none of `terms`.
 */
export function snippet(lang: string, text: string, terms: readonly string[], forms: readonly string[] = []): string {
  const wide = !CHARACTER_SCRIPTS.has(lang);
  const size = wide ? 200 : 90;
  const lead = wide ? 60 : 25;
  if (text.length <= size && !text.includes('\n')) return text;
  const [at, matchEnd] = bestMatch(lang, text, terms, forms, size / 4);
  const [from, to] = blockAt(text, at);
  const wantStart = Math.max(from, Math.min(at - lead, to - size));
  const [cutStart, cutEnd] = window(lang, text, wantStart, size, matchEnd);
  const start = Math.max(from, cutStart);
  const end = Math.min(to, cutEnd);
  const body = text.slice(start, end).trim();
  // What the snippet leaves out before it: a few characters show whether a sentence ends there.
  const cutBefore = start > from && !SENTENCE_END.test(text.slice(Math.max(from, start - 8), start).trimEnd());
  const cutAfter = end < to && !SENTENCE_END.test(body);
  // The ellipsis stands for the words cut, and for the pause before or after them: a comma, colon or dash at the cut goes.
  const shown = cutAfter ? body.replace(PAUSE_AT_END, '') : body;
  return `${cutBefore ? '…' : ''}${cutBefore ? shown.replace(PAUSE_AT_START, '') : shown}${cutAfter ? '…' : ''}`;
}

/**
 * Punctuation of a pause within a sentence (commas, semicolons, colons, dashes, in each script), and
 * what cannot stand at a cut: an opening mark before it, a closing one or a sentence's end after it.
 */
const PAUSE = '\\s,;:،؛、，；：–—\\-';
const PAUSE_AT_END = new RegExp(`[${PAUSE}“‘«„「『(\\[]+$`, 'u');
const PAUSE_AT_START = new RegExp(`^[${PAUSE}.!?。！？؟।”’»」』)\\]]+`, 'u');
