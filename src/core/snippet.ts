import { fold } from '../search/encoders.ts';
import { language } from './languages.ts';

/**
 * Plain text around the best match, cut on word boundaries (white space, or Intl.Segmenter's
 * words in Chinese and Japanese, so no word or Devanagari cluster is split), with ellipses where cut.
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
 * Where a snippet of about `size` from near `wantStart` starts and ends. Scripts that separate
 * words with spaces are cut at white space (never inside a word, a Devanagari cluster or a
 * surrogate pair) by a scan; Chinese and Japanese need the segmenter's word boundaries.
 */
function window(lang: string, text: string, wantStart: number, size: number): [number, number] {
  if (SEGMENTED.has(lang)) {
    const start = wantStart === 0 ? 0 : boundariesNear(lang, text, wantStart).filter((b) => b <= wantStart).pop() ?? wantStart;
    return [start, boundariesNear(lang, text, start + size).find((b) => b >= start + size) ?? Math.min(text.length, start + size)];
  }
  // A word boundary: the text's edges, or next to white space; at most 40 characters away (a longer word is cut).
  const edge = (p: number) => p <= 0 || p >= text.length || SPACE.test(text[p - 1]!) || SPACE.test(text[p]!);
  let start = wantStart;
  while (!edge(start) && wantStart - start < 40) start--;
  let end = Math.min(text.length, start + size);
  while (!edge(end) && end - start - size < 40) end++;
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
const variantsOf = new Map<string, { variants: Map<string, string[]>; ignorable: string }>();

/** Per language: the characters that fold to each character, and those folding drops (marks). */
function variants(lang: string) {
  let v = variantsOf.get(lang);
  if (v) return v;
  const map = new Map<string, string[]>();
  let ignorable = '';
  for (const [lo, hi] of FOLDED_RANGES) {
    for (let c = lo; c <= hi; c++) {
      const ch = String.fromCharCode(c);
      const f = foldChar(lang, ch);
      if (f === '') ignorable += ch;
      else if (f.length === 1 && f !== ch) map.set(f, [...(map.get(f) ?? [f]), ch]);
    }
  }
  variantsOf.set(lang, (v = { variants: map, ignorable }));
  return v;
}

const escape = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
const patterns = new Map<string, RegExp>();

/**
 * A pattern matching `term` (folded) in unfolded text: each character as any that folds to it, the
 * marks folding drops allowed between them. Finds the first occurrence without folding the text.
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
  re = new RegExp(parts.join(gap), 'u');
  // Queries repeat (Zipf); a bound keeps odd ones from piling up.
  if (patterns.size >= 4096) patterns.clear();
  patterns.set(key, re);
  return re;
}

/**
 * The fallback for what a pattern cannot see (a character folding to two, as ß to ss): scanned in
 * pieces, so a term near the start costs a piece's folding and not the whole text's. Pieces overlap
 * by the term's length.
 */
const PIECE = 512;

/** Position in `text` of the first occurrence of `term`, comparing folded forms; -1 when absent. */
function find(lang: string, text: string, term: string): number {
  const at = text.search(pattern(lang, term));
  return at >= 0 ? at : findInPieces(lang, text, term);
}

function findInPieces(lang: string, text: string, term: string): number {
  for (let from = 0; from < text.length; from += PIECE) {
    const piece = text.slice(from, from + PIECE + term.length - 1);
    // Most queries appear in the text as written, up to case: the cheapest check first.
    const lower = piece.toLowerCase();
    let at = lower.length === piece.length ? lower.indexOf(term) : -1;
    if (at >= 0) return from + at;
    // Usually folding keeps the length, so positions carry over one to one.
    const whole = fold(lang, piece);
    if (whole.length === piece.length) {
      at = whole.indexOf(term);
      if (at >= 0) return from + at;
      continue;
    }
    at = foldedFind(lang, piece, term);
    if (at >= 0) return from + at;
  }
  return -1;
}

/** `find` in a piece whose folded form has another length: folded one character at a time, with each unit's origin. */
function foldedFind(lang: string, text: string, term: string): number {
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
  const at = folded.join('').indexOf(term);
  return at >= 0 ? origin[at]! : -1;
}

/** Position in `text` of the first occurrence of the longest term found. */
function matchAt(lang: string, text: string, terms: readonly string[]): number {
  for (const term of longestFirst(terms)) {
    const at = find(lang, text, term);
    if (at >= 0) return at;
  }
  return -1;
}

/** The block (one line of the text: a paragraph, a heading, a list item) holding position `at`. */
function blockAt(text: string, at: number): [number, number] {
  const stop = text.indexOf('\n', at);
  return [at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1, stop < 0 ? text.length : stop];
}

/**
 * The match in the first block long enough to say something (a heading alone says little), else
 * the first match anywhere.
 */
function bestMatch(lang: string, text: string, terms: readonly string[], long: number): number {
  const first = Math.max(0, matchAt(lang, text, terms));
  for (let at = first; ; ) {
    const [from, to] = blockAt(text, at);
    if (to - from >= long) return at;
    const next = to < text.length ? matchAt(lang, text.slice(to), terms) : -1;
    if (next < 0) return first;
    at = to + next;
  }
}

/**
 * The snippet never leaves the block holding the match: the texts keep one line per block, so a
 * heading is never run into the sentence after it.
 */
export function snippet(lang: string, text: string, terms: readonly string[]): string {
  const wide = !CHARACTER_SCRIPTS.has(lang);
  const size = wide ? 200 : 90;
  const lead = wide ? 60 : 25;
  if (text.length <= size && !text.includes('\n')) return text;
  const at = bestMatch(lang, text, terms, size / 4);
  const [from, to] = blockAt(text, at);
  const wantStart = Math.max(from, Math.min(at - lead, to - size));
  const [cutStart, cutEnd] = window(lang, text, wantStart, size);
  const start = Math.max(from, cutStart);
  const end = Math.min(to, cutEnd);
  const body = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
