import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { visit } from 'unist-util-visit';
import type { Element, ElementContent, Root, Text } from 'hast';
import { smartener, spaced } from './reader-text.ts';

/**
 * A post body as the reader's page prints it (the API's `content_html` and `structure.sections`
 * stay as the author wrote them): a heading outline without skipped levels under the page's h1,
 * the language's quotation marks, and numbers kept on the line of their unit.
 */

/** Each heading one level below the nearest heading before it that the author put above it. */
export function outline() {
  return (tree: Root) => {
    const stack: { author: number; shown: number }[] = [];
    visit(tree, 'element', (el: Element) => {
      const level = /^h([1-6])$/.exec(el.tagName);
      if (!level) return;
      const author = Number(level[1]);
      while (stack.length > 0 && stack.at(-1)!.author >= author) stack.pop();
      const shown = Math.min(6, (stack.at(-1)?.shown ?? 1) + 1);
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

const processors = new Map<string, ReturnType<typeof processorFor>>();
const processorFor = (lang: string) => unified().use(rehypeParse, { fragment: true }).use(outline).use(typography, { lang }).use(rehypeStringify);

/** The body of a post for its page in `lang`. */
export function readerHtml(html: string, lang: string): string {
  let processor = processors.get(lang);
  if (!processor) processors.set(lang, (processor = processorFor(lang)));
  return String(processor.processSync(html));
}
