import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCore } from '../../src/core/index.ts';
import { FolioError } from '../../src/core/errors.ts';
import type { Catalog, EntryBody, PostRecord } from '../../src/core/types.ts';

const body: EntryBody = { content_html: '<p>x</p>', content_markdown: 'x', reading_time: 1, links: [], media: [], structure: { sections: [] } };
const post = (slug: string, date: string, entries: PostRecord['entries']): PostRecord => ({
  slug, date, author: 'A', featured_image: null, categories: [{ slug: 'c', name: 'C' }], tags: [], images: [], entries,
});
const en = { title: 'T', page_reading_time: 1, state: 'available' as const };
const tr = (state: 'available' | 'stale') => ({ title: 'T fr', page_reading_time: 1, provider: 'p', automated: true, verified: false, state });

function core(serveStale: boolean) {
  const catalog: Catalog = {
    site_url: 'https://example.org',
    base: '',
    site: { name: 'S', description: 'D', descriptions: {}, author: 'A', attribution: 'cite us', attributions: {}, serve_stale: serveStale, robots_disallow: [], product: { title: 'P', description: 'd', format: 'PDF', price_usd: 1, currency: 'USD', landing_url: '/p', download_url: '/d' } },
    term_names: { categories: { c: { fr: 'Cé' } }, tags: {} },
    posts: [
      post('c-newest', '2026-03-01T00:00:00Z', { en, fr: tr('available') }),
      post('b-stale', '2026-02-01T00:00:00Z', { en, fr: tr('stale') }),
      post('a-english', '2026-01-01T00:00:00Z', { en }),
    ],
    pages: [{ slug: 'about', entries: { en, fr: tr('available'), de: tr('stale') } }],
    menu: [{ kind: 'page', slug: 'about' }],
  };
  return createCore(catalog, { get: async () => body }, { load: async () => ({ match: () => ({ ids: [], missing: () => [], terms: () => [] }), text: () => undefined, forms: () => [], suggest: () => undefined, readMissing: async () => false }) });
}

const q = (s: string) => new URLSearchParams(s);

test('stale counts as unavailable by default: lists drop it, detail is 404 stale', async () => {
  const c = core(false);
  assert.deepEqual(c.posts.list(q('lang=fr')).data.map((d) => d.slug), ['c-newest']);
  await assert.rejects(c.posts.get('b-stale', q('lang=fr')), (e: unknown) => e instanceof FolioError && e.details.status === 'stale');
  await assert.rejects(c.posts.get('a-english', q('lang=fr')), (e: unknown) => e instanceof FolioError && e.details.status === 'missing');
});

test('a standalone page follows the posts\' translation states and never joins their list', async () => {
  const c = core(false);
  assert.equal((await c.pages.get('about', q('lang=fr'))).data.language, 'fr');
  await assert.rejects(c.pages.get('about', q('lang=de')), (e: unknown) => e instanceof FolioError && e.details.status === 'stale');
  await assert.rejects(c.pages.get('about', q('lang=ja')), (e: unknown) => e instanceof FolioError && e.details.status === 'missing');
  assert.equal((await c.pages.get('about', q('lang=ja&fallback=en'))).data.translation!.fallback_used, true);
  assert.equal((await core(true).pages.get('about', q('lang=de'))).data.translation!.stale, true);
  await assert.rejects(c.posts.get('about', q('')), (e: unknown) => e instanceof FolioError && e.status === 404);
  assert.ok(!c.posts.list(q('per_page=100')).data.some((d) => d.slug === 'about'));
});

test('serve_stale serves stale translations marked stale', async () => {
  const c = core(true);
  const list = c.posts.list(q('lang=fr'));
  assert.deepEqual(list.data.map((d) => d.slug), ['c-newest', 'b-stale']);
  assert.equal(list.data[1]!.translation!.stale, true);
  assert.equal((await c.posts.get('b-stale', q('lang=fr'))).data.translation!.stale, true);
});

test('fallback merges English in list order and says so', () => {
  const list = core(false).posts.list(q('lang=fr&fallback=en'));
  assert.deepEqual(list.data.map((d) => [d.slug, d.language, d.translation?.fallback_used]), [
    ['c-newest', 'fr', false],
    ['b-stale', 'en', true],
    ['a-english', 'en', true],
  ]);
  assert.equal(list.meta.is_translation, true);
  assert.equal(typeof list.meta.disclaimer, 'string');
  assert.deepEqual(list.meta.available_languages, ['en', 'fr']);
});

test('an all-fallback page is not a translation and has no disclaimer', () => {
  const list = core(false).posts.list(q('lang=fr&fallback=en&page=2&per_page=2'));
  assert.deepEqual(list.data.map((d) => d.slug), ['a-english']);
  assert.equal(list.meta.is_translation, false);
  assert.equal(list.meta.automated_translation, false);
  assert.equal(list.meta.disclaimer, undefined);
});

test('pagination maths', () => {
  const c = core(false);
  assert.deepEqual(c.posts.list(q('per_page=2&page=2')).pagination, { page: 2, per_page: 2, total: 3, total_pages: 2 });
  assert.deepEqual(c.posts.list(q('lang=de')).pagination, { page: 1, per_page: 10, total: 0, total_pages: 0 });
});

test('taxonomy counts follow availability; names follow the language', () => {
  const c = core(false);
  assert.deepEqual(c.terms.list('categories', q('')).data, [{ slug: 'c', name: 'C', count: 3 }]);
  assert.deepEqual(c.terms.list('categories', q('lang=fr')).data, [{ slug: 'c', name: 'Cé', count: 1 }]);
  assert.deepEqual(c.terms.list('categories', q('lang=de')).data, []);
});
