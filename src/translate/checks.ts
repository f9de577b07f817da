import { termPattern } from './glossary.ts';
import { holdsTerm, INFLECTING } from './fixed-terms.ts';
import { unescapeText, URL_OR_EMAIL } from './inline-markup.ts';

/**
 * What every translated segment must pass besides its markup (segments.ts checks that): no marks
 * an engine leaves on words it did not know, a length in proportion to the English, and not the
 * English itself where there was a sentence to translate. Returns the reason, or undefined.
 */
const words = (tagged: string) => tagged.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();

/** Apertium's unknown (`*`), untranslatable (`@`) and generation-error (`#`) marks, before a letter. */
const ENGINE_MARKS = /(^|\s)[*@#]\p{L}/u;

/**
 * Length of a translation against its English, per target language: [lowest, highest] ratio of
 * characters. CJK and Korean run much shorter than English; German, Russian, Hindi and the Romance
 * languages longer. Below the lowest it is a summary; above the highest, something was added.
 * Applied to segments of 40 characters or more (short ones vary too much), and an upper bound
 * (4 times and 20 characters) to every segment.
 */
const RATIO: Record<string, [number, number]> = { zh: [0.15, 1.5], ja: [0.15, 1.8], ko: [0.2, 1.8] };
const DEFAULT_RATIO: [number, number] = [0.4, 3];

/** The script a language is written in, where it is not Latin: an answer with none of it was not translated (or is the wrong language). */
const SCRIPTS: Record<string, { name: string; pattern: RegExp }> = {
  ar: { name: 'Arabic', pattern: /\p{Script=Arabic}/gu },
  hi: { name: 'Devanagari', pattern: /\p{Script=Devanagari}/gu },
  ja: { name: 'Japanese', pattern: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/gu },
  ko: { name: 'Hangul', pattern: /\p{Script=Hangul}/gu },
  zh: { name: 'Chinese', pattern: /\p{Script=Han}/gu },
  ru: { name: 'Cyrillic', pattern: /\p{Script=Cyrillic}/gu },
};

/**
 * Spanish words a French or Portuguese sentence does not have (articles, conjunctions, adverbs):
 * what a pivot through Spanish leaves behind where the second step failed. More than a quarter of
 * a segment's words (and at least 2) in Spanish is refused.
 */
const SPANISH_ONLY: Record<string, Set<string>> = {
  fr: new Set(['el', 'los', 'las', 'del', 'y', 'una', 'pero', 'muy', 'también', 'está', 'están', 'con', 'por', 'para', 'sino', 'aunque', 'cuando', 'donde', 'cómo', 'qué', 'este', 'esta', 'esto', 'eso', 'sus', 'hay', 'fue', 'ser', 'sin', 'más', 'después', 'entonces', 'siempre', 'nunca', 'ya', 'hasta', 'desde', 'lo', 'al']),
  'pt-br': new Set(['el', 'los', 'las', 'del', 'y', 'una', 'pero', 'muy', 'también', 'con', 'sino', 'aunque', 'cuando', 'donde', 'cómo', 'qué', 'esto', 'eso', 'hay', 'fue', 'ser', 'sin', 'más', 'después', 'entonces', 'siempre', 'nunca', 'ya', 'hasta', 'desde', 'lo', 'al', 'sus', 'puede', 'pueden']),
};

/** What engines answer instead of a translation (a service's error page or message as text). */
const ENGINE_ERRORS = [/\bERROR\b/, /\btranslation (?:is )?(?:not )?(?:unavailable|available)\b/i, /\bMYMEMORY WARNING\b/i, /\bQUERY LENGTH LIMIT\b/i, /\binternal server error\b/i, /\btoo many requests\b/i, /\brate limit(?:ed| exceeded)\b/i, /\bquota exceeded\b/i, /\bservice unavailable\b/i, /^\s*(?:undefined|null|NaN|\[object Object\])\s*$/];


/** The zeros of the digit sets Folio's languages write besides ASCII: Arabic-Indic, Extended Arabic-Indic (Persian, Urdu), Devanagari, full-width (CJK). */
const DIGIT_ZEROS = [0x0660, 0x06f0, 0x0966, 0xff10];

/** The numbers of a text as ASCII digits, with the separators between them dropped: 1,000, 1.000, 1 000 and ١٠٠٠ are one number. */
function numbersOf(text: string): string[] {
  const ascii = text.replace(/[\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\uff10-\uff19]/g, (d) => {
    const cp = d.codePointAt(0)!;
    return String(cp - DIGIT_ZEROS.findLast((z) => cp >= z)!);
  });
  return (ascii.match(/\d(?:\d|[.,\u00a0\u202f' ](?=\d))*/g) ?? []).map((n) => n.replace(/\D/g, ''));
}

export function contentProblem(source: string, translated: string, lang: string): string | undefined {
  const from = words(source);
  const to = words(translated);
  if (!to && from) return 'empty translation';
  const error = ENGINE_ERRORS.find((e) => e.test(to) && !e.test(from));
  if (error) return `an engine's error message, not a translation ("${to.slice(0, 60)}")`;
  if (ENGINE_MARKS.test(to) && !ENGINE_MARKS.test(from)) return `an engine's mark on an unknown word ("${ENGINE_MARKS.exec(to)![0].trim()}…")`;
  const urlsFrom = (unescapeText(from).match(URL_OR_EMAIL) ?? []).sort();
  const urlsTo = new Set(unescapeText(to).match(URL_OR_EMAIL) ?? []);
  const changedUrl = urlsFrom.find((u) => !urlsTo.has(u));
  if (changedUrl) return `the URL or address "${changedUrl}" is not in the translation as it was`;
  const numbersFrom = numbersOf(from);
  const numbersTo = numbersOf(to);
  const lostNumber = numbersFrom.find((n) => { const at = numbersTo.indexOf(n); if (at < 0) return true; numbersTo.splice(at, 1); return false; });
  if (lostNumber !== undefined) return `the number ${lostNumber} of the English is not in the translation`;
  const [low, high] = RATIO[lang] ?? DEFAULT_RATIO;
  if (to.length > Math.max(high * from.length, 4 * from.length + 20)) return `${Math.round((to.length / from.length) * 100)} % of the English length`;
  if (from.length >= 40) {
    if (to === from) return 'left in English';
    const ratio = to.length / from.length;
    if (ratio < low) return `${Math.round(ratio * 100)} % of the English length: a summary, not a translation`;
    if (ratio > high) return `${Math.round(ratio * 100)} % of the English length`;
  }
  const script = SCRIPTS[lang];
  // Two words or more of English (a name or an acronym alone may stay in Latin letters).
  if (script && (from.match(/\p{L}+/gu) ?? []).length >= 2 && !(unescapeText(to).replace(URL_OR_EMAIL, '').match(script.pattern) ?? []).length) return `no ${script.name} text: not a translation into ${lang}`;
  const spanish = SPANISH_ONLY[lang];
  if (spanish) {
    const tokens = unescapeText(to).toLocaleLowerCase('es').match(/\p{L}+/gu) ?? [];
    const leaked = tokens.filter((t) => spanish.has(t) || t.includes('ñ'));
    if (leaked.length >= 2 && leaked.length > tokens.length / 4) return `Spanish words in a ${lang} translation (${[...new Set(leaked)].slice(0, 5).join(', ')}): the pivot through Spanish failed`;
  }
  return undefined;
}

/** Different segments (by their words, in any case) that one answer may serve before it is taken for a canned reply. */
const SAME_ANSWER_LIMIT = 3;

/**
 * Answers an engine gave to several different segments of one batch (an error text, a refusal,
 * the same sentence every time): answer -> why it is refused. Segments whose English reads the
 * same (a repeated table heading) may share an answer.
 */
export function repeatedAnswers(sources: readonly string[], answers: readonly string[]): Map<string, string> {
  const by = new Map<string, Set<string>>();
  for (const [k, answer] of answers.entries()) {
    if (!/\p{L}/u.test(words(answer))) continue;
    let set = by.get(answer);
    if (!set) by.set(answer, (set = new Set()));
    set.add(words(sources[k]!).toLocaleLowerCase('en'));
  }
  const out = new Map<string, string>();
  for (const [answer, set] of by) if (set.size >= SAME_ANSWER_LIMIT) out.set(answer, `the same answer ("${words(answer).slice(0, 60)}") for ${set.size} different segments`);
  return out;
}

/**
 * The glossary's fixed translations: where the English segment has a term (a whole word, in any
 * case: it may begin a sentence), the translation must have the one given for the language (in
 * any case, inside a longer word too: German compounds; inflected, where the language inflects
 * nouns: fixed-terms.ts holdsTerm). Returns the reason, or undefined.
 */
export function glossaryProblem(terms: Record<string, Record<string, string>>, source: string, translated: string, lang: string): string | undefined {
  const from = unescapeText(words(source));
  const to = unescapeText(words(translated));
  for (const [term, byLang] of Object.entries(terms)) {
    const wanted = byLang[lang];
    if (wanted === undefined || !termPattern([term], 'iu')!.test(from)) continue;
    if (!holdsTerm(to, wanted, lang)) return `the glossary's "${term}" is "${wanted}" in ${lang}, not found in the translation${INFLECTING[lang] ? ' (in any inflected form)' : ''}`;
  }
  return undefined;
}
