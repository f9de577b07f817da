import { availableLanguages, isAvailable } from '../../core/availability.ts';
import { language, LANGUAGE_CODES } from '../../core/languages.ts';
import { absolute, paths } from '../../core/urls.ts';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS_DEFAULT } from '../../core/limits.ts';
import type { Core } from '../../core/index.ts';
import type { Publisher } from './publisher.ts';

/** FOLIO_SITEMAP_MAX_URLS, or the default: a site with more URLs gets a sitemap index of parts. */
export function sitemapMaxUrls(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const given = env.FOLIO_SITEMAP_MAX_URLS;
  if (given === undefined || given === '') return SITEMAP_MAX_URLS_DEFAULT;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > 50_000) throw new Error(`FOLIO_SITEMAP_MAX_URLS=${given}: give a whole number of URLs from 1 to 50000 (default ${SITEMAP_MAX_URLS_DEFAULT})`);
  return n;
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n`;
const URLSET_CLOSE = '\n</urlset>\n';

/** One `<url>` of a sitemap, and its lastmod (to date the part that holds it). */
interface Entry {
  xml: string;
  lastmod?: string;
}

/** The URLs of a root with their hreflang alternates, in the order the sitemap lists them. */
function sitemapEntries(core: Core): Entry[] {
  const scope = core.catalog;
  const urls: Entry[] = [];
  const entry = (loc: string, alternates: [string, string][], lastmod?: string) => ({
    xml: `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates
      .map(([hreflang, href]) => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${href}"/>`)
      .join('')}</url>`,
    lastmod,
  });
  const homes: [string, string][] = core.index.languagesWithPosts.map((c) => [language(c).hreflang, absolute(scope, paths.home(scope, c))]);
  for (const code of core.index.languagesWithPosts) urls.push(entry(absolute(scope, paths.home(scope, code)), homes));
  // Posts, then the standalone pages (no date: a page's lastmod is its modified, when written).
  const dated = [...scope.posts.map((p) => ({ post: p, date: p.date as string | undefined })), ...scope.pages.map((p) => ({ post: p, date: undefined }))];
  for (const { post, date } of dated) {
    const langs = availableLanguages(post, core.index.policy);
    const alternates: [string, string][] = langs.map((c) => [language(c).hreflang, absolute(scope, paths.post(scope, post.slug, c))]);
    alternates.push(['x-default', absolute(scope, paths.post(scope, post.slug, 'en'))]);
    for (const code of LANGUAGE_CODES.filter((c) => langs.includes(c))) {
      urls.push(entry(absolute(scope, paths.post(scope, post.slug, code)), alternates, post.entries[code]?.modified ?? post.modified ?? date));
    }
  }
  // Each category and tag list, in the languages it lists posts in (an empty list is no page to find).
  for (const [taxonomy, pathOf] of [['categories', paths.category], ['tags', paths.tag]] as const) {
    for (const { term, posts } of core.index.terms[taxonomy].values()) {
      const langs = core.index.languagesWithPosts.filter((lang) => posts.some((p) => isAvailable(p, lang, core.index.policy)));
      const alternates: [string, string][] = langs.map((c) => [language(c).hreflang, absolute(scope, pathOf(scope, term.slug, c))]);
      for (const code of langs) urls.push(entry(absolute(scope, pathOf(scope, term.slug, code)), alternates));
    }
  }
  return urls;
}

/** The entries cut in order into parts of at most `maxUrls` URLs and SITEMAP_MAX_BYTES bytes each. */
export function sitemapParts<T extends Entry>(entries: readonly T[], maxUrls: number, maxBytes = SITEMAP_MAX_BYTES): T[][] {
  const fixed = Buffer.byteLength(URLSET_OPEN) + Buffer.byteLength(URLSET_CLOSE);
  const parts: T[][] = [];
  let part: T[] = [];
  let bytes = fixed;
  for (const e of entries) {
    const size = Buffer.byteLength(e.xml) + 1;
    if (part.length && (part.length >= maxUrls || bytes + size > maxBytes)) {
      parts.push(part);
      part = [];
      bytes = fixed;
    }
    part.push(e);
    bytes += size;
  }
  if (part.length || !parts.length) parts.push(part);
  return parts;
}

/** The latest of the entries' lastmods (W3C datetimes: a date, or a date and time), if any has one. */
function latest(entries: readonly Entry[]): string | undefined {
  let best: string | undefined;
  for (const { lastmod } of entries) if (lastmod && (!best || Date.parse(lastmod) > Date.parse(best))) best = lastmod;
  return best;
}

const urlset = (entries: readonly Entry[]) => `${URLSET_OPEN}${entries.map((e) => e.xml).join('\n')}${URLSET_CLOSE}`;

/**
 * sitemap.xml with hreflang alternates between the languages a post or page is available in. A root
 * with at most `maxUrls` URLs (FOLIO_SITEMAP_MAX_URLS) gets one urlset at /sitemap.xml; past it,
 * /sitemap.xml is a sitemap index of parts at /sitemaps/<n>.xml, each a urlset of the same entries
 * in the same order, within the bounds, with the latest lastmod of its URLs (Google's sitemap index
 * rules; what Hugo's and WordPress's sitemaps do). robots.txt names /sitemap.xml either way.
 */
export async function emitSitemap(core: Core, out: Publisher, maxUrls = sitemapMaxUrls()): Promise<void> {
  const scope = core.catalog;
  const parts = sitemapParts(sitemapEntries(core), maxUrls);
  if (parts.length === 1) return out.write(paths.sitemap(scope), urlset(parts[0]!));
  const listed: string[] = [];
  for (const [i, part] of parts.entries()) {
    await out.write(paths.sitemapPart(scope, i + 1), urlset(part));
    const lastmod = latest(part);
    listed.push(`<sitemap><loc>${absolute(scope, paths.sitemapPart(scope, i + 1))}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</sitemap>`);
  }
  await out.write(paths.sitemap(scope), `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${listed.join('\n')}\n</sitemapindex>\n`);
}
