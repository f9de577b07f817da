import { parseMarkdown } from '../../src/translate/segments.ts';

/** A Markdown tree as structure: positions dropped, runs of white space in text folded to one space. */
export function markdownStructure(markdown: string): unknown {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'position') continue;
      out[k] = k === 'value' && (node as { type: string }).type === 'text' ? (v as string).replace(/\s+/g, ' ') : strip(v);
    }
    return out;
  };
  return strip(parseMarkdown(markdown));
}

/**
 * What a translation must keep of its English: every node, heading level, URL, code and raw HTML;
 * words (and so the text runs between inline nodes), and alt and title texts (of images and of raw
 * HTML), are the translation's own.
 */
export const markdownShape = (markdown: string) =>
  JSON.stringify(markdownStructure(markdown), function (this: { type?: string }, k, v) {
    if (k === 'alt' || k === 'title') return undefined;
    // Word order is the language's: where text runs fall around links and emphasis is too.
    if (k === 'children') return (v as { type: string }[]).filter((c) => c.type !== 'text');
    if (k !== 'value') return v;
    return this.type === 'html' ? (v as string).replace(/\s(title|alt)="[^"]*"/g, ' $1') : v;
  });
