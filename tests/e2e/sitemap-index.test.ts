import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { get, startServer, useServer, type RunningServer } from '../helpers/server.ts';
import { runGroup } from '../helpers/process-group.ts';
import { SITEMAP_MAX_BYTES } from '../../src/core/limits.ts';

/**
 * A site past FOLIO_SITEMAP_MAX_URLS (src/pipeline/publish/sitemap.ts): the demo built with a bound of
 * MAX URLs a file publishes /sitemap.xml as a sitemap index; its parts, fetched from the real server as
 * a crawler would, list together exactly the URLs (with their lastmod and hreflang alternates, in the
 * same order) that the live demo's single urlset lists, each part within the bound.
 */
const MAX = 40;
/** A clean demo build took about 95 s on this loaded machine (2 cores, other builds beside it). */
const BUILD_DEADLINE_MS = 10 * 60_000;

const live = useServer();
let dir: string;
let indexed: RunningServer | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-sitemap-index-'));
  const { code, out: log } = await runGroup(process.execPath, ['scripts/build.ts'], BUILD_DEADLINE_MS, {
    env: { ...process.env, FOLIO_OUT: join(dir, 'dist'), FOLIO_CACHE: join(dir, 'cache'), FOLIO_SITEMAP_MAX_URLS: String(MAX) },
  });
  assert.equal(code, 0, log);
  indexed = await startServer({ FOLIO_OUT: join(dir, 'dist') });
});

after(async () => {
  await indexed?.stop();
  await rm(dir, { recursive: true, force: true });
});

const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['url', 'sitemap', 'xhtml:link'].includes(name) });
type Url = { loc: string; lastmod?: string; 'xhtml:link': { '@_hreflang': string; '@_href': string }[] };

async function xml(base: string, path: string) {
  const r = await get(base, path);
  assert.equal(r.status, 200, path);
  assert.match(r.headers.get('content-type')!, /^application\/xml/, path);
  return { text: r.text, doc: parser.parse(r.text) };
}

test("past the bound, /sitemap.xml is an index whose parts list the single urlset's URLs, each part within the bound", async () => {
  const single = (await xml(live.url, '/sitemap.xml')).doc.urlset.url as Url[];
  assert.ok(single.length > MAX, `the demo has more than ${MAX} URLs (${single.length})`);

  const index = (await xml(indexed!.url, '/sitemap.xml')).doc;
  assert.equal(index.urlset, undefined, 'no urlset past the bound');
  const parts = index.sitemapindex.sitemap as { loc: string; lastmod?: string }[];
  assert.equal(parts.length, Math.ceil(single.length / MAX));
  const listed: Url[] = [];
  for (const [i, part] of parts.entries()) {
    const url = new URL(part.loc);
    assert.equal(url.pathname, `/sitemaps/${i + 1}.xml`);
    const { text, doc } = await xml(indexed!.url, url.pathname);
    const urls = doc.urlset.url as Url[];
    assert.ok(urls.length >= 1 && urls.length <= MAX, `${url.pathname}: ${urls.length} URLs`);
    assert.ok(Buffer.byteLength(text) <= SITEMAP_MAX_BYTES, url.pathname);
    // The part's lastmod is the latest of its URLs'.
    const dates = urls.flatMap((u) => (u.lastmod ? [u.lastmod] : []));
    assert.equal(part.lastmod, dates.length ? dates.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a)) : undefined, url.pathname);
    listed.push(...urls);
  }
  assert.deepEqual(listed, single);
  assert.ok(single.every((u) => u['xhtml:link'].length >= 1), 'every URL has its alternates');
});

test('a root within the bound (the sandbox, 19 URLs) keeps its single urlset, byte for byte', async () => {
  const single = await xml(live.url, '/sandbox/sitemap.xml');
  assert.ok((single.doc.urlset.url as Url[]).length <= MAX);
  assert.equal((await xml(indexed!.url, '/sandbox/sitemap.xml')).text, single.text);
  assert.equal((await get(indexed!.url, '/sandbox/sitemaps/1.xml')).status, 404);
});

test('robots.txt still names /sitemap.xml, and a part past the last is not found', async () => {
  assert.match((await get(indexed!.url, '/robots.txt')).text, /^Sitemap: \S+\/sitemap\.xml$/m);
  const index = (await xml(indexed!.url, '/sitemap.xml')).doc;
  const n = (index.sitemapindex.sitemap as unknown[]).length;
  assert.equal((await get(indexed!.url, `/sitemaps/${n + 1}.xml`)).status, 404);
  // The live demo, within the bound, publishes no parts.
  assert.equal((await get(live.url, '/sitemaps/1.xml')).status, 404);
});
