import type { PhrasingContent } from 'mdast';
import { unified } from 'unified';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';

/**
 * A block's inline content as the text a translation engine reads: words as they are, emphasis as
 * `<em>`/`<strong>`/`<del>`, a link as `<a i="n">anchor</a>` (its URL stays here, in slot n), and
 * everything that must not be translated (inline code, inline HTML, images, line breaks, footnote
 * references, the glossary's do-not-translate terms) as an empty `<x i="n"></x>`. Every engine Folio speaks keeps tags whole (DeepL's
 * tag_handling, Google's and LibreTranslate's HTML mode, Apertium's html format), so the structure
 * travels beside the words and comes back checkable.
 */
export interface Tagged {
  text: string;
  /** Slot n (1-based) is slots[n - 1]: a link without its children, or a node kept whole. */
  slots: PhrasingContent[];
}

const WRAPPERS = { emphasis: 'em', strong: 'strong', delete: 'del' } as const;
const BY_TAG = { em: 'emphasis', strong: 'strong', del: 'delete' } as const;

export const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
export const unescapeText = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** A URL or an e-mail address in text: never sent to an engine (a placeholder holds it), and checked unchanged in what comes back. */
export const URL_OR_EMAIL = /\b(?:https?:\/\/|www\.)[^\s<>"']*[^\s<>"'.,;:!?)\]]|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/gu;
/** The words of tagged text as a reader reads them: tags as spaces, entities as their characters. */
export const wordsOf = (tagged: string) => unescapeText(tagged.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim());

/**
 * Has the tagged text any words worth sending: letters outside tags, URLs and e-mail addresses?
 * A number, a URL or code alone (a table cell of figures) needs no translation and is not sent.
 */
export const hasWords = (tagged: string) => /\p{L}/u.test(unescapeText(tagged.replace(/<[^>]*>/g, ' ')).replace(URL_OR_EMAIL, ' '));
const URL_SPLIT = new RegExp(`(${URL_OR_EMAIL.source})`, 'u');
const ONLY_URL = new RegExp(`^\\s*(?:${URL_OR_EMAIL.source})\\s*$`, 'u');

/**
 * Text with URLs, e-mail addresses and the glossary's do-not-translate terms (`protect`, one
 * capturing group: see glossary.ts) as empty placeholders holding the literal text, so no engine
 * can change them.
 */
function protectedText(value: string, protect: RegExp | undefined, slots: PhrasingContent[]): string {
  const kept = (part: string) => {
    slots.push({ type: 'text', value: part });
    return `<x i="${slots.length}"></x>`;
  };
  // split() with one capturing group: the kept parts are at the odd indexes.
  const terms = (text: string) => (protect ? text.split(protect).map((part, i) => (i % 2 === 0 ? escapeText(part) : kept(part))).join('') : escapeText(text));
  return value
    .split(URL_SPLIT)
    .map((part, i) => (i % 2 === 0 ? terms(part) : kept(part)))
    .join('');
}

/** The words of inline nodes, as a reader sees them. */
const plainOf = (nodes: readonly PhrasingContent[]): string => nodes.map((n) => (n.type === 'text' || n.type === 'inlineCode' ? n.value : 'children' in n ? plainOf(n.children as PhrasingContent[]) : '')).join('');

/** Inline nodes as tagged text. A soft line break is a space: the engine sees one sentence. */
export function encodeInline(nodes: readonly PhrasingContent[], protect?: RegExp): Tagged {
  const slots: PhrasingContent[] = [];
  const walk = (list: readonly PhrasingContent[]): string =>
    list
      .map((node) => {
        if (node.type === 'text') return protectedText(node.value.replace(/[ \t]*\n[ \t]*/g, ' '), protect, slots);
        if (node.type === 'emphasis' || node.type === 'strong' || node.type === 'delete') {
          const tag = WRAPPERS[node.type];
          return `<${tag}>${walk(node.children)}</${tag}>`;
        }
        // A link that reads as its own URL or address (an autolink) is kept whole: there is nothing in it to translate.
        if (node.type === 'link' && ONLY_URL.test(plainOf(node.children))) {
          slots.push(node);
          return `<x i="${slots.length}"></x>`;
        }
        if (node.type === 'link' || node.type === 'linkReference') {
          slots.push({ ...node, children: [] });
          return `<a i="${slots.length}">${walk(node.children)}</a>`;
        }
        slots.push(node);
        return `<x i="${slots.length}"></x>`;
      })
      .join('');
  return { text: walk(nodes), slots };
}

/** A text without markup (a title, an alt text) as tagged text: only its protected terms are placeholders. */
export function encodePlain(value: string, protect?: RegExp): Tagged {
  const slots: PhrasingContent[] = [];
  return { text: protectedText(value, protect, slots), slots };
}

/** Tagged text of a plain text back to its string: anything but words and its term placeholders is a MarkupError. */
export function decodePlain(text: string, slots: readonly PhrasingContent[]): string {
  const nodes = decodeInline(text, slots);
  if (nodes.some((n) => n.type !== 'text')) throw new MarkupError('markup in a text that has none');
  return nodes.map((n) => (n as { value: string }).value).join('');
}

export class MarkupError extends Error {}

/** Tagged text with its links' and placeholders' numbers changed (`to(n)`): emphasis has none. */
export const renumber = (tagged: string, to: (n: number) => number) => tagged.replace(/(<(?:a|x) i=")(\d+)"/g, (_, head: string, n: string) => `${head}${to(Number(n))}"`);

const TAG = /<(\/?)(em|strong|del|a|x)(?:\s+i="(\d+)")?\s*(\/?)>/gi;

/**
 * Engines that move words around split a link they cannot keep whole: `<a i="1">podredumbre</a> de
 * <a i="1">enlace</a>` (Apertium, "link rot"). Pieces of one link with only words between them are
 * joined back into one anchor.
 */
export function joinSplitLinks(text: string): string {
  const split = /<a i="(\d+)">((?:(?!<\/?a[\s>])[\s\S])*)<\/a>([^<]*)<a i="\1">/;
  let joined = text;
  while (split.test(joined)) joined = joined.replace(split, '<a i="$1">$2$3');
  return joined;
}

/**
 * Tagged text back to inline nodes, with every slot used exactly once and every tag closed in
 * order; anything else (a placeholder dropped, doubled or invented, a tag the engine broke) is a
 * MarkupError naming it.
 */
export function decodeInline(text: string, slots: readonly PhrasingContent[]): PhrasingContent[] {
  const root: PhrasingContent[] = [];
  const stack: { tag: string; children: PhrasingContent[]; node?: PhrasingContent }[] = [{ tag: '', children: root }];
  const used = new Set<number>();
  const slot = (i: string | undefined) => {
    const n = Number(i);
    if (!i || !slots[n - 1]) throw new MarkupError(`a placeholder that is not in the source (i="${i ?? ''}")`);
    if (used.has(n)) throw new MarkupError(`placeholder ${n} appears twice`);
    used.add(n);
    return slots[n - 1]!;
  };
  // A protected term's slot is a text node: it joins the words beside it, as one text node.
  const push = (node: PhrasingContent) => {
    const children = stack.at(-1)!.children;
    const last = children.at(-1);
    if (node.type === 'text' && last?.type === 'text') children[children.length - 1] = { type: 'text', value: last.value + node.value };
    else children.push(node);
  };
  const addText = (raw: string) => {
    if (!raw) return;
    const value = unescapeText(raw);
    if (/[<>]/.test(raw)) throw new MarkupError(`a broken tag in "${raw.slice(0, 40)}"`);
    push({ type: 'text', value });
  };
  text = joinSplitLinks(text);
  let at = 0;
  for (const m of text.matchAll(TAG)) {
    addText(text.slice(at, m.index));
    at = m.index + m[0].length;
    const [, closing, rawTag, id, selfClosing] = m;
    const tag = rawTag!.toLowerCase();
    if (closing) {
      const open = stack.pop()!;
      if (stack.length === 0 || open.tag !== tag) throw new MarkupError(`</${tag}> closes <${open.tag || 'nothing'}>`);
      if (tag === 'x') {
        if (open.children.some((c) => c.type !== 'text' || c.value.trim())) throw new MarkupError('words inside a placeholder');
        continue;
      }
      push(open.node ? ({ ...open.node, children: open.children } as PhrasingContent) : ({ type: BY_TAG[tag as keyof typeof BY_TAG], children: open.children } as PhrasingContent));
      continue;
    }
    if (tag === 'x') {
      push(slot(id));
      if (!selfClosing) stack.push({ tag, children: [] });
      continue;
    }
    stack.push({ tag, children: [], ...(tag === 'a' ? { node: slot(id) } : {}) });
  }
  addText(text.slice(at));
  if (stack.length !== 1) throw new MarkupError(`<${stack.at(-1)!.tag}> is never closed`);
  const missing = slots.map((_, i) => i + 1).filter((n) => !used.has(n));
  if (missing.length) throw new MarkupError(`placeholder${missing.length > 1 ? 's' : ''} ${missing.join(', ')} dropped`);
  return root;
}

const markdown = unified().use(remarkStringify, { bullet: '-', emphasis: '*', strong: '*', rule: '-' }).use(remarkGfm);

/** Inline nodes as Markdown, as they would be written in a paragraph. */
export function inlineMarkdown(nodes: PhrasingContent[]): string {
  if (nodes.length === 0) return '';
  return markdown.stringify({ type: 'root', children: [{ type: 'paragraph', children: nodes }] }).replace(/\n$/, '');
}
