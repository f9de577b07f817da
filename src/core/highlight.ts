import { fold } from '../search/encoders.ts';
import { editDistance, hasStemmer, stem, typoEdits } from '../search/word-forms.ts';
import { language } from './languages.ts';

/**
 * Where a search's words appear in a text (a snippet), for a surface that marks them (the search
 * page's `<mark>`): the words of the text, cut by Intl.Segmenter, that the index matches to a query
 * term (search-index.ts, formsOf): those whose folded form begins with it, has its stem (`walked`
 * for `walk`) or is a typo away from it (`tide` for `tidle`); in Chinese and Japanese,
 * where a term may lie inside a segmented word, the term's own characters. Ranges are [start, end)
 * in the text, in order, never overlapping.
 */
const INSIDE_WORDS = new Set(['zh', 'ja']);
const segmenters = new Map<string, Intl.Segmenter>();

export function matchedRanges(lang: string, text: string, terms: readonly string[]): [number, number][] {
  const wanted = terms.filter(Boolean);
  if (wanted.length === 0) return [];
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' })));
  const stems = hasStemmer(lang) ? wanted.map((t) => stem(lang, t)) : [];
  const typos = wanted.map((t) => typoEdits(t));
  const isForm = (word: string) =>
    wanted.some((t, i) => word.startsWith(t) || (typos[i]! > 0 && editDistance(word, t, typos[i]!) <= typos[i]!)) || (stems.length > 0 && stems.includes(stem(lang, word)));
  const ranges: [number, number][] = [];
  for (const { segment, index, isWordLike } of seg.segment(text)) {
    if (!isWordLike) continue;
    const word = fold(lang, segment);
    if (isForm(word)) ranges.push([index, index + segment.length]);
    else if (INSIDE_WORDS.has(lang)) {
      // Folding keeps CJK characters as they are, so positions in the word carry over.
      for (const t of wanted) {
        const at = word.indexOf(t);
        if (at > 0 && word.length === segment.length) ranges.push([index + at, index + at + t.length]);
      }
    }
  }
  return ranges.sort((a, b) => a[0] - b[0]).filter((r, i, all) => i === 0 || r[0] >= all[i - 1]![1]);
}
