import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCore } from '../../src/core/index.ts';
import { llmsTxt } from '../../src/discovery/llms.ts';
import type { Catalog, EntryBody, PostRecord } from '../../src/core/types.ts';

const body: EntryBody = { content_html: '<p>x</p>', content_markdown: 'x', reading_time: 1, links: [], media: [], structure: { sections: [] } };
const en = { title: 'T', page_reading_time: 1, state: 'available' as const };
const fr = { title: 'T fr', page_reading_time: 1, provider: 'p', automated: true, verified: false, state: 'available' as const };

/** `n` posts newest first (post-{n-1} the newest), each in English, every other one in French too. */
function core(n: number) {
  const posts: PostRecord[] = Array.from({ length: n }, (_, i) => {
    const k = n - 1 - i;
    return { slug: `post-${k}`, date: new Date(Date.UTC(2020, 0, 1 + k)).toISOString(), author: 'A', featured_image: null, categories: [], tags: [], images: [], entries: { en: { ...en, title: `Post ${k}` }, ...(k % 2 ? {} : { fr: { ...fr, title: `Billet ${k}` } }) } };
  });
  const catalog: Catalog = {
    site_url: 'https://example.org',
    base: '',
    site: { name: 'S', description: 'D', descriptions: {}, author: 'A', attribution: 'cite us', attributions: {}, serve_stale: false, robots_disallow: [], product: { title: 'P', description: 'd', format: 'PDF', price_usd: 1, currency: 'USD', landing_url: '/p', download_url: '/d' } },
    term_names: { categories: {}, tags: {} },
    posts,
    pages: [],
    menu: [],
  };
  return createCore(catalog, { get: async () => body }, { load: async () => ({ match: () => ({ ids: [], missing: () => [], terms: () => [] }), text: () => undefined, forms: () => [], suggest: () => undefined, readMissing: async () => false }) });
}

const listed = (text: string) => [...text.matchAll(/^- \[(?:Post|Billet) (\d+)\]/gm)].map((m) => Number(m[1]));

test('llms.txt lists every post available in its language while they are within the bound, and no more line', () => {
  const text = llmsTxt(core(10), 'en', 10);
  assert.deepEqual(listed(text), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  assert.ok(!text.includes('[Every post]'));
});

test('past the bound: the newest posts of the language, then a link to the API list of them all', () => {
  const text = llmsTxt(core(30), 'en', 10);
  assert.deepEqual(listed(text), [29, 28, 27, 26, 25, 24, 23, 22, 21, 20]);
  assert.match(text, /^- \[Every post\]\(https:\/\/example\.org\/api\/posts\): these are the 10 newest of 30; the API lists them all, newest first, page by page \(`page=2`, …\), and https:\/\/example\.org\/sitemap\.xml names every page$/m);
  const french = llmsTxt(core(30), 'fr', 10);
  assert.deepEqual(listed(french), [28, 26, 24, 22, 20, 18, 16, 14, 12, 10], 'the newest in French');
  assert.match(french, /\[Every post\]\(https:\/\/example\.org\/api\/posts\?lang=fr\): these are the 10 newest of 15;/);
});
