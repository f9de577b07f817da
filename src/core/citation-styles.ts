/** CSL-JSON (the citeproc input schema, csl-data.json): what ./cite.ts makes and these styles read. */
export type CslName = { family: string; given: string } | { literal: string };
export interface CslDate {
  'date-parts': [[number, number, number]];
}
export interface CslItem {
  id: string;
  type: 'post-weblog';
  title: string;
  author: CslName[];
  issued: CslDate;
  URL: string;
  /** BCP 47, as the page's lang attribute. */
  language: string;
  'container-title': string;
  abstract?: string;
  /** A translation: its provider as translator, the English title and date, and where the original is. */
  translator?: CslName[];
  'original-title'?: string;
  'original-date'?: CslDate;
  note?: string;
  /** csl-data.json's extension object: what CSL has no variable for. */
  custom?: { 'original-language': string; 'original-URL': string; 'machine-translation': boolean };
}


/**
 * APA 7, MLA 9, Chicago (17th ed., notes-bibliography: the bibliography entry) and BibTeX forms of
 * one CSL-JSON item of type post-weblog, as plain text. These four styles of one item type are
 * fixed templates; citeproc-js (through citation-js) would need two vendored CC BY-SA style files
 * and 2.6 MB of dependencies for the same strings, and still leaves sentence case to the author.
 * Titles are kept as written: every style here prints an essay's title as its author gave it.
 */
export interface CitationForms {
  apa: string;
  mla: string;
  chicago: string;
  bibtex: string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** MLA 9 abbreviates the months of more than four letters (MLA Handbook 9th ed., appendix 1). */
const MLA_MONTHS = ['Jan.', 'Feb.', 'Mar.', 'Apr.', 'May', 'June', 'July', 'Aug.', 'Sept.', 'Oct.', 'Nov.', 'Dec.'];

const dateOf = (item: CslItem) => {
  const [year, month, day] = item.issued['date-parts'][0]!;
  return { year, month: month!, day: day! };
};

/** A sentence ends once: no period after a title that already ends in . ? or !. */
const closed = (text: string, mark = '.') => (/[.?!]$/.test(text) ? text : `${text}${mark}`);

const initials = (given: string) =>
  given
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part.split('-').map((p) => `${[...p][0]}.`).join('-'))
    .join(' ');

/** The first author, inverted (Family, Given), as every style's entry begins. */
const inverted = (name: CslName, given: (g: string) => string) => ('literal' in name ? name.literal : `${name.family}, ${given(name.given)}`);

/** The translation's credit, as the styles print it after the title. */
function translationCredit(item: CslItem): string | undefined {
  if (!item.custom) return undefined;
  const by = item.translator?.[0];
  const who = by && 'literal' in by ? ` by ${by.literal}` : '';
  return `${item.custom['machine-translation'] ? 'machine translation' : 'translated'}${who}`;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function apa(item: CslItem): string {
  const { year, month, day } = dateOf(item);
  const credit = translationCredit(item);
  const title = credit ? `${item.title} [${item['original-title']}] (${capitalized(credit)})` : item.title;
  return `${closed(inverted(item.author[0]!, initials))} (${year}, ${MONTHS[month - 1]} ${day}). ${closed(title)} ${item['container-title']}. ${item.URL}`;
}

export function mla(item: CslItem): string {
  const { year, month, day } = dateOf(item);
  const credit = translationCredit(item);
  // MLA 9 recommends the URL without its scheme.
  const location = item.URL.replace(/^https?:\/\//, '');
  return `${closed(inverted(item.author[0]!, (g) => g))} “${closed(item.title)}” ${item['container-title']},${credit ? ` ${credit},` : ''} ${day} ${MLA_MONTHS[month - 1]} ${year}, ${location}.`;
}

export function chicago(item: CslItem): string {
  const { year, month, day } = dateOf(item);
  const credit = translationCredit(item);
  return `${closed(inverted(item.author[0]!, (g) => g))} “${closed(item.title)}”${credit ? ` ${closed(capitalized(credit))}` : ''} ${item['container-title']}, ${MONTHS[month - 1]} ${day}, ${year}. ${item.URL}.`;
}

/** What BibTeX reads as markup, written as the characters themselves. */
const BIBTEX_SPECIALS: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
};
export const bibtexEscape = (text: string) => text.replace(/[\\{}&%$#_^~]/g, (c) => BIBTEX_SPECIALS[c]!);

const BIBTEX_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A citation key of ASCII letters, digits and hyphens: family name, year, the item's id (slug and language). */
function bibtexKey(item: CslItem): string {
  const first = item.author[0]!;
  const name = ('literal' in first ? first.literal : first.family).normalize('NFKD').replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  return `${name || 'anon'}${dateOf(item).year}-${item.id}`;
}

/**
 * A @misc entry (what classic BibTeX styles and biblatex both read) with the URL in `url` and
 * `howpublished`. The title is braced whole, so a style does not lower-case it.
 */
export function bibtex(item: CslItem): string {
  const { year, month } = dateOf(item);
  const authors = item.author.map((n) => ('literal' in n ? `{${bibtexEscape(n.literal)}}` : `${bibtexEscape(n.family)}, ${bibtexEscape(n.given)}`)).join(' and ');
  const fields: [string, string][] = [
    ['author', `{${authors}}`],
    ['title', `{{${bibtexEscape(item.title)}}}`],
    ['howpublished', `{${bibtexEscape(item['container-title'])}}`],
    ['year', `{${year}}`],
    ['month', BIBTEX_MONTHS[month - 1]!],
    ['url', `{${item.URL}}`],
    ['language', `{${item.language}}`],
    ...(item.note ? [['note', `{${bibtexEscape(item.note)}}`] as [string, string]] : []),
  ];
  return `@misc{${bibtexKey(item)},\n${fields.map(([k, v]) => `  ${k} = ${v}`).join(',\n')}\n}`;
}

export const citationForms = (item: CslItem): CitationForms => ({ apa: apa(item), mla: mla(item), chicago: chicago(item), bibtex: bibtex(item) });
