import { fold } from '../search/encoders.ts';
import { language } from './languages.ts';

/**
 * Where a search's words appear in a text (a snippet), for a surface that marks them (the search
 * page's `<mark>`): the words of the text, cut by Intl.Segmenter, whose folded form begins with a
 * query term, as the index matches a term to the longer words it begins; in Chinese and Japanese,
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
  const ranges: [number, number][] = [];
  for (const { segment, index, isWordLike } of seg.segment(text)) {
    if (!isWordLike) continue;
    const word = fold(lang, segment);
    if (wanted.some((t) => word.startsWith(t))) ranges.push([index, index + segment.length]);
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
