import { termPattern } from './glossary.ts';
import { unescapeText } from './inline-markup.ts';

/**
 * What every translated segment must pass besides its markup (segments.ts checks that): no marks
 * an engine leaves on words it did not know, a length in proportion to the English, and not the
 * English itself where there was a sentence to translate. Returns the reason, or undefined.
 */
const words = (tagged: string) => tagged.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/** Apertium's unknown (`*`), untranslatable (`@`) and generation-error (`#`) marks, before a letter. */
const ENGINE_MARKS = /(^|\s)[*@#]\p{L}/u;

/** Scripts whose text runs much shorter than English (CJK, Korean): a lower bound would refuse them. */
const DENSE = new Set(['zh', 'ja', 'ko']);

export function contentProblem(source: string, translated: string, lang: string): string | undefined {
  const from = words(source);
  const to = words(translated);
  if (!to && from) return 'empty translation';
  if (ENGINE_MARKS.test(to) && !ENGINE_MARKS.test(from)) return `an engine's mark on an unknown word ("${ENGINE_MARKS.exec(to)![0].trim()}…")`;
  if (from.length >= 40) {
    if (to === from) return 'left in English';
    const ratio = to.length / from.length;
    const low = DENSE.has(lang) ? 0.15 : 0.4;
    if (ratio < low) return `${Math.round(ratio * 100)} % of the English length: a summary, not a translation`;
    if (ratio > 3) return `${Math.round(ratio * 100)} % of the English length`;
  }
  return undefined;
}

/**
 * The glossary's fixed translations: where the English segment has a term (a whole word, in any
 * case: it may begin a sentence), the translation must have the one given for the language (in
 * any case, inside a longer word too: German compounds). Returns the reason, or undefined.
 */
export function glossaryProblem(terms: Record<string, Record<string, string>>, source: string, translated: string, lang: string): string | undefined {
  const from = unescapeText(words(source));
  const to = unescapeText(words(translated)).toLocaleLowerCase(lang);
  for (const [term, byLang] of Object.entries(terms)) {
    const wanted = byLang[lang];
    if (wanted === undefined || !termPattern([term], 'iu')!.test(from)) continue;
    if (!to.includes(wanted.toLocaleLowerCase(lang))) return `the glossary's "${term}" is "${wanted}" in ${lang}, not found in the translation`;
  }
  return undefined;
}
