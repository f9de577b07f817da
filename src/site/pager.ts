import { messages, plural } from '../core/messages.ts';
import { escapeHtml } from './html.ts';

/**
 * The pager under a list of pages, as HTML: the prerendered lists (Pager.astro) and the search
 * page the server renders (search-results.ts) print the same markup. Nothing for a single page.
 */
export function pagerHtml(lang: string, page: number, pages: number, href: (page: number) => string, labels?: { prev: string; next: string }): string {
  if (pages <= 1) return '';
  const m = messages(lang);
  const { prev: before, next: after } = labels ?? { prev: m.newer, next: m.older };
  const label = escapeHtml(plural(lang, m.pageOf, pages, { page, pages }));
  const prev = page > 1 ? `<a rel="prev" href="${escapeHtml(href(page - 1))}">← ${escapeHtml(before)}</a>` : '<span></span>';
  const next = page < pages ? `<a rel="next" href="${escapeHtml(href(page + 1))}">${escapeHtml(after)} →</a>` : '<span></span>';
  return `<nav class="pager" aria-label="${label}">${prev}<span>${label}</span>${next}</nav>`;
}
