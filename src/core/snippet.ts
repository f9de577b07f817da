import { fold } from '../search/encoders.ts';
import { language } from './languages.ts';

/**
 * Plain text around the best match, cut on word boundaries (Intl.Segmenter, so CJK and
 * Devanagari are never split inside a word or cluster), with ellipses where cut.
 */
const CHARACTER_SCRIPTS = new Set(['zh', 'ja', 'ko']);
const segmenters = new Map<string, Intl.Segmenter>();

/** Word boundaries of `text` between `from` and `to` (segmenting only that window, plus a margin). */
function boundaries(lang: string, text: string, from: number, to: number): number[] {
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' })));
  const start = Math.max(0, from - 40);
  const window = text.slice(start, Math.min(text.length, to + 40));
  const out = [start];
  for (const part of seg.segment(window)) out.push(start + part.index + part.segment.length);
  // The window's own edges are not word boundaries unless they are the text's.
  return out.filter((b) => b === 0 || b === text.length || (b > start && b < start + window.length));
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

/** Position in `text` of the first occurrence of the longest term found, comparing folded forms. */
function matchAt(lang: string, text: string, terms: readonly string[]): number {
  // Most queries appear in the text as written, up to case: the cheapest check first.
  const lower = text.toLowerCase();
  if (lower.length === text.length) {
    for (const term of longestFirst(terms)) {
      const at = lower.indexOf(term);
      if (at >= 0) return at;
    }
  }
  // Usually folding keeps the length, so positions carry over one to one.
  const whole = fold(lang, text);
  if (whole.length === text.length) {
    for (const term of longestFirst(terms)) {
      const at = whole.indexOf(term);
      if (at >= 0) return at;
    }
    return -1;
  }
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
  const haystack = folded.join('');
  for (const term of longestFirst(terms)) {
    const at = haystack.indexOf(term);
    if (at >= 0) return origin[at]!;
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
  const cuts = boundaries(lang, text, wantStart, wantStart + size);
  const start = wantStart === from ? from : cuts.filter((b) => b <= wantStart && b >= from).pop() ?? wantStart;
  const end = Math.min(to, cuts.find((b) => b >= start + size) ?? start + size);
  const body = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
