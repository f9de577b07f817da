import { apertium, isApertiumInstalled } from '../../src/translate/providers/apertium.ts';

/**
 * What the local provider servers translate with: the real Apertium engine for es, fr and pt-br
 * when it is installed, else a reversible pseudo-locale (vowels and a few consonants accented),
 * which changes every word a check could see and can be read back to the English exactly.
 */
const PSEUDO: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', c: 'ç', n: 'ñ', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', C: 'Ç', N: 'Ñ' };
const BACK = Object.fromEntries(Object.entries(PSEUDO).map(([k, v]) => [v, k]));

/** Only the words: tags and character references pass as they are. */
const onWords = (html: string, map: Record<string, string>) =>
  html.replace(/(<[^>]*>|&#?\w+;)|[^<&]+/g, (part, markup: string | undefined) => (markup ? part : part.replace(/[\s\S]/g, (c) => map[c] ?? c)));

/**
 * A letter of the target's script, for the languages not written in Latin letters: added as a last
 * word to each pseudo-localized text, so Folio's script check sees that language (unPseudo drops it).
 */
const SCRIPT_MARK: Record<string, string> = { ar: 'ع', hi: 'ह', ja: 'ア', ko: '한', zh: '中', ru: 'ж' };
const MARKED = new RegExp(` [${Object.values(SCRIPT_MARK).join('')}]$`);

/** A text with the target's script letter added, where the language has a script of its own. */
export const markScript = (text: string, lang?: string) => text + (lang && SCRIPT_MARK[lang] ? ` ${SCRIPT_MARK[lang]}` : '');

export const pseudoLocalize = (html: string, lang?: string) => markScript(onWords(html, PSEUDO), lang);
export const unPseudo = (html: string) => onWords(html.replace(MARKED, ''), BACK);

const APERTIUM = new Set(['es', 'fr', 'pt-br']);
const engine = isApertiumInstalled() ? apertium() : undefined;

/** HTML segments into a Folio language. */
export async function engineTranslate(html: readonly string[], lang: string): Promise<string[]> {
  if (engine && APERTIUM.has(lang)) return engine.translate(html, lang);
  return html.map((t) => pseudoLocalize(t, lang));
}
