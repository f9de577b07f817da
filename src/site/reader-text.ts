import { retext } from 'retext';
import retextSmartypants from 'retext-smartypants';

// Text as the reader's pages print it: the language's quotation marks, numbers kept on their unit's
// line, French spacing. Plain text in, plain text out (reader-html.ts applies it to post bodies).

/**
 * Double quotation marks per language (single ones are ‘ ’ everywhere: retext-smartypants writes the
 * closing single mark for apostrophes too, and the apostrophe is ’ in every language here).
 */
const DOUBLE: Record<string, [string, string]> = {
  en: ['“', '”'], es: ['«', '»'], zh: ['“', '”'], ar: ['«', '»'], 'pt-br': ['“', '”'], fr: ['«', '»'], ja: ['「', '」'],
  de: ['„', '“'], ru: ['«', '»'], id: ['“', '”'], hi: ['“', '”'], ko: ['“', '”'], tr: ['“', '”'], vi: ['“', '”'],
};
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

export function smartener(lang: string) {
  let smarten = smarteners.get(lang);
  if (!smarten) smarteners.set(lang, (smarten = makeSmartener(lang)));
  return smarten;
}

/** A post's plain text (one line per block) with the quotation marks its page prints, block by block as the page sets them. */
export function printedQuotes(text: string, lang: string): string {
  const smarten = smartener(lang);
  return text
    .split('\n')
    .map((block) => {
      const quoted = smarten(block);
      return quoted.length === block.length ? quoted : block;
    })
    .join('\n');
}

/** Numbers kept on their unit's line; French guillemets and high punctuation set off with a narrow no-break space. */
export function spaced(text: string, lang: string): string {
  const kept = text.replace(UNIT, '$1\u00a0');
  return lang === 'fr' ? kept.replace(/« ?/g, '«\u202f').replace(/ ?»/g, '\u202f»').replace(/ ([;:!?])/g, '\u202f$1') : kept;
}

/** A title or a summary as the page prints it: the language's quotation marks, numbers on their unit's line. */
export function readerText(text: string, lang: string): string {
  const quoted = smartener(lang)(text);
  return spaced(quoted.length === text.length ? quoted : text, lang);
}
