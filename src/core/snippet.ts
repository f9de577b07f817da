import { fold } from '../search/encoders.ts';
import { language } from './languages.ts';

/**
 * Plain text around the best match, cut on word boundaries (Intl.Segmenter, so CJK and
 * Devanagari are never split inside a word or cluster), with ellipses where cut.
 */
const CHARACTER_SCRIPTS = new Set(['zh', 'ja', 'ko']);
const segmenters = new Map<string, Intl.Segmenter>();

function boundaries(lang: string, text: string): number[] {
  let seg = segmenters.get(lang);
  if (!seg) segmenters.set(lang, (seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' })));
  const out = [0];
  for (const part of seg.segment(text)) out.push(part.index + part.segment.length);
  return out;
}

/** Position in `text` of the first occurrence of the longest term found, comparing folded forms. */
function matchAt(lang: string, text: string, terms: readonly string[]): number {
  const folded: string[] = [];
  const origin: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    for (const unit of fold(lang, ch)) {
      folded.push(unit);
      origin.push(i);
    }
    i += ch.length;
  }
  const haystack = folded.join('');
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const at = haystack.indexOf(term);
    if (at >= 0) return origin[at]!;
  }
  return -1;
}

export function snippet(lang: string, text: string, terms: readonly string[]): string {
  const wide = !CHARACTER_SCRIPTS.has(lang);
  const size = wide ? 200 : 90;
  const lead = wide ? 60 : 25;
  if (text.length <= size) return text;
  const at = Math.max(0, matchAt(lang, text, terms));
  const wantStart = Math.max(0, Math.min(at - lead, text.length - size));
  const cuts = boundaries(lang, text);
  const start = wantStart === 0 ? 0 : cuts.filter((b) => b <= wantStart).pop() ?? 0;
  const end = cuts.find((b) => b >= start + size) ?? text.length;
  const body = text.slice(start, end).trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
