import { test } from 'node:test';
import assert from 'node:assert/strict';
import Parser from 'rss-parser';
import { XMLParser } from 'fast-xml-parser';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES, language } from '../../src/core/languages.ts';

const site = useServer();

const parser = new Parser({ customFields: { item: [['content:encoded', 'contentEncoded']] } });

for (const root of ['content', 'sandbox'] as const) {
  test(`every language feed of ${root} parses and holds exactly the posts available in it`, async () => {
    const c = await corpus(root);
    const prefix = root === 'sandbox' ? '/sandbox' : '';
    const titles = new Set<string>();
    for (const lang of LANGUAGE_CODES) {
      const path = `${prefix}${lang === 'en' ? '' : `/${lang}`}/feed.xml`;
      const r = await get(site.url, path);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type')!, /^application\/rss\+xml/);
      const feed = await parser.parseString(r.text);
      titles.add(feed.title!);
      assert.equal((feed as unknown as { language: string }).language, language(lang).hreflang);
      const expected = c.byDate.filter((p) => c.stateOf(p.slug, lang) === 'available');
      assert.deepEqual(feed.items.map((i) => new URL(i.link!).pathname), expected.map((p) => `${prefix}${lang === 'en' ? '' : `/${lang}`}/${p.slug}`), path);
      for (const item of feed.items) {
        assert.ok(item.title && item.pubDate && item.guid, `${path} item fields`);
        assert.ok(!Number.isNaN(Date.parse(item.pubDate!)));
        assert.match((item as unknown as { contentEncoded: string }).contentEncoded, /<p>/);
      }
    }
    assert.equal(titles.size, LANGUAGE_CODES.length, 'feed titles are localized');
  });
}

test('/en/feed.xml redirects to /feed.xml', async () => {
  const r = await get(site.url, '/en/feed.xml');
  assert.equal(r.status, 301);
  assert.equal(r.headers.get('location'), '/feed.xml');
});

test('sitemap.xml lists every available page with hreflang alternates', async () => {
  const c = await corpus('content');
  const r = await get(site.url, '/sitemap.xml');
  assert.equal(r.status, 200);
  const doc = new XMLParser({ ignoreAttributes: false }).parse(r.text);
  const urls = doc.urlset.url as { loc: string; 'xhtml:link': { '@_hreflang': string }[] | { '@_hreflang': string } }[];
  const locs = new Set(urls.map((u) => new URL(u.loc).pathname));
  for (const p of c.posts) {
    for (const lang of LANGUAGE_CODES) {
      const path = `${lang === 'en' ? '' : `/${lang}`}/${p.slug}`;
      assert.equal(locs.has(path), c.stateOf(p.slug, lang) === 'available', path);
    }
  }
  const post = urls.find((u) => new URL(u.loc).pathname === '/the-slow-web')!;
  const langs = [post['xhtml:link']].flat().map((l) => l['@_hreflang']);
  assert.ok(langs.includes('x-default') && langs.includes('en') && langs.length > 2);
});
