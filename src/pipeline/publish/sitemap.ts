import { availableLanguages, isAvailable } from '../../core/availability.ts';
import { language, LANGUAGE_CODES } from '../../core/languages.ts';
import { absolute, paths } from '../../core/urls.ts';
import type { Core } from '../../core/index.ts';
import type { Publisher } from './publisher.ts';

/** sitemap.xml with hreflang alternates between the languages a post or page is available in. */
export async function emitSitemap(core: Core, out: Publisher): Promise<void> {
  const scope = core.catalog;
  const urls: string[] = [];
  const entry = (loc: string, alternates: [string, string][], lastmod?: string) =>
    `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}${alternates
      .map(([hreflang, href]) => `<xhtml:link rel="alternate" hreflang="${hreflang}" href="${href}"/>`)
      .join('')}</url>`;
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
  await out.write(
    paths.sitemap(scope),
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`,
  );
}
