import type { CatalogIndex } from './catalog-index.ts';
import { detectLanguage } from './detect-language.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { errors } from './errors.ts';
import { QUERY_MAX_CHARS } from './params.ts';
import { runSearch } from './search.ts';
import { stopWords } from './stopwords.ts';
import { tokens } from '../search/encoders.ts';
import type { SearchView } from './types.ts';

/** NLWeb-style answers from the prebuilt indexes: no remote model. */
export interface AskInput {
  query: unknown;
  site?: unknown;
}

export interface AskItem {
  url: string;
  name: string;
  description: string;
  date: string;
}

export interface AskAnswer {
  status: 'success';
  query: string;
  site: string;
  language: string;
  response: AskItem[];
}

const MAX_ANSWERS = 10;

/** `site` may be absent, the site's name, its SITE_URL or its host; anything else is not this service. */
function siteHost(index: CatalogIndex, site: unknown): string {
  const url = new URL(index.catalog.site_url + index.catalog.base + '/');
  if (site === undefined || site === null || site === '') return url.host;
  const given = typeof site === 'string' ? site.trim().replace(/\/+$/, '').toLowerCase() : undefined;
  const accepted = [index.catalog.site.name, url.origin + index.catalog.base, url.host + index.catalog.base, url.host].map((s) => s.toLowerCase());
  if (given === undefined || !accepted.includes(given)) throw errors.invalidRequest(`This service answers only for its own site (${url.host}); leave "site" out or use that.`);
  return url.host;
}

/** The languages an answer searches: the question's and English. */
export function askLanguages(input: AskInput): string[] {
  const query = typeof input.query === 'string' ? input.query.trim() : '';
  return query ? [...new Set([detectLanguage(query), DEFAULT_LANGUAGE])] : [];
}

export function ask(index: CatalogIndex, source: SearchView, input: AskInput): AskAnswer {
  const query = typeof input.query === 'string' ? input.query.trim() : '';
  if (!query) throw errors.invalidRequest('"query" is required: a non-blank question or keywords.');
  if ([...query].length > QUERY_MAX_CHARS) throw errors.invalidRequest(`"query" is limited to ${QUERY_MAX_CHARS} characters.`);
  const site = siteHost(index, input.site);
  const lang = detectLanguage(query);
  const words = tokens(lang, query);
  const keywords = words.filter((w) => !stopWords(lang).has(w));
  const terms = keywords.length > 0 ? keywords : words;
  const searchIn = (text: string) =>
    runSearch(index, source, new URLSearchParams({ q: text, lang, fallback: 'en', per_page: '100' })).body.data;
  // Posts with every keyword first, then those with most (the search ranks them so).
  const hits = terms.length > 0 ? searchIn(terms.join(' ')) : [];
  return {
    status: 'success',
    query,
    site,
    language: lang,
    response: hits.slice(0, MAX_ANSWERS).map((h) => ({ url: h.url, name: h.title, description: h.summary ?? h.snippet, date: h.date })),
  };
}
