import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { SKIP, visit } from 'unist-util-visit';
import { toText } from 'hast-util-to-text';
import type { Element, ElementContent, Root, Text } from 'hast';
import { smartener, spaced } from './reader-text.ts';
import { format, messages } from '../core/messages.ts';
import { highlightCode } from './code-highlight.ts';

/**
 * A post body as the reader's page prints it (the API's `content_html` and `structure.sections`
 * stay as the author wrote them): a heading outline without skipped levels under the page's
 * heading, the language's quotation marks, numbers kept on the line of their unit, a link to
 * each section, fenced code coloured, and each video's address for print.
 */

/**
 * Each heading one level below the nearest heading before it that the author put above it; the
 * body's first level is one below `top`, the heading the page puts above the body.
 */
export function outline(options: { top: number }) {
  return (tree: Root) => {
    const stack: { author: number; shown: number }[] = [];
    visit(tree, 'element', (el: Element) => {
      const level = /^h([1-6])$/.exec(el.tagName);
      if (!level) return;
      const author = Number(level[1]);
      while (stack.length > 0 && stack.at(-1)!.author >= author) stack.pop();
      const shown = Math.min(6, (stack.at(-1)?.shown ?? options.top) + 1);
      stack.push({ author, shown });
      el.tagName = `h${shown}`;
    });
  };
}

/** Where typography stops: code and the like keep their characters. */
const VERBATIM = new Set(['code', 'pre', 'kbd', 'samp', 'script', 'style', 'math', 'svg']);
/** Each block's text is one run for the quote rules, so a quote sees the words around it. */
const BLOCK = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'td', 'th', 'figcaption', 'dt', 'dd', 'caption', 'div', 'section', 'article', 'aside', 'figure', 'table', 'tr', 'ul', 'ol', 'dl']);

export function typography(options: { lang: string }) {
  const { lang } = options;
  const smarten = smartener(lang);
  const runs: Text[][] = [];
  const collect = (children: ElementContent[], run: Text[]) => {
    for (const child of children) {
      if (child.type === 'text') run.push(child);
      else if (child.type === 'element' && !VERBATIM.has(child.tagName)) {
        if (BLOCK.has(child.tagName)) {
          const own: Text[] = [];
          runs.push(own);
          collect(child.children, own);
        } else collect(child.children, run);
      }
    }
  };
  return (tree: Root) => {
    runs.length = 0;
    const top: Text[] = [];
    runs.push(top);
    collect(tree.children as ElementContent[], top);
    for (const run of runs) {
      const text = run.map((t) => t.value).join('');
      const quoted = smarten(text);
      const smart = quoted.length === text.length ? quoted : text;
      let at = 0;
      for (const t of run) {
        const next = at + t.value.length;
        t.value = spaced(smart.slice(at, next), lang);
        at = next;
      }
    }
  };
}

/**
 * A link to each heading that has an id, after it (as Starlight does): a "#" shown on hover and
 * focus, named "Link to this section: <heading>" for a screen reader. Outside the heading, so the
 * heading's own name, which a screen reader lists, stays its text.
 */
export function sectionLinks(options: { lang: string }) {
  const label = messages(options.lang).sectionLink;
  return (tree: Root) => {
    visit(tree, 'element', (el: Element, index, parent) => {
      if (!/^h[2-6]$/.test(el.tagName) || typeof el.properties.id !== 'string' || index === undefined || !parent) return;
      const link: Element = {
        type: 'element',
        tagName: 'a',
        properties: { className: ['anchor'], href: `#${el.properties.id}`, ariaLabel: format(label, { title: toText(el).trim() }) },
        children: [{ type: 'text', value: '#' }],
      };
      parent.children[index] = { type: 'element', tagName: 'div', properties: { className: ['heading'] }, children: [el, link] };
      return [SKIP, index + 1];
    });
  };
}

/**
 * A video cannot play on paper: each one is followed by its address, a paragraph only print shows
 * (site.css .print-only; `hidden` elsewhere). The page's alone: the API's content_html stays as written.
 */
export function printableVideos(options: { origin: string }) {
  return (tree: Root) => {
    visit(tree, 'element', (el: Element, index, parent) => {
      if (el.tagName !== 'video' || !parent || index === undefined) return;
      const source = el.children.find((c): c is Element => c.type === 'element' && c.tagName === 'source');
      const src = el.properties.src ?? source?.properties.src;
      if (typeof src !== 'string') return;
      const href = new URL(src, options.origin).href;
      const link: Element = { type: 'element', tagName: 'a', properties: { href }, children: [{ type: 'text', value: href }] };
      parent.children.splice(index + 1, 0, { type: 'element', tagName: 'p', properties: { className: ['print-only'], hidden: true, dir: 'ltr' }, children: [link] });
      return index + 2;
    });
  };
}

const processors = new Map<string, ReturnType<typeof processorFor>>();
const processorFor = (lang: string, top: number, origin: string | undefined) => {
  const base = unified().use(outline, { top }).use(typography, { lang }).use(sectionLinks, { lang }).use(highlightCode);
  return (origin === undefined ? base : base.use(printableVideos, { origin })).use(rehypeStringify);
};
const fragment = unified().use(rehypeParse, { fragment: true });

/**
 * The body of a post for its page in `lang`, under a heading of level `top` (the page's h1); with
 * the site's `origin`, each video's address for print.
 */
export function readerHtml(html: string, lang: string, top = 1, origin?: string): string {
  return readerOf(fragment.parse(html) as Root, lang, top, origin);
}

/**
 * `readerHtml` of the tree the body's HTML was written from (src/pipeline/derive/render.ts), which it
 * changes: the same page body without parsing the HTML again.
 */
export function readerOf(tree: Root, lang: string, top = 1, origin?: string): string {
  const key = `${lang} ${top} ${origin}`;
  let processor = processors.get(key);
  if (!processor) processors.set(key, (processor = processorFor(lang, top, origin)));
  return processor.stringify(processor.runSync(tree) as Root);
}
