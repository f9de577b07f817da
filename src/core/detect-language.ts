import { tokens } from '../search/encoders.ts';
import { stopWords } from './stopwords.ts';

/**
 * The language of a short query: the script decides for non-Latin text; for Latin text,
 * letters only some languages use, then stop-word evidence, then English.
 */
const SCRIPTS: [RegExp, string][] = [
  [/[\u3040-\u30ff]/, 'ja'],
  [/[\uac00-\ud7af\u1100-\u11ff]/, 'ko'],
  [/[\u4e00-\u9fff]/, 'zh'],
  [/[\u0600-\u06ff]/, 'ar'],
  [/[\u0900-\u097f]/, 'hi'],
  [/[\u0400-\u04ff]/, 'ru'],
];
const MARKERS: [RegExp, string][] = [
  [/[ơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i, 'vi'],
  [/[ğışİ]/, 'tr'],
  [/[ß]|\b(der|die|das|und|ist|nicht|warum|wie)\b/i, 'de'],
  [/[ãõ]/i, 'pt-br'],
  [/[ñ¿¡]/i, 'es'],
  [/[èêëàâçœ]|\b(le|les|des|est|pourquoi|comment)\b/i, 'fr'],
];
const LATIN = ['en', 'es', 'fr', 'de', 'pt-br', 'id', 'tr', 'vi'];

export function detectLanguage(text: string): string {
  for (const [re, lang] of SCRIPTS) if (re.test(text)) return lang;
  for (const [re, lang] of MARKERS) if (re.test(text)) return lang;
  let best = 'en';
  let bestScore = 0;
  for (const lang of LATIN) {
    const score = tokens(lang, text).filter((t) => stopWords(lang).has(t)).length;
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return best;
}
