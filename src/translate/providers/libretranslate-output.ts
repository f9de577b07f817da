import { escapeText } from '../inline-markup.ts';

/**
 * What LibreTranslate's HTML mode does to tagged text, undone before the checks see it. Its server
 * translates each text run between tags on its own (argos-translate's translate_tags), so a space
 * beside a tag can go with the run, and it sends the result through Python's html.unescape, so
 * `&lt;` and `&amp;` in the words come back as bare `<` and `&`. The checks stay as strict as for
 * every other engine; only what this engine is known to do is repaired, and only here.
 */
const TAG = /<(\/?)([a-z][a-z0-9]*)\b[^<>]*?(\/?)>/gi;

/** Every tag that is markup and not words: exactly the tags the source had; anything else is text to escape again. */
export function escapeAgain(source: string, translated: string): string {
  const ours = new Set(source.match(TAG) ?? []);
  return translated
    .split(/(<[^<>]*>)/)
    .map((part, i) => (i % 2 === 1 && ours.has(part) ? part : escapeText(part)))
    .join('');
}

interface PlacedTag {
  /** The tag and which of its kind it is; a closing tag is named by the opening it closes. */
  key: string;
  start: number;
  end: number;
}

function placedTags(text: string): PlacedTag[] {
  const out: PlacedTag[] = [];
  const seen = new Map<string, number>();
  const open: { name: string; key: string }[] = [];
  for (const m of text.matchAll(TAG)) {
    const [whole, closing, rawName, selfClosing] = m;
    const name = rawName!.toLowerCase();
    let key: string;
    if (closing) key = open.at(-1)?.name === name ? `/${open.pop()!.key}` : `${whole}#unpaired`;
    else {
      const n = (seen.get(whole) ?? 0) + 1;
      seen.set(whole, n);
      key = `${whole}#${n}`;
      if (!selfClosing) open.push({ name, key });
    }
    out.push({ key, start: m.index, end: m.index + whole.length });
  }
  return out;
}

/** Languages written without spaces between words: a space restored there would be a new one. */
const UNSPACED = new Set(['zh', 'ja']);
const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
/** Punctuation a space never follows (an opening) or precedes (a closing). */
const OPENING = /[([{"'“‘«¿¡]/;
const CLOSING = /[)\]}"'”’»,.;:!?…]/;

/**
 * Whether the translation wants a space between a tag and the character beside it (`beside`),
 * given what was beside the same tag in the English (`english`): a word glued to a tag the English
 * did not glue to a word, or anything but punctuation where the English had a space.
 */
function wantsSpace(english: string | undefined, beside: string | undefined, side: 'before' | 'after'): boolean {
  if (beside === undefined || SPACE.test(beside) || beside === '<' || beside === '>') return false;
  if (WORD.test(beside)) return !WORD.test(english ?? '');
  return SPACE.test(english ?? '') && !(side === 'before' ? OPENING : CLOSING).test(beside);
}

/**
 * Puts back the spaces the engine lost beside tags (`palabra<a i="1">enlace</a>y`, `</a><a i="1">`
 * where it split a link), and drops one it put between a tag and punctuation where the English
 * had none (`</a> ,`). Tags are matched to the English ones by kind and order.
 */
export function restoreTagSpacing(source: string, translated: string, lang: string): string {
  if (UNSPACED.has(lang)) return translated;
  const edges = new Map(placedTags(source).map((t) => [t.key, { before: source[t.start - 1], after: source[t.end] }]));
  const tags = placedTags(translated);
  // A tag the engine repeated (a link split in two) stands where the first of its kind stood.
  const edgeOf = (t: PlacedTag) => edges.get(t.key) ?? edges.get(t.key.replace(/#\d+$/, '#1'));
  let out = translated;
  for (let k = tags.length - 1; k >= 0; k--) {
    const tag = tags[k]!;
    const edge = edgeOf(tag);
    if (!edge) continue;
    const next = tags[k + 1]?.start === tag.end ? tags[k + 1] : undefined;
    const splitLink = next && /^\/<a i="(\d+)">/.test(tag.key) && next.key.startsWith(tag.key.slice(1).replace(/#\d+$/, '#'));
    const spaceAfter = next ? splitLink || (SPACE.test(edge.after ?? '') && SPACE.test(edgeOf(next)?.before ?? '')) : wantsSpace(edge.after, out[tag.end], 'after');
    if (spaceAfter) out = `${out.slice(0, tag.end)} ${out.slice(tag.end)}`;
    else if (!SPACE.test(edge.after ?? '') && /^\s+[,.;:!?)]/.test(out.slice(tag.end))) out = out.slice(0, tag.end) + out.slice(tag.end).trimStart();
    if (wantsSpace(edge.before, out[tag.start - 1], 'before')) out = `${out.slice(0, tag.start)} ${out.slice(tag.start)}`;
  }
  return out;
}
