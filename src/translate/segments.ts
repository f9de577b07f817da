import type { Html, Image, Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { bodyLineOffset } from '../pipeline/load/body-line.ts';
import { decodeInline, decodePlain, encodeInline, encodePlain, hasWords, inlineMarkdown, MarkupError, unescapeText, type Tagged } from './inline-markup.ts';

/** What a translation is made of: the English front matter's words and the Markdown body. */
export interface DocumentText {
  title: string;
  summary?: string;
  /** The front matter's `featured_image_alt`: the cover image's alt text. */
  featuredImageAlt?: string;
  body: string;
  /** The lines of the file before its body (the front matter's), so messages count from the file's first line. */
  bodyLine?: number;
}

/** A post file's words as its loader (with the file's `raw` text) or gray-matter reads its front matter, with its body. */
export const documentText = (front: { title?: unknown; summary?: unknown; featured_image_alt?: unknown; raw?: string }, body: string): DocumentText => ({
  title: String(front.title),
  ...(front.summary == null ? {} : { summary: String(front.summary) }),
  ...(front.featured_image_alt == null ? {} : { featuredImageAlt: String(front.featured_image_alt) }),
  body,
  ...(front.raw === undefined ? {} : { bodyLine: bodyLineOffset(front.raw, body) }),
});

export interface Segment {
  /** Tagged text (see inline-markup.ts): what is sent, and what a memory is keyed by. */
  text: string;
  /** Where it comes from, for messages: `title`, `paragraph at line 12`, `image alt at line 20`. */
  where: string;
}

export interface SegmentOptions {
  /** The glossary's do-not-translate terms (glossary.ts), sent as placeholders holding the term. */
  protect?: RegExp;
}

export interface SegmentedDocument {
  segments: Segment[];
  /** Why a translation of segment i cannot be used as it is (its markup), or undefined. */
  problem(i: number, translation: string): string | undefined;
  /**
   * The document with segment i replaced by translations[i] (undefined keeps the English). Blocks
   * whose words did not change keep their source bytes, unless `rewrite` (for round-trip checks).
   */
  rebuild(translations: readonly (string | undefined)[], options?: { rewrite?: boolean }): DocumentText;
  /** What segment i's placeholders stand for (slot n is slots(i)[n - 1]): for exchange formats that carry the Markdown beside the words. */
  slots(i: number): readonly PhrasingContent[];
}

const parser = unified().use(remarkParse).use(remarkGfm);

export const parseMarkdown = (body: string): Root => parser.parse(body) as Root;

interface Block {
  start: number;
  end: number;
  tagged: Tagged;
  segment?: number;
  /** What continues a line of this block (a quote's `> `, a list item's indent), for hard breaks. */
  prefix: string;
  table: boolean;
  images: { node: Image; alt?: number; title?: number }[];
}

interface Attribute {
  start: number;
  end: number;
  quote: string;
  segment: number;
}

const TRANSLATABLE_BLOCKS = new Set(['paragraph', 'heading', 'tableCell']);
const HTML_ATTRIBUTE = /\s(title|alt)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

function imagesIn(nodes: readonly PhrasingContent[], out: Image[] = []): Image[] {
  for (const node of nodes) {
    if (node.type === 'image') out.push(node);
    else if ('children' in node) imagesIn(node.children as PhrasingContent[], out);
  }
  return out;
}

/**
 * One segment per paragraph, heading, list-item or quote paragraph and table cell; one per image
 * `alt` and `title` and per `title`/`alt` attribute of raw HTML; the front matter's title, summary
 * and cover alt text first. Code, URLs, raw HTML bodies and do-not-translate terms are never sent.
 * The memory keys a segment by its text, never its place: a segment added (a cover alt) leaves
 * every other segment's memory as it was.
 */
export function segmentDocument(doc: DocumentText, options: SegmentOptions = {}): SegmentedDocument {
  const segments: Segment[] = [];
  /** A plain segment (no markup but its protected terms) -> its slots. */
  const plain = new Map<number, Tagged['slots']>();
  const add = (text: string, where: string) => {
    segments.push({ text, where });
    return segments.length - 1;
  };
  const addPlain = (value: string, where: string) => {
    const tagged = encodePlain(value, options.protect);
    const at = add(tagged.text, where);
    plain.set(at, tagged.slots);
    return at;
  };
  const titleAt = addPlain(doc.title, 'title');
  const summaryAt = doc.summary === undefined ? undefined : addPlain(doc.summary, 'summary');
  const coverAltAt = doc.featuredImageAlt !== undefined && hasWords(doc.featuredImageAlt) ? addPlain(doc.featuredImageAlt, 'featured_image_alt') : undefined;

  const body = doc.body;
  const lines = body.split('\n');
  // A line as the author's editor counts it: from the file's first line, front matter included.
  const fileLine = (bodyLine: number) => bodyLine + (doc.bodyLine ?? 0);
  const blocks: Block[] = [];
  const attributes: Attribute[] = [];
  const blockOf = new Map<number, Block>();

  const visit = (node: Nodes, inTable: boolean) => {
    if (TRANSLATABLE_BLOCKS.has(node.type)) {
      const children = (node as Parent).children as PhrasingContent[];
      const first = children[0]?.position;
      const last = children.at(-1)?.position;
      if (!first || !last) return;
      const line = node.position!.start.line;
      const block: Block = {
        start: first.start.offset!,
        end: last.end.offset!,
        tagged: encodeInline(children, options.protect),
        prefix: (lines[line] ?? '').slice(0, node.position!.start.column - 1),
        table: inTable,
        images: [],
      };
      if (hasWords(block.tagged.text)) {
        block.segment = add(block.tagged.text, `${node.type === 'tableCell' ? 'table cell' : node.type} at line ${fileLine(line)}`);
        blockOf.set(block.segment, block);
      }
      for (const image of imagesIn(children)) {
        const at = `image at line ${fileLine(image.position?.start.line ?? line)}`;
        block.images.push({
          node: image,
          ...(image.alt && hasWords(image.alt) ? { alt: addPlain(image.alt, `${at}: alt`) } : {}),
          ...(image.title && hasWords(image.title) ? { title: addPlain(image.title, `${at}: title`) } : {}),
        });
      }
      blocks.push(block);
      return;
    }
    if (node.type === 'html') {
      const html = node as Html;
      for (const m of html.value.matchAll(HTML_ATTRIBUTE)) {
        const value = m[2] ?? m[3] ?? '';
        if (!hasWords(value)) continue;
        const start = html.position!.start.offset! + m.index + m[0].length - value.length - 1;
        attributes.push({ start, end: start + value.length, quote: m[2] !== undefined ? '"' : "'", segment: addPlain(unescapeText(value), `HTML ${m[1]} at line ${fileLine(html.position!.start.line)}`) });
      }
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child as Nodes, inTable || node.type === 'table');
  };
  visit(parseMarkdown(body), false);

  /** The text a translated plain segment stands for. */
  const plainValue = (i: number, translation: string) => decodePlain(translation, plain.get(i)!);
  const problem = (i: number, translation: string): string | undefined => {
    const block = blockOf.get(i);
    if (!block && !plain.has(i)) return undefined;
    try {
      if (block) decodeInline(translation, block.tagged.slots);
      else plainValue(i, translation);
      return undefined;
    } catch (e) {
      if (e instanceof MarkupError) return e.message;
      throw e;
    }
  };

  const rebuild = (translations: readonly (string | undefined)[], options: { rewrite?: boolean } = {}): DocumentText => {
    const textOf = (i: number | undefined) => (i === undefined ? undefined : translations[i]);
    const plainText = (i: number | undefined, source: string) => {
      const t = textOf(i);
      return t === undefined ? source : plainValue(i!, t);
    };
    const edits: { start: number; end: number; text: string }[] = [];
    for (const block of blocks) {
      const replaced = new Map<PhrasingContent, PhrasingContent>();
      for (const { node, alt, title } of block.images) {
        const copy: Image = { ...node, alt: plainText(alt, node.alt ?? ''), title: node.title == null ? node.title : plainText(title, node.title) };
        if (copy.alt !== node.alt || copy.title !== node.title) replaced.set(node, copy);
      }
      const translated = textOf(block.segment);
      const changed = (translated !== undefined && translated !== block.tagged.text) || replaced.size > 0;
      if (!changed && !options.rewrite) continue;
      const slots = block.tagged.slots.map((s) => replaced.get(s) ?? s);
      let markdown = inlineMarkdown(decodeInline(translated ?? block.tagged.text, slots)).replace(/\n/g, `\n${block.prefix}`);
      if (block.table) markdown = markdown.replace(/(?<!\\)\|/g, '\\|');
      edits.push({ start: block.start, end: block.end, text: markdown });
    }
    for (const attr of attributes) {
      const t = textOf(attr.segment);
      if (t === undefined || (t === segments[attr.segment]!.text && !options.rewrite)) continue;
      // An ampersand is escaped only where it would read as a character reference.
      const value = plainValue(attr.segment, t).replace(/&(?=#?\w+;)/g, '&amp;').replace(attr.quote === '"' ? /"/g : /'/g, attr.quote === '"' ? '&quot;' : '&#39;');
      edits.push({ start: attr.start, end: attr.end, text: value });
    }
    edits.sort((a, b) => b.start - a.start);
    let out = body;
    for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
    return {
      title: plainText(titleAt, doc.title),
      ...(doc.summary === undefined ? {} : { summary: plainText(summaryAt, doc.summary) }),
      ...(doc.featuredImageAlt === undefined ? {} : { featuredImageAlt: plainText(coverAltAt, doc.featuredImageAlt) }),
      body: out,
    };
  };

  const slots = (i: number): readonly PhrasingContent[] => blockOf.get(i)?.tagged.slots ?? plain.get(i) ?? [];
  return { segments, problem, rebuild, slots };
}
