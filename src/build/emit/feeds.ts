import { LANGUAGES } from '../../core/languages.ts';
import { format, messages } from '../../core/messages.ts';
import { absolute, paths } from '../../core/urls.ts';
import type { Core } from '../../core/index.ts';
import type { Publisher } from './publisher.ts';

const FEED_SIZE = 50;

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

const rfc822 = (iso: string) => new Date(iso).toUTCString();

/** RSS 2.0 per language, holding only posts available in that language, newest first. */
export async function emitFeeds(core: Core, out: Publisher): Promise<void> {
  const scope = core.catalog;
  for (const lang of LANGUAGES) {
    const page = core.posts.list(new URLSearchParams({ lang: lang.code, per_page: String(FEED_SIZE) }));
    const m = messages(lang.code);
    const home = absolute(scope, paths.home(scope, lang.code));
    const self = absolute(scope, paths.feed(scope, lang.code));
    const items = await Promise.all(
      page.data.map(async (item) => {
        const full = await core.posts.get(item.slug, new URLSearchParams({ lang: lang.code }));
        return [
          '<item>',
          `<title>${escapeXml(item.title)}</title>`,
          `<link>${escapeXml(item.url)}</link>`,
          `<guid isPermaLink="true">${escapeXml(item.url)}</guid>`,
          `<pubDate>${rfc822(item.date)}</pubDate>`,
          `<dc:creator>${escapeXml(item.author)}</dc:creator>`,
          ...item.categories.map((c) => `<category>${escapeXml(c)}</category>`),
          `<description>${escapeXml(item.summary ?? '')}</description>`,
          `<content:encoded><![CDATA[${full.data.content_html.replaceAll(']]>', ']]]]><![CDATA[>')}]]></content:encoded>`,
          '</item>',
        ].join('');
      }),
    );
    const newest = page.data[0]?.modified ?? page.data[0]?.date;
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
      '<channel>',
      `<title>${escapeXml(format(m.feedTitle, { site: scope.site.name }))}</title>`,
      `<link>${escapeXml(home)}</link>`,
      `<description>${escapeXml(scope.site.descriptions[lang.code] ?? scope.site.description)}</description>`,
      `<language>${lang.hreflang}</language>`,
      `<copyright>${escapeXml(scope.site.attribution)}</copyright>`,
      `<atom:link href="${escapeXml(self)}" rel="self" type="application/rss+xml"/>`,
      ...(newest ? [`<lastBuildDate>${rfc822(newest)}</lastBuildDate>`] : []),
      `<generator>Folio</generator>`,
      ...items,
      '</channel>',
      '</rss>',
      '',
    ].join('\n');
    await out.write(paths.feed(scope, lang.code), xml);
  }
}
