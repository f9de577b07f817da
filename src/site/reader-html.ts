import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { retext } from 'retext';
import retextSmartypants from 'retext-smartypants';
import { visit } from 'unist-util-visit';
import type { Element, ElementContent, Root, Text } from 'hast';

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

/**
 * Double quotation marks per language (single ones are ‘ ’ everywhere: retext-smartypants writes the
 * closing single mark for apostrophes too, and the apostrophe is ’ in every language here).
 */
const DOUBLE: Record<string, [string, string]> = {
  en: ['“', '”'], es: ['«', '»'], zh: ['“', '”'], ar: ['«', '»'], 'pt-br': ['“', '”'], fr: ['«', '»'], ja: ['「', '」'],
  de: ['„', '“'], ru: ['«', '»'], id: ['“', '”'], hi: ['“', '”'], ko: ['“', '”'], tr: ['“', '”'], vi: ['“', '”'],
};
/** Where typography stops: code and the like keep their characters. */
const VERBATIM = new Set(['code', 'pre', 'kbd', 'samp', 'script', 'style', 'math', 'svg']);
/** Each block's text is one run for the quote rules, so a quote sees the words around it. */
const BLOCK = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'td', 'th', 'figcaption', 'dt', 'dd', 'caption', 'div', 'section', 'article', 'aside', 'figure', 'table', 'tr', 'ul', 'ol', 'dl']);
/** A number and the unit after it stay on one line (U+00A0 for the space between them). */
const UNIT = /(\d) (?=(?:%|‰|°[CF]?|km\/h|km²|m²|m³|[kMGT]?Wh?|[kmcµ]?[mgl]|ml|h|min|s|ms|metres?|meters?|kilometres?|kilometers?|miles?|kilos?|grams?|litres?|liters?|hours?|minutes?|seconds?)(?![\p{L}\p{N}]))/gu;

/** Scripts written without spaces between words. */
const UNSPACED = new Set(['zh', 'ja']);

const smarteners = new Map<string, ReturnType<typeof makeSmartener>>();
function makeSmartener(lang: string) {
  const [open, close] = DOUBLE[lang] ?? DOUBLE.en!;
  const processor = retext().use(retextSmartypants, {
    backticks: false,
    dashes: false,
    ellipses: false,
    openingQuotes: { double: open, single: '‘' },
    closingQuotes: { double: close, single: '’' },
  });
  // Every mark is one UTF-16 unit, so the result lines up with the text character for character.
  if (!UNSPACED.has(lang)) return (text: string) => (/["']/.test(text) ? String(processor.processSync(text)) : text);
  // Without spaces between words the rules cannot tell opening from closing: quotes pair up in turn.
  return (text: string) => {
    let n = 0;
    return text.replace(/"/g, () => (n++ % 2 === 0 ? open : close));
  };
}

export function typography(options: { lang: string }) {
  const { lang } = options;
  let smarten = smarteners.get(lang);
  if (!smarten) smarteners.set(lang, (smarten = makeSmartener(lang)));
  const french = lang === 'fr';
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
      const quoted = smarten!(text);
      const smart = quoted.length === text.length ? quoted : text;
      let at = 0;
      for (const t of run) {
        const next = at + t.value.length;
        t.value = smart.slice(at, next).replace(UNIT, '$1\u00a0');
        // French sets its guillemets and high punctuation off with a narrow no-break space.
        if (french) t.value = t.value.replace(/« ?/g, '«\u202f').replace(/ ?»/g, '\u202f»').replace(/ ([;:!?])/g, '\u202f$1');
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
