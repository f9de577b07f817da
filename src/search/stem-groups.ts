import { stem } from './word-forms.ts';

/** The first position in `sorted` (by code unit) whose word is not below `word`: where it is, or would be. */
export function lowerBound(sorted: readonly string[], word: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The vocabulary's words grouped by stem, as the build writes them (`{lang}.stems.json`): the
 * distinct stems, sorted, and per vocabulary word the position of its stem. Stemming is the costly
 * part (a few µs a word): the build does it once per word, and a query stems only a word the
 * vocabulary does not hold.
 */
export interface StemTable {
  stems: string[];
  of: number[];
}

export function stemTable(lang: string, vocabulary: readonly string[]): StemTable {
  const each = vocabulary.map((w) => stem(lang, w));
  const stems = [...new Set(each)].sort();
  const at = new Map(stems.map((s, i) => [s, i]));
  return { stems, of: each.map((s) => at.get(s)!) };
}

/** The stem table read for queries: each stem's words, made on first use by one counting pass. */
export interface StemGroups {
  /** The stem of the vocabulary word at `position`. */
  stemAt(position: number): number;
  /** The position of `stem` among the stems, or -1. */
  find(stem: string): number;
  /** Vocabulary positions of the words of the stem at `s`, ascending. */
  words(s: number): Uint32Array;
}

export function stemGroups({ stems, of }: StemTable): StemGroups {
  let starts: Uint32Array | undefined;
  let members: Uint32Array | undefined;
  const index = () => {
    starts = new Uint32Array(stems.length + 1);
    for (const s of of) starts[s + 1]!++;
    for (let s = 0; s < stems.length; s++) starts[s + 1]! += starts[s]!;
    const fill = starts.slice(0, stems.length);
    members = new Uint32Array(of.length);
    of.forEach((s, position) => (members![fill[s]!++] = position));
  };
  return {
    stemAt: (position) => of[position]!,
    find(word) {
      const at = lowerBound(stems, word);
      return stems[at] === word ? at : -1;
    },
    words(s) {
      if (!members) index();
      return members!.subarray(starts![s]!, starts![s + 1]!);
    },
  };
}
