import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sitemapMaxUrls, sitemapParts } from '../../src/pipeline/publish/sitemap.ts';
import { SITEMAP_MAX_URLS_DEFAULT } from '../../src/core/limits.ts';

const entries = (n: number, size = 10) => Array.from({ length: n }, (_, i) => ({ xml: `<url>${String(i).padEnd(size, 'x')}</url>` }));

test('a sitemap is cut in order into parts of at most the bound of URLs; a site within it is one part', () => {
  assert.deepEqual(sitemapParts(entries(5), 5).map((p) => p.length), [5]);
  assert.deepEqual(sitemapParts(entries(11), 5).map((p) => p.length), [5, 5, 1]);
  assert.deepEqual(sitemapParts(entries(11), 5).flat(), entries(11));
  assert.deepEqual(sitemapParts([], 5), [[]], 'no URLs: one empty urlset');
});

test('a part also ends before it would pass the byte bound, with at least one URL in each', () => {
  // 300 bytes a URL, a bound of 1,000 bytes with the urlset's own ~190: three URLs a part at most.
  const parts = sitemapParts(entries(7, 300), 50, 1_000);
  assert.ok(parts.length > 1 && parts.every((p) => p.length >= 1));
  assert.deepEqual(parts.flat(), entries(7, 300));
  assert.deepEqual(sitemapParts(entries(2, 5_000), 50, 1_000).map((p) => p.length), [1, 1], 'a URL larger than the bound stands alone');
});

test('FOLIO_SITEMAP_MAX_URLS sets the bound: a whole number from 1 to 50,000, else a clear error', () => {
  assert.equal(sitemapMaxUrls({}), SITEMAP_MAX_URLS_DEFAULT);
  assert.equal(sitemapMaxUrls({ FOLIO_SITEMAP_MAX_URLS: '' }), SITEMAP_MAX_URLS_DEFAULT);
  assert.equal(sitemapMaxUrls({ FOLIO_SITEMAP_MAX_URLS: '40' }), 40);
  for (const bad of ['0', '-1', '2.5', 'many', '50001']) assert.throws(() => sitemapMaxUrls({ FOLIO_SITEMAP_MAX_URLS: bad }), /FOLIO_SITEMAP_MAX_URLS=.*whole number/, bad);
});
