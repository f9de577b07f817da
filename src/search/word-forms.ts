import { stemmer as arabic } from '@orama/stemmers/arabic';
import { stemmer as english } from '@orama/stemmers/english';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as hindi } from '@orama/stemmers/indian';
import { stemmer as indonesian } from '@orama/stemmers/indonesian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as turkish } from '@orama/stemmers/turkish';

/**
 * How a query word reaches the words of a text besides itself and the longer words it begins
 * (docs/search.md, "What search matches"): the Snowball stem of each language that has one (Orama's port of
 * the Snowball stemmers), a typo's distance where words are spelled in letters, and, in Korean,
 * the word without its trailing particle. Words are already folded (encoders.ts): both sides of a
 * match go through the same `fold`, then the same stemmer.
 */
const STEMMERS: Record<string, (word: string) => string> = {
  en: english,
  es: spanish,
  fr: french,
  'pt-br': portuguese,
  de: german,
  ru: russian,
  id: indonesian,
  tr: turkish,
  ar: arabic,
  hi: hindi,
};

export const hasStemmer = (lang: string) => lang in STEMMERS;

/** The word's stem in `lang` (the word itself where the language has no stemmer). */
export function stem(lang: string, word: string): string {
  const s = STEMMERS[lang];
  return s ? s(word) : word;
}

/** Han, kana and Hangul: a character is a syllable or a word, and one edit makes another word. */
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether a word is written in syllables or ideographs (Chinese, Japanese, Korean), where no typo is assumed. */
export const ideographic = (word: string) => IDEOGRAPHIC.test(word);

/** Japanese kana: a word of KANA_MIN or more tolerates one kana off (チェックサン for チェックサム); shorter ones are other words one kana away. */
export const KANA_MIN = 5;
const KANA = /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u;
export const isKana = (word: string) => KANA.test(word);

/**
 * Edits a typo may hold in a query word of `length` characters: one from 4 letters (a 5-letter word
 * less a letter, and Arabic, which writes no short vowels), two from 9; one in a word of KANA_MIN
 * kana or more; none in other syllables and ideographs. bench:search measures the rule.
 */
export function typoEdits(word: string, length = [...word].length): number {
  if (isKana(word)) return length >= KANA_MIN ? 1 : 0;
  if (ideographic(word)) return 0;
  return length >= 9 ? 2 : length >= 4 ? 1 : 0;
}

/** Rows of the distance table, reused: a query compares its word with every word of a vocabulary. */
let rows = [new Uint16Array(64), new Uint16Array(64), new Uint16Array(64)];

/**
 * The optimal string alignment distance of `a` and `b` (insertions, deletions, substitutions and
 * transpositions of neighbours, each 1), or `max + 1` as soon as it must exceed `max`. Only the
 * cells within `max` of the diagonal are worked out (a path leaving that band costs more).
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  const far = max + 1;
  if (rows[0]!.length < n + 2) rows = rows.map(() => new Uint16Array(2 * (n + 2)));
  let [before, previous, current] = rows as [Uint16Array, Uint16Array, Uint16Array];
  for (let j = 0; j <= Math.min(n, max); j++) previous[j] = j;
  if (max < n) previous[max + 1] = far;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(n, i + max);
    let least = far;
    if (lo === 1) least = current[0] = i;
    else current[lo - 1] = far;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cb = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < least) least = d;
    }
    if (hi < n) current[hi + 1] = far;
    if (least > max) return far;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[n]!, far);
}

/** Hangul syllables. */
const HANGUL = /^\p{Script=Hangul}+$/u;

/**
 * A Korean word without its particle or ending (바다에서, 바다는 -> 바다): the word less its last one
 * or two syllables, longest first, keeping one at least. Korean writes particles onto the word
 * before them; the index finds the longer words a word begins, so the bare word finds every form.
 */
export function withoutParticle(lang: string, word: string): string[] {
  if (lang !== 'ko' || !HANGUL.test(word)) return [];
  const syllables = [...word];
  return [1, 2].filter((n) => syllables.length - n >= 1).map((n) => syllables.slice(0, -n).join(''));
}
