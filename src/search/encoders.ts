import { language } from '../core/languages.ts';
import { TRADITIONAL_SIMPLIFIED } from './zh-traditional.ts';

/**
 * Script-aware text folding and tokenising, one place for index, query and snippets
 * (DESIGN.md, "Search per script"). The same function folds a document and a query, so
 * case, accents and script variants match both ways.
 */
const SEGMENTED = new Set(['zh', 'ja']);
const ARABIC_MARKS = /[\u064B-\u0652\u0670\u0640]/g;
const LATIN_FOLDED = new Set(['en', 'es', 'fr', 'de', 'pt-br', 'id', 'vi', 'tr']);

/** Word characters: letters, combining marks (Devanagari vowel signs) and digits (a pattern's class). */
const WORD = '\\p{L}\\p{M}\\p{N}';
export const WORD_CHARACTER = `[${WORD}]`;
/** What separates words: anything else. */
export const SPLIT = new RegExp(`[^${WORD}]+`, 'u');

/** Text without a character beyond ASCII: most queries, and every one a program sends by slug. */
export const ASCII = /^[\x00-\x7f]*$/;

/** Letters Latin and Cyrillic text folds beyond case and accents (ı after Turkish's own lower case). */
const LETTERS: Record<string, string> = { ı: 'i', ß: 'ss', đ: 'd', ё: 'е' };
const LETTER = /[ıßđё]/g;
const COMBINING = /[\u0300-\u036f]/g;

/** Chinese: traditional characters as their simplified forms (OpenCC's table, one character each: lengths are kept), made on first use. */
let simplified: Map<string, string> | undefined;
const HAN = /\p{Script=Han}/gu;
function toSimplified(s: string): string {
  if (!simplified) {
    const cs = [...TRADITIONAL_SIMPLIFIED];
    simplified = new Map();
    for (let i = 0; i + 1 < cs.length; i += 2) simplified.set(cs[i]!, cs[i + 1]!);
  }
  return s.replace(HAN, (c) => simplified!.get(c) ?? c);
}

export function fold(lang: string, text: string): string {
  // ASCII folds to its lower case in every language (Turkish's I too: it becomes ı, then i below),
  // without the normalisations and replacements (a third of a query's matching time).
  if (ASCII.test(text)) return text.toLowerCase();
  let s = text.normalize('NFC');
  // Only Turkish lowers by its locale, and its İ and I are mapped first; any other language lowers
  // the same without one (a tenth of the time: a locale's rules are looked up on every call).
  if (lang === 'tr') s = s.replace(/İ/g, 'i').replace(/I/g, 'ı').toLocaleLowerCase(language(lang).locale);
  else s = s.toLowerCase();
  if (LATIN_FOLDED.has(lang) || lang === 'ru') return s.replace(LETTER, (c) => LETTERS[c]!).normalize('NFD').replace(COMBINING, '').normalize('NFC');
  if (lang === 'ar') s = s.replace(ARABIC_MARKS, '').replace(/[أإآٱ]/g, 'ا').replace(/ى/g, 'ي').replace(/ة/g, 'ه');
  // A reader may type traditional characters (地圖) for a simplified text (地图): both fold to simplified.
  if (lang === 'zh') s = toSimplified(s);
  // Latin words quoted inside other scripts fold the same way as in Latin languages.
  return s.replace(/[\u00C0-\u024F]/g, (c) => c.normalize('NFD').replace(COMBINING, ''));
}

const segmenters = new Map<string, Intl.Segmenter>();

/** Chinese and Japanese have no spaces: segment into words with Intl.Segmenter. */
export function segment(lang: string, text: string): string {
  if (!SEGMENTED.has(lang)) return text;
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' })));
  const words: string[] = [];
  for (const part of seg.segment(text)) if (part.isWordLike) words.push(part.segment);
  return words.join(' ');
}

export function tokens(lang: string, text: string): string[] {
  return segment(lang, fold(lang, text)).split(SPLIT).filter(Boolean);
}
