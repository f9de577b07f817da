import { matchedRanges } from '../core/highlight.ts';
import { language } from '../core/languages.ts';
import { dateFormat } from '../core/date-formats.ts';
import { messages, plural } from '../core/messages.ts';
import type { SearchBody } from '../core/search.ts';
import { tokens } from '../search/encoders.ts';
import { escapeHtml, fillHtml } from './html.ts';
import { pagerHtml } from './pager.ts';
import { sitePath } from './page-specs.ts';
import { readerText } from './reader-text.ts';

/**
 * The search page's results, rendered on the server from the core search (functions/search-page.ts),
 * so the page works without JavaScript. The prerendered page (SearchPage.astro) holds the slots.
 */
export const RESULTS_SLOT = '<div id="search-region"></div>';
/** An attribute of the search box that becomes its value. */
export const QUERY_SLOT = 'data-query-slot';

/** The results per page of the search page (the lists' page size). */
export const SEARCH_PAGE_SIZE = 10;

export interface SearchPageResults {
  lang: string;
  body: SearchBody;
  page: number;
  /** Rank of the first result minus one. */
  offset: number;
  href: (page: number) => string;
  /** The page's address for another query. */
  searchHref: (query: string) => string;
}

/** The snippet as HTML with the words the search matched in `<mark>` (their other forms too: highlight.ts). */
export function markedSnippet(lang: string, snippet: string, query: string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of matchedRanges(lang, snippet, tokens(lang, query))) {
    out += `${escapeHtml(snippet.slice(at, start))}<mark>${escapeHtml(snippet.slice(start, end))}</mark>`;
    at = end;
  }
  return out + escapeHtml(snippet.slice(at));
}

/** The query's words a result lacks, struck through as search engines show them (results with every word rank first). */
const missingHtml = (m: ReturnType<typeof messages>, words: readonly string[]) =>
  words.length === 0 ? '' : `<p class="meta missing">${fillHtml(m.missingWords, { words: words.map((w) => `<s><bdi>${escapeHtml(w)}</bdi></s>`).join(', ') })}</p>`;

const region = (status: string, rest = '') => `<div id="search-region"><p class="meta" id="search-status" role="status">${status}</p>${rest}</div>`;

/** A request the search refused (a query too long, a bad page): its message in the status line. */
export const refusedHtml = (message: string) => region(escapeHtml(message));

export function resultsHtml({ lang, body, page, offset, href, searchHref }: SearchPageResults): string {
  const m = messages(lang);
  const q = { q: `<bdi>${escapeHtml(body.query)}</bdi>` };
  // A link to the query the reader likely meant (a word no essay holds, replaced by the nearest one they hold).
  const suggested = body.suggestion === null ? '' : `<p class="meta" id="search-suggestion">${fillHtml(m.didYouMean, { q: `<a href="${escapeHtml(searchHref(body.suggestion))}"><bdi>${escapeHtml(body.suggestion)}</bdi></a>` })}</p>`;
  if (body.total === 0) return region(fillHtml(m.noResults, q), suggested);
  const status = fillHtml(plural(lang, m.resultCount, body.total, { n: body.total }), q);
  const dates = dateFormat(language(lang).locale);
  const items = body.data.map((item) => {
    const l = language(item.language);
    const date = dates.format(new Date(item.date));
    return [
      `<li lang="${l.html_lang}" dir="${l.dir}">`,
      `<h2><a href="${escapeHtml(sitePath(item.url))}">${escapeHtml(readerText(item.title, item.language))}</a></h2>`,
      `<p class="meta"><span class="byline"><span><time datetime="${escapeHtml(item.date)}">${escapeHtml(date)}</time></span>${item.translation?.automated ? ` <span>${escapeHtml(m.translated)}</span>` : ''}</span></p>`,
      `<p class="snippet">${markedSnippet(item.language, item.snippet, body.query)}</p>`,
      missingHtml(m, item.missing_words),
      '</li>',
    ].join('');
  });
  const pages = Math.max(1, Math.ceil(body.total / SEARCH_PAGE_SIZE));
  const list = items.length > 0 ? `<ol class="posts" id="search-results" start="${offset + 1}">${items.join('')}</ol>` : '';
  return region(status, suggested + list + pagerHtml(lang, page, pages, href, { prev: m.previousResults, next: m.moreResults }));
}
