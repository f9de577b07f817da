import { fold } from '../src/search/encoders.ts';
import { editDistance, hasStemmer, ideographic, stem } from '../src/search/word-forms.ts';

/**
 * A relevance test set made from the corpus itself, per language (issue 32): for each post, some of
 * its words in a form it does not hold and in a misspelled form, each with the posts a search must
 * find. Forms are never made up: an inflected form is another word of the corpus with the same
 * Snowball stem (so a real form, seen elsewhere), absent from the post; a typo is one deletion,
 * substitution or transposition of a word of 5 letters or more that makes no word of the corpus.
 * Queries are written as a reader types them: lower case, accents kept.
 */
export type Kind = 'exact' | 'inflected' | 'typo';

export interface RelevanceQuery {
  lang: string;
  kind: Kind;
  q: string;
  /** The slugs of the posts a search must find (up to 10 count for recall@10). */
  relevant: Set<string>;
}

export interface PostText {
  slug: string;
  text: string;
}

const PER_POST = 6;
const segmenters = new Map<string, Intl.Segmenter>();

/** The words of a text as written (lower case), by their folded form. */
function wordsOf(lang: string, locale: string, text: string): Map<string, string> {
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(locale, { granularity: 'word' })));
  const out = new Map<string, string>();
  for (const part of seg.segment(text)) {
    if (!part.isWordLike || /\d/.test(part.segment)) continue;
    const written = part.segment.toLocaleLowerCase(locale);
    const folded = fold(lang, written);
    if (folded && !out.has(folded)) out.set(folded, written);
  }
  return out;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;

const SCRIPTS = ['Latin', 'Cyrillic', 'Arabic', 'Devanagari', 'Hangul', 'Han', 'Hiragana', 'Katakana'].map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);
/** A letter's script: a typo puts a letter of the same script in its place (one a keyboard of the language types). */
const scriptOf = (c: string) => SCRIPTS.find(([, re]) => re.test(c))?.[0];

/** One random edit of `word`: a deletion, a substitution by a letter of `alphabet`, or two neighbours swapped. */
function typo(r: () => number, word: string, alphabet: readonly string[]): string {
  const cs = [...word];
  const at = Math.floor(r() * cs.length);
  const kind = Math.floor(r() * 3);
  if (kind === 0) cs.splice(at, 1);
  else if (kind === 1) cs[at] = pick(r, alphabet.filter((c) => c !== cs[at] && scriptOf(c) === scriptOf(cs[at]!)));
  else {
    const i = Math.min(at, cs.length - 2);
    [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
  }
  return cs.join('');
}

export function relevanceSet(lang: string, locale: string, posts: readonly PostText[], seed = 32): RelevanceQuery[] {
  const r = rng(seed + lang.length * 97 + lang.charCodeAt(0));
  const words = posts.map((p) => wordsOf(lang, locale, p.text));
  const vocabulary = new Set(words.flatMap((w) => [...w.keys()]));
  const alphabet = [...new Set([...vocabulary].join(''))].filter((c) => /\p{L}/u.test(c));
  const stems = new Map<string, Set<string>>();
  if (hasStemmer(lang)) for (const w of vocabulary) stems.set(stem(lang, w), (stems.get(stem(lang, w)) ?? new Set()).add(w));
  const holding = (test: (ws: Map<string, string>) => boolean) => new Set(posts.flatMap((p, i) => (test(words[i]!) ? [p.slug] : [])));
  const out: RelevanceQuery[] = [];
  posts.forEach((post, i) => {
    const own = [...words[i]!.entries()];
    // Words of 5 letters or more (the rule for one typo), written in letters alone.
    const letters = own.filter(([f]) => !ideographic(f) && /^[\p{L}\p{M}]+$/u.test(f) && [...f].length >= 5);
    for (let n = 0; n < PER_POST; n++) {
      const [folded, written] = pick(r, own.filter(([f]) => [...f].length >= 2));
      out.push({ lang, kind: 'exact', q: written, relevant: holding((ws) => ws.has(folded)) });
    }
    if (hasStemmer(lang)) {
      // Words of the post with another form elsewhere in the corpus that the post does not hold.
      const inflectable = letters.flatMap(([f]) => {
        const others = [...stems.get(stem(lang, f))!].filter((o) => !words[i]!.has(o));
        return others.length > 0 ? [[f, others] as const] : [];
      });
      for (let n = 0; n < Math.min(PER_POST, inflectable.length); n++) {
        const [folded, others] = pick(r, inflectable);
        const form = pick(r, others);
        const written = words.find((ws) => ws.has(form))!.get(form)!;
        const group = stems.get(stem(lang, folded))!;
        out.push({ lang, kind: 'inflected', q: written, relevant: holding((ws) => [...group].some((g) => ws.has(g))) });
      }
    }
    for (let n = 0, tries = 0; letters.length > 0 && n < PER_POST && tries < 100; tries++) {
      const [folded, written] = pick(r, letters);
      const misspelled = typo(r, written, alphabet);
      // One edit as the reader's text has it: a mark moved next to a letter it composes with is two.
      if (vocabulary.has(fold(lang, misspelled)) || editDistance(fold(lang, misspelled), folded, 1) > 1) continue;
      out.push({ lang, kind: 'typo', q: misspelled, relevant: holding((ws) => ws.has(folded)) });
      n++;
    }
  });
  return out;
}

/** Recall@10 (of the relevant posts, up to 10) and the reciprocal rank of the first relevant one in the top 10. */
export function scores(found: readonly string[], relevant: ReadonlySet<string>): { recall: number; rr: number } {
  const top = found.slice(0, 10);
  const hits = top.filter((s) => relevant.has(s)).length;
  const first = top.findIndex((s) => relevant.has(s));
  return { recall: relevant.size === 0 ? 1 : hits / Math.min(10, relevant.size), rr: first < 0 ? 0 : 1 / (first + 1) };
}
