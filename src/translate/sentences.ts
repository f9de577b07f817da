import { decodeInline, hasWords, MarkupError, renumber } from './inline-markup.ts';

/**
 * Segments as sentences, the memory's finer unit: a paragraph of five sentences whose English
 * changes in one sends that one (with the paragraph as context where the engine takes it), the
 * other four coming from the memory. Sentences are cut by the Unicode sentence rules (UAX #29,
 * `Intl.Segmenter` with granularity 'sentence', in the text's language), and only where no tag
 * is open: a link or emphasis that spans two sentences keeps them together. A piece without
 * letters ("2.", a lone placeholder) joins the next sentence.
 */

/** Languages that write sentences with no space between them. */
const UNSPACED = new Set(['zh', 'ja']);

export interface Sentence {
  /**
   * The sentence as tagged text with its own numbering: its links and placeholders are 1, 2, ... in
   * the order they first appear, so it reads the same wherever it stands (the memory's key, what is sent).
   */
  text: string;
  /** The segment's number of each of its own: slots[k - 1] for k. */
  slots: number[];
}

const TAG = /<(\/?)(?:em|strong|del|a|x)(?:\s+i="\d+")?\s*(\/?)>/gi;

const segmenters = new Map<string, Intl.Segmenter>();
const segmenterFor = (lang: string) => segmenters.get(lang) ?? segmenters.set(lang, new Intl.Segmenter(lang, { granularity: 'sentence' })).get(lang)!;

/** The offsets of a tagged text where a sentence may end: outside every tag and every open element. */
function closedAt(tagged: string): (offset: number) => boolean {
  const ranges: [number, number][] = [];
  let depth = 0;
  let at = 0;
  for (const m of tagged.matchAll(TAG)) {
    if (depth === 0) ranges.push([at, m.index]);
    if (m[1]) depth--;
    else if (!m[2]) depth++;
    at = m.index + m[0].length;
  }
  if (depth === 0) ranges.push([at, tagged.length]);
  return (offset) => ranges.some(([from, to]) => offset >= from && offset <= to);
}

/**
 * The tagged text as the sentence rules read it: tags left out (a placeholder read as one letter,
 * "X", where its code or term stands), and for each character its offset in the tagged text and
 * the offset just past it.
 */
function readable(tagged: string): { text: string; start: number[]; end: number[] } {
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  let at = 0;
  const chars = (to: number) => {
    for (; at < to; at++) {
      text += tagged[at];
      start.push(at);
      end.push(at + 1);
    }
  };
  for (const m of tagged.matchAll(TAG)) {
    chars(m.index);
    at = m.index + m[0].length;
    if (/^<x/i.test(m[0])) {
      text += 'X';
      start.push(m.index);
      end.push(at);
    }
  }
  chars(tagged.length);
  return { text, start, end };
}

/** The sentences of a tagged text as pieces of it (trimmed), in order; one piece when it is one sentence. */
export function splitSentences(tagged: string, lang: string): string[] {
  const { text, start, end } = readable(tagged);
  // Between two sentences' characters, the first place outside every tag: after a closing </em>, before an opening <em>.
  return cutAt(
    tagged,
    [...segmenterFor(lang).segment(text)].filter(({ index }) => index > 0).map(({ index }) => [end[index - 1]!, start[index]!]),
    !UNSPACED.has(lang),
  );
}

/**
 * A tagged text cut at the first place of each range where no tag is open; a cut inside a link or
 * emphasis is not made, nor (in a language that spaces its sentences) one with no space beside it
 * (`<em>Stop. </em>Go`: joined again with a space, the text would change), and a piece too little
 * to stand alone ("2.", a placeholder) joins what follows.
 */
function cutAt(tagged: string, ranges: readonly [number, number][], spaced = true): string[] {
  const closed = closedAt(tagged);
  const pieces: string[] = [];
  let from = 0;
  for (const [low, high] of ranges) {
    let cut = -1;
    for (let p = low; p <= high && cut < 0; p++) if (closed(p)) cut = p;
    if (cut <= from || !hasWords(tagged.slice(from, cut)) || (spaced && !/\s/.test(tagged[cut - 1] ?? '') && !/\s/.test(tagged[cut] ?? ''))) continue;
    pieces.push(tagged.slice(from, cut));
    from = cut;
  }
  const rest = tagged.slice(from);
  if (pieces.length && !hasWords(rest)) pieces[pieces.length - 1] += rest;
  else pieces.push(rest);
  return pieces.length === 1 ? [tagged] : pieces.map((p) => p.trim());
}

/** A sentence's end: its full stop, question or exclamation mark (and a closing quote, bracket or tag), then a space; or a CJK full stop. */
const STOPS = /[.!?]+["'”’»)\]]*(?:<\/(?:em|strong|del|a)>)*\s+|[。！？]+(?:<\/(?:em|strong|del|a)>)*/g;

/** Numbers in a tagged text, each once, in order. */
const numbersIn = (tagged: string) => [...new Set([...tagged.matchAll(/<(?:a|x) i="(\d+)"/g)].map((m) => Number(m[1])))];

/** An English segment's sentences, each with its own numbering. */
export function sentencesOf(tagged: string): Sentence[] {
  return splitSentences(tagged, 'en').map((piece) => {
    const slots = numbersIn(piece);
    return { text: renumber(piece, (n) => slots.indexOf(n) + 1), slots };
  });
}

/** A sentence's translation (its own numbering) in the segment's numbering. */
export const inSegment = (sentence: Sentence, translation: string) => renumber(translation, (k) => sentence.slots[k - 1] ?? 0);

/** The translations of a segment's sentences, in the segment's numbering, as one segment in the language. */
export const joinSentences = (sentences: readonly Sentence[], translations: readonly string[], lang: string) =>
  translations.map((t, k) => inSegment(sentences[k]!, t)).join(UNSPACED.has(lang) ? '' : ' ');

/** Why a sentence's translation cannot be used (its tags: each of its placeholders once, every tag closed), or undefined. */
export function sentenceProblem(sentence: Sentence, translation: string): string | undefined {
  try {
    decodeInline(translation, sentence.slots.map(() => ({ type: 'text', value: '' })));
    return undefined;
  } catch (e) {
    if (e instanceof MarkupError) return e.message;
    throw e;
  }
}

/**
 * A whole segment's translation cut into the translations of its English sentences, each in the
 * sentence's own numbering; undefined unless the language's sentence rules cut it into as many
 * sentences holding the same links and placeholders, in order (then the pairs are surely the same sentences).
 */
export function alignSentences(sentences: readonly Sentence[], translation: string, lang: string): string[] | undefined {
  if (sentences.length < 2) return undefined;
  let pieces = splitSentences(translation, lang);
  // The language's rules found another number (a sentence beginning in lower case, as some engines write): cut after every full stop instead.
  if (pieces.length !== sentences.length) pieces = cutAt(translation, [...translation.matchAll(STOPS)].map((m) => [m.index + m[0].length, m.index + m[0].length]));
  if (pieces.length !== sentences.length) return undefined;
  const out: string[] = [];
  for (const [k, piece] of pieces.entries()) {
    const slots = sentences[k]!.slots;
    const found = numbersIn(piece);
    if (found.length !== slots.length || found.some((n) => !slots.includes(n))) return undefined;
    out.push(renumber(piece, (n) => slots.indexOf(n) + 1));
  }
  return out;
}
