import { fixedTermMatcher, type Glossary } from './glossary.ts';
import { escapeText } from './inline-markup.ts';

/**
 * The glossary's fixed translations reach each engine the way it can take them: DeepL as its own
 * glossaries, a language model in its prompt (both inflect the term as the sentence needs), and
 * the engines with neither (Apertium, LibreTranslate, Google) as placeholders: the term goes as an
 * empty `<x>` the engine keeps where the sentence puts it, and its fixed translation replaces it in
 * the answer, so the engine cannot make another word of it. Where the target language inflects
 * nouns by case (German, Russian, Turkish, Arabic, Hindi), a placeholder would leave the term in
 * its dictionary form inside an inflected sentence, so there the term goes as words and the check
 * accepts it inflected: each word of the fixed translation with its last letters changed.
 */

/** Languages whose nouns change their ending by case, and how many final letters of a term's word may change. */
export const INFLECTING: Record<string, number> = { de: 1, ru: 2, tr: 1, ar: 1, hi: 1 };

/**
 * Is a fixed translation in a translated text: as it is (in any case, inside a longer word too:
 * German compounds, a Turkish suffix), or in a language that inflects nouns each of its words with
 * its ending changed (words of 4 letters or more keep all but their last 1, or 2 in Russian).
 */
export function holdsTerm(translated: string, wanted: string, lang: string): boolean {
  const text = translated.toLocaleLowerCase(lang);
  const term = wanted.toLocaleLowerCase(lang);
  if (text.includes(term)) return true;
  const change = INFLECTING[lang];
  if (!change) return false;
  return term.split(/\s+/).every((word) => {
    const letters = [...word];
    return text.includes(letters.length >= 4 ? letters.slice(0, Math.max(3, letters.length - change)).join('') : word);
  });
}

/**
 * Segments with the fixed terms they hold as placeholders numbered after their own, and how to put
 * each term's fixed translation back in the engine's answer (its first letter in capitals where
 * the English term began with one and the translation does not). The placeholder an engine drops
 * leaves its term out, which the glossary check then refuses.
 */
export function termPlaceholders(segments: readonly string[], glossary: Glossary, lang: string): { texts: string[]; restore: (answers: readonly string[]) => string[] } {
  const entries = Object.entries(glossary.terms).flatMap(([term, byLang]) => (byLang[lang] === undefined ? [] : [[term, byLang[lang]] as const]));
  // Longer terms first, so "translation memory" wins over "memory".
  const pattern = entries.length ? new RegExp(entries.map(([term]) => fixedTermMatcher(term).source).sort((a, b) => b.length - a.length).join('|'), 'giu') : undefined;
  const slots: Map<number, string>[] = [];
  const texts = segments.map((segment, k) => {
    const kept = new Map<number, string>();
    slots[k] = kept;
    if (!pattern) return segment;
    let next = Math.max(0, ...[...segment.matchAll(/<(?:a|x) i="(\d+)"/g)].map((m) => Number(m[1]))) + 1;
    // Only in words, never inside a tag.
    return segment.replace(/(<[^>]*>)|[^<]+/g, (part, tag: string | undefined) =>
      tag
        ? part
        : part.replace(pattern, (found: string) => {
            const [, translation] = entries.find(([term]) => fixedTermMatcher(term).test(found))!;
            const capital = /^\p{Lu}/u.test(found) && !/^\p{Lu}/u.test(translation);
            kept.set(next, capital ? translation[0]!.toLocaleUpperCase(lang) + translation.slice(1) : translation);
            return `<x i="${next++}"></x>`;
          }),
    );
  });
  const restore = (answers: readonly string[]) =>
    answers.map((answer, k) => answer.replace(/<x i="(\d+)"\s*(?:\/>|><\/x>)/g, (whole, n: string) => (slots[k]!.has(Number(n)) ? escapeText(slots[k]!.get(Number(n))!) : whole)));
  return { texts, restore };
}
