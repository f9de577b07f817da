import { language } from '../core/languages.ts';
import { fold, SPLIT, tokens } from './encoders.ts';
import { ideographic, isKana, KANA_MIN } from './word-forms.ts';

/**
 * What a query asks for, unit by unit (README, "What search matches"): a post holds a unit or
 * lacks it, and posts are ranked first by how many units they lack. In languages written with
 * spaces a unit is a word. In Chinese and Japanese it is what the reader wrote together (between
 * spaces or punctuation), which the segmenter may cut into several words: the unit needs them all,
 * and the single characters it cut an unknown compound into (比特腐烂: 比 特 腐烂) written together,
 * not anywhere (each character alone is in most essays).
 */
export interface QueryUnit {
  /** The unit as typed, in lower case: how an answer names a unit a post lacks. */
  name: string;
  /** The unit as typed (a suggestion keeps the words it does not change so). */
  typed: string;
  /** Its words, folded: a post holds the unit when it holds every one (in some form). */
  tokens: string[];
  /** Chinese and Japanese: runs of two or more single characters, each of which a post must hold written together. */
  runs: string[];
  /** Japanese: kana written together (KANA_MIN or more) that the segmenter cut; a post holding them one kana off holds the unit when none holds them exactly. */
  kana?: string;
}

const SEGMENTED = new Set(['zh', 'ja']);

/** Text without a character beyond ASCII: most queries (no normalising, no locale). */
const ASCII = /^[\x00-\x7f]*$/;

export function queryUnits(lang: string, text: string): QueryUnit[] {
  const ascii = ASCII.test(text);
  // Only Turkish lowers by its locale (İ, I); any other language lowers the same without one, faster.
  const lower = (s: string) => (lang === 'tr' && !ascii ? s.toLocaleLowerCase(language(lang).locale) : s.toLowerCase());
  const out: QueryUnit[] = [];
  const seen = new Set<string>();
  const add = (unit: QueryUnit) => {
    const key = unit.tokens.join(' ');
    if (unit.tokens.length === 0 || seen.has(key)) return;
    seen.add(key);
    out.push(unit);
  };
  for (const chunk of (ascii ? text : text.normalize('NFC')).split(SPLIT)) {
    if (!chunk) continue;
    const words = tokens(lang, chunk);
    const name = lower(chunk);
    if (!SEGMENTED.has(lang)) {
      for (const word of words) add({ name: words.length === 1 ? name : word, typed: words.length === 1 ? chunk : word, tokens: [word], runs: [] });
      continue;
    }
    const runs: string[] = [];
    let run = '';
    for (const word of [...words, '']) {
      if ([...word].length === 1 && ideographic(word)) run += word;
      else {
        if ([...run].length >= 2) runs.push(run);
        run = '';
      }
    }
    const folded = fold(lang, chunk);
    const kana = lang === 'ja' && words.length > 1 && isKana(folded) && [...folded].length >= KANA_MIN ? folded : undefined;
    add({ name, typed: chunk, tokens: [...new Set(words)], runs, ...(kana ? { kana } : {}) });
  }
  return out;
}

/**
 * Whether `text` holds a string at most one edit (insertion, deletion, substitution) from
 * `pattern`. One edit leaves one half of the pattern whole, so only the text around an occurrence
 * of either half is compared (a native search, then Sellers' approximate matching over a window
 * of a few characters: a column of the edit table per character).
 */
export function holdsNear(text: string, pattern: string): boolean {
  const half = pattern.length >> 1;
  for (const part of [pattern.slice(0, half), pattern.slice(half)]) {
    if (!part) continue;
    for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      if (nearIn(text.slice(Math.max(0, at - pattern.length - 1), at + 2 * pattern.length + 1), pattern)) return true;
    }
  }
  return false;
}

function nearIn(text: string, pattern: string): boolean {
  const p = [...pattern];
  const m = p.length;
  let previous = Array.from({ length: m + 1 }, (_, i) => i);
  let current = new Array<number>(m + 1);
  for (const c of text) {
    current[0] = 0;
    for (let i = 1; i <= m; i++) current[i] = Math.min(previous[i]! + 1, current[i - 1]! + 1, previous[i - 1]! + (p[i - 1] === c ? 0 : 1));
    if (current[m]! <= 1) return true;
    [previous, current] = [current, previous];
  }
  return false;
}
