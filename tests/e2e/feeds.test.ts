import { test } from 'node:test';
import assert from 'node:assert/strict';
import Parser from 'rss-parser';
import { XMLParser } from 'fast-xml-parser';
import { get, useServer } from '../helpers/server.ts';
import { call } from '../helpers/connection.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES, language } from '../../src/core/languages.ts';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { JSON_FEED_1_1 } from '../helpers/jsonfeed-schema.ts';

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

// strictRequired is off: the schema's anyOf branches name members the parent declares.
const ajv = new Ajv({ strict: true, strictRequired: false, allErrors: true });
addFormats.default(ajv);
const validJsonFeed = ajv.compile(JSON_FEED_1_1);

type RssItem = { title: string; link: string; guid: string; pubDate: string; contentEncoded: string; categories?: string[]; creator: string };

for (const root of ['content', 'sandbox'] as const) {
  test(`Atom and JSON Feed 1.1 of every language of ${root} hold the RSS feed's items, read by real parsers`, async () => {
    const prefix = root === 'sandbox' ? '/sandbox' : '';
    let entries = 0;
    for (const lang of LANGUAGE_CODES) {
      const dir = `${prefix}${lang === 'en' ? '' : `/${lang}`}`;
      const rss = await parser.parseString((await get(site.url, `${dir}/feed.xml`)).text);
      const items = rss.items as unknown as RssItem[];

      const atomRes = await get(site.url, `${dir}/atom.xml`);
      assert.equal(atomRes.status, 200);
      assert.match(atomRes.headers.get('content-type')!, /^application\/atom\+xml/);
      const atom = await parser.parseString(atomRes.text);
      assert.equal(atom.title, rss.title);
      assert.equal(atom.link, rss.link, `${dir}/atom.xml links the language home`);
      assert.deepEqual(atom.items.map((i) => [i.title, i.link, (i as unknown as { id: string }).id, Date.parse(i.isoDate!)]), items.map((i) => [i.title, i.link, i.guid, Date.parse(i.pubDate)]), `${dir}/atom.xml`);
      atom.items.forEach((i, k) => assert.equal(i.content, items[k]!.contentEncoded, 'the same body'));
      const doc = new XMLParser({ ignoreAttributes: false }).parse(atomRes.text).feed;
      assert.equal(doc['@_xml:lang'], language(lang).hreflang);
      assert.ok(!Number.isNaN(Date.parse(doc.updated)), 'the feed has its updated date, items or not');
      assert.equal([doc.link].flat().find((l: Record<string, string>) => l['@_rel'] === 'self')['@_href'], `http://localhost:4321${dir}/atom.xml`);
      entries += atom.items.length;

      const jsonRes = await get(site.url, `${dir}/feed.json`);
      assert.equal(jsonRes.status, 200);
      assert.match(jsonRes.headers.get('content-type')!, /^application\/feed\+json/);
      const feed = jsonRes.json;
      assert.ok(validJsonFeed(jsonRes.json), `${dir}/feed.json: ${ajv.errorsText(validJsonFeed.errors)}`);
      assert.equal(feed.title, rss.title);
      assert.equal(feed.language, language(lang).hreflang);
      assert.equal(feed.feed_url, `http://localhost:4321${dir}/feed.json`);
      assert.equal(feed.home_page_url, rss.link);
      assert.deepEqual(
        feed.items.map((i: Record<string, unknown>) => [i.id, i.url, i.title, Date.parse(String(i.date_published)), i.content_html, (i.authors as { name: string }[])[0]!.name, i.tags]),
        items.map((i) => [i.guid, i.link, i.title, Date.parse(i.pubDate), i.contentEncoded, i.creator, i.categories ?? []]),
        `${dir}/feed.json`,
      );
    }
    assert.ok(entries > 0);
  });
}

test('feed bodies use absolute URLs: a reader shows them away from the site', async () => {
  const feed = (await get(site.url, '/feed.json')).json;
  const tide = feed.items.find((i: { id: string }) => i.id.endsWith('/tidal-energy')).content_html as string;
  const refs = [...tide.matchAll(/\s(?:src|href|poster)="([^"]+)"/g)].map((m) => m[1]!).concat([...tide.matchAll(/srcset="([^"]+)"/g)].flatMap((m) => m[1]!.split(', ').map((c) => c.split(' ')[0]!)));
  assert.ok(refs.some((r) => r.endsWith('.avif')) && refs.some((r) => r.endsWith('/figure-1.jpg')), 'the figure and its variants are there');
  for (const ref of refs) assert.match(ref, /^https?:\/\//, ref);
  const atom = await parser.parseString((await get(site.url, '/atom.xml')).text);
  assert.ok(atom.items.find((i) => i.link!.endsWith('/tidal-energy'))!.content!.includes('src="http://localhost:4321/media/tidal-energy/figure-1.jpg"'));
});

test('every page links the RSS, Atom and JSON feeds of its language', async () => {
  const sitemap = new XMLParser({ ignoreAttributes: false }).parse((await get(site.url, '/sitemap.xml')).text);
  const pages = (sitemap.urlset.url as { loc: string }[]).map((u) => new URL(u.loc).pathname);
  const c = await corpus('content');
  const missing = c.find('missing');
  pages.push('/search', '/ar/search', '/no-such-page', `/${missing.lang}/${missing.slug}`, '/sandbox/', '/sandbox/fr/');
  for (const path of pages) {
    const html = (await get(site.url, path)).text;
    const lang = /^\/(?:sandbox\/)?([a-z]{2}(?:-br)?)\//.exec(path.endsWith('/') ? path : `${path}/`)?.[1];
    const dir = `${path.startsWith('/sandbox') ? '/sandbox' : ''}${lang && LANGUAGE_CODES.includes(lang) && lang !== 'en' ? `/${lang}` : ''}`;
    const links = [...html.matchAll(/<link rel="alternate" type="(application\/[a-z+]+)"[^>]* href="([^"]+)"/g)].map((m) => [m[1], new URL(m[2]!).pathname]);
    assert.deepEqual(links, [['application/rss+xml', `${dir}/feed.xml`], ['application/atom+xml', `${dir}/atom.xml`], ['application/feed+json', `${dir}/feed.json`]], path);
  }
  assert.ok(pages.length > 50, `${pages.length} pages`);
});

test('the feeds are in the OpenAPI document, llms.txt and agents.md', async () => {
  const doc = (await get(site.url, '/openapi.json')).json;
  for (const path of ['/feed.xml', '/{lang}/feed.xml', '/atom.xml', '/{lang}/atom.xml', '/feed.json', '/{lang}/feed.json']) assert.ok(doc.paths[path]?.get, path);
  assert.ok(doc.paths['/{lang}/feed.json'].get.responses['200'].content['application/feed+json']);
  const llms = (await get(site.url, '/fr/llms.txt')).text;
  for (const file of ['feed.xml', 'atom.xml', 'feed.json']) assert.ok(llms.includes(`(http://localhost:4321/fr/${file})`), `llms.txt links ${file}`);
  const agents = (await get(site.url, '/agents.md')).text;
  for (const file of ['/feed.xml', '/atom.xml', '/feed.json']) assert.ok(agents.includes(`http://localhost:4321${file}`), `agents.md names ${file}`);
});

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

test('a feed reaches a client that takes no coding as plain bytes, and one that takes br or gzip coded (Workers: the client\'s own Accept-Encoding)', async () => {
  for (const file of ['feed.xml', 'atom.xml', 'feed.json']) {
    const plain = await call(site.url, `/${file}`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.status, 200, file);
    assert.equal(plain.headers['content-encoding'], undefined, `${file} is not coded for identity`);
    assert.equal(Number(plain.headers['content-length']), Buffer.byteLength(plain.body), file);
    if (file === 'feed.json') assert.equal((JSON.parse(plain.body) as { version: string }).version, 'https://jsonfeed.org/version/1.1');
    for (const coding of ['br', 'gzip']) {
      const coded = await call(site.url, `/${file}`, { headers: { 'accept-encoding': coding } });
      assert.equal(coded.headers['content-encoding'], coding, `${file} in ${coding}`);
    }
  }
});
