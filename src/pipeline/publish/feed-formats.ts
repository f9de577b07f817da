import type { FeedData } from './feed-data.ts';

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

const rfc822 = (iso: string) => new Date(iso).toUTCString();
/** RFC 3339, as Atom and JSON Feed date their items. */
const rfc3339 = (iso: string) => new Date(iso).toISOString().replace('.000Z', 'Z');

/** RSS 2.0 with the full body in content:encoded. */
export function rss(feed: FeedData): string {
  const items = feed.items.map((item) =>
    [
      '<item>',
      `<title>${escapeXml(item.title)}</title>`,
      `<link>${escapeXml(item.url)}</link>`,
      `<guid isPermaLink="true">${escapeXml(item.url)}</guid>`,
      `<pubDate>${rfc822(item.date)}</pubDate>`,
      `<dc:creator>${escapeXml(item.author)}</dc:creator>`,
      ...item.categories.map((c) => `<category>${escapeXml(c)}</category>`),
      `<description>${escapeXml(item.summary)}</description>`,
      `<content:encoded><![CDATA[${item.html.replaceAll(']]>', ']]]]><![CDATA[>')}]]></content:encoded>`,
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '<channel>',
    `<title>${escapeXml(feed.title)}</title>`,
    `<link>${escapeXml(feed.home)}</link>`,
    `<description>${escapeXml(feed.description)}</description>`,
    `<language>${feed.language}</language>`,
    `<copyright>${escapeXml(feed.rights)}</copyright>`,
    `<atom:link href="${escapeXml(feed.self('feed.xml'))}" rel="self" type="application/rss+xml"/>`,
    ...(feed.items.length > 0 ? [`<lastBuildDate>${rfc822(feed.updated)}</lastBuildDate>`] : []),
    `<generator>Folio</generator>`,
    ...items,
    '</channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** Atom (RFC 4287): entries identified by their post URL, the body as escaped HTML. */
export function atom(feed: FeedData): string {
  const entries = feed.items.map((item) =>
    [
      '<entry>',
      `<title>${escapeXml(item.title)}</title>`,
      `<link rel="alternate" type="text/html" href="${escapeXml(item.url)}"/>`,
      `<id>${escapeXml(item.url)}</id>`,
      `<published>${rfc3339(item.date)}</published>`,
      `<updated>${rfc3339(item.modified ?? item.date)}</updated>`,
      `<author><name>${escapeXml(item.author)}</name></author>`,
      ...item.categories.map((c) => `<category term="${escapeXml(c)}"/>`),
      ...(item.summary ? [`<summary>${escapeXml(item.summary)}</summary>`] : []),
      `<content type="html">${escapeXml(item.html)}</content>`,
      '</entry>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${feed.language}">`,
    `<title>${escapeXml(feed.title)}</title>`,
    `<subtitle>${escapeXml(feed.description)}</subtitle>`,
    `<rights>${escapeXml(feed.rights)}</rights>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(feed.home)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(feed.self('atom.xml'))}"/>`,
    `<id>${escapeXml(feed.self('atom.xml'))}</id>`,
    `<updated>${rfc3339(feed.updated)}</updated>`,
    '<generator>Folio</generator>',
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** JSON Feed 1.1 (jsonfeed.org/version/1.1). */
export function jsonFeed(feed: FeedData): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.home,
    feed_url: feed.self('feed.json'),
    description: feed.description,
    language: feed.language,
    items: feed.items.map((item) => ({
      id: item.url,
      url: item.url,
      title: item.title,
      content_html: item.html,
      ...(item.summary ? { summary: item.summary } : {}),
      ...(item.image ? { image: item.image } : {}),
      date_published: rfc3339(item.date),
      ...(item.modified ? { date_modified: rfc3339(item.modified) } : {}),
      authors: [{ name: item.author }],
      tags: item.categories,
      language: feed.language,
    })),
  });
}
