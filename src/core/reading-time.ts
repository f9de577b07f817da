/**
 * Reading time, two ways.
 *
 * The API's `reading_time` is the contract's (DECISIONS.md): whole minutes, at least 1, words/230,
 * or characters/500 for zh, ja and ko. Clients compute and compare it, so it stays as fixed there.
 *
 * The reader's site shows an essay's length in its language's unit over that language's silent
 * reading rate (pageReadingTime), in whole minutes, at least 1. The rates are set so that one essay reads the same time in every language it is published in: the
 * reader's time follows the content, not the script. English reads at 230 words a minute (Brysbaert
 * 2019, "How many words do we read per minute?", Journal of Memory and Language 109, 104047: 238 for
 * silent reading of non-fiction; IReST below: 228 aloud). Every other rate is 230 times the units one
 * English word becomes in translation, measured over the demo corpus (12 essays and 2 pages: 64
 * translations of 11,600 English words), rounded to 5:
 *
 *   unit        per min   units per English word
 *   ar  word      190     0.82      fr  word   255   1.11      pt-br word   235   1.03
 *   de  word      230     1.01      hi  word   280   1.23      ru  word     200   0.88
 *   en  word      230     1         id  word   220   0.96      tr  word     185   0.80
 *   es  word      250     1.08      ko  word   175   0.76      vi  syllable 330   1.43
 *   ja  character 590     2.56      zh  character 420   1.82
 *
 * Korean counts its space-separated words (eojeol); Vietnamese writes one syllable between spaces, so
 * its units are syllables, about 1.4 to an English word. Japanese and Chinese count letters and digits.
 *
 * The published per-language rates of Trauzettel-Klosinski & Dietz 2012 (IReST, Investigative
 * Ophthalmology & Visual Science 53(9):5452, table 2: words/min ar 138, de 179, en 228, es 218, fr 195,
 * pt 181, ru 184, tr 166; characters/min zh 255, ja 357) are not used as they stand: they measure
 * reading aloud, and their matched texts run shorter against English than whole translations do (1.0
 * Chinese character to an English word there, 1.8 here). Applied to the demo corpus they give one essay
 * 4 minutes in English and 8 in Japanese; the rates above keep every essay within one minute.
 */
export type ReadingUnit = 'word' | 'character' | 'syllable';

export interface ReadingRate {
  unit: ReadingUnit;
  perMinute: number;
}

const word = (perMinute: number): ReadingRate => ({ unit: 'word', perMinute });
const character = (perMinute: number): ReadingRate => ({ unit: 'character', perMinute });

/** Silent reading rate by language code; a language not listed reads at the English rate. */
export const READING_RATES: Readonly<Record<string, ReadingRate>> = {
  ar: word(190),
  de: word(230),
  en: word(230),
  es: word(250),
  fr: word(255),
  hi: word(280),
  id: word(220),
  ja: character(590),
  ko: word(175),
  'pt-br': word(235),
  ru: word(200),
  tr: word(185),
  vi: { unit: 'syllable', perMinute: 330 },
  zh: character(420),
};

/** How many units of the kind a text holds: spaces delimit words and Vietnamese syllables. */
export function countUnits(text: string, unit: ReadingUnit): number {
  return (unit === 'character' ? text.match(/[\p{L}\p{N}]/gu) : text.match(/\S+/g))?.length ?? 0;
}

const minutes = (units: number, perMinute: number) => Math.max(1, Math.round(units / perMinute));

/** The API's reading_time, as DECISIONS.md fixes it. */
export function readingTime(text: string, lang: string): number {
  return ['zh', 'ja', 'ko'].includes(lang) ? minutes(countUnits(text, 'character'), 500) : minutes(countUnits(text, 'word'), 230);
}

/** The reader's site's estimate: the same essay reads about the same time in each of its languages. */
export function pageReadingTime(text: string, lang: string): number {
  const rate = READING_RATES[lang] ?? READING_RATES.en!;
  return minutes(countUnits(text, rate.unit), rate.perMinute);
}
