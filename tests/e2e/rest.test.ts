import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { slugify } from '../../src/pipeline/load/slugify.ts';

const site = useServer();

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ABSOLUTE = /^https?:\/\/[^/]+\//;

function assertSummary(item: Record<string, unknown>, lang: string) {
  for (const key of ['slug', 'title', 'date', 'author', 'url', 'language'] as const) assert.equal(typeof item[key], 'string', key);
  assert.match(item.date as string, ISO);
  if (item.modified !== undefined) assert.match(item.modified as string, ISO);
  assert.match(item.url as string, ABSOLUTE);
  assert.match(item.english_url as string, ABSOLUTE);
  assert.ok(item.featured_image === null || /^\/(sandbox\/)?media\//.test(item.featured_image as string), 'featured_image is a path or null');
  assert.ok(Array.isArray(item.categories) && Array.isArray(item.tags));
  assert.ok(LANGUAGE_CODES.includes(item.language as string));
  assert.equal(typeof item.is_translation, 'boolean');
  assert.ok(!(item.translations_available as string[]).includes(item.language as string));
  assert.equal(item.content_html, undefined, 'summaries carry no body');
  if (item.language === 'en') {
    assert.equal(item.is_translation, false);
    assert.ok(item.url === item.english_url);
  } else {
    assert.equal(item.is_translation, true);
    assert.ok((item.translations_available as string[]).includes('en'));
    assert.ok((item.url as string).includes(`/${item.language}/`));
  }
  if (item.language === 'en' && lang === 'en') assert.equal(item.translation, undefined, 'English items carry no translation object');
  if (item.translation) {
    const t = item.translation as Record<string, unknown>;
    for (const k of ['automated', 'verified', 'stale', 'fallback_used']) assert.equal(typeof t[k], 'boolean', k);
    assert.equal(t.source_language, 'en');
    assert.equal(t.target_language, lang);
  }
}

function assertMeta(meta: Record<string, unknown>, lang: string) {
  assert.equal(meta.language, lang);
  assert.equal(meta.source_language, 'en');
  assert.equal(typeof meta.is_translation, 'boolean');
  assert.ok(Array.isArray(meta.available_languages));
}

describe('posts list', () => {
  test('default page: newest first, 10 per page, truthful pagination, attribution and meta', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/posts');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^application\/json/);
    assert.equal(typeof r.json.attribution, 'string');
    assert.deepEqual(r.json.pagination, { page: 1, per_page: 10, total: c.posts.length, total_pages: Math.ceil(c.posts.length / 10) });
    assert.deepEqual(r.json.data.map((p: { slug: string }) => p.slug), c.byDate.slice(0, 10).map((p) => p.slug));
    for (const item of r.json.data) assertSummary(item, 'en');
    assertMeta(r.json.meta, 'en');
    assert.equal(r.json.meta.is_translation, false);
    assert.equal(r.json.meta.disclaimer, undefined);
  });

  test('translations_available lists exactly the languages a post is available in', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/posts?per_page=100');
    for (const item of r.json.data) {
      const expected = LANGUAGE_CODES.filter((l) => l !== 'en' && c.stateOf(item.slug, l) === 'available');
      assert.deepEqual(item.translations_available, expected, item.slug);
    }
  });

  test('paging: second page, per_page=100, and a page past the end', async () => {
    const c = await corpus('content');
    const p2 = await get(site.url, '/api/posts?page=2&per_page=5');
    assert.deepEqual(p2.json.data.map((p: { slug: string }) => p.slug), c.byDate.slice(5, 10).map((p) => p.slug));
    const all = await get(site.url, '/api/posts?per_page=100');
    assert.equal(all.json.data.length, c.posts.length);
    const past = await get(site.url, '/api/posts?page=99');
    assert.equal(past.status, 200);
    assert.deepEqual(past.json.data, []);
    assert.deepEqual(past.json.pagination, { page: 99, per_page: 10, total: c.posts.length, total_pages: Math.ceil(c.posts.length / 10) });
  });

  test('malformed page and per_page are 400s naming the parameter', async () => {
    for (const [q, name] of [['page=0', 'page'], ['page=01', 'page'], ['page=1e2', 'page'], ['page=%2B1', 'page'], ['page=', 'page'], ['page=-1', 'page'], ['page=1.5', 'page'],
      ['per_page=0', 'per_page'], ['per_page=101', 'per_page'], ['per_page=abc', 'per_page']]) {
      for (const path of ['/api/posts', '/mcp/v1/posts', '/api/categories/technology', '/api/tags/web']) {
        const r = await get(site.url, `${path}?${q}`);
        assert.equal(r.status, 400, `${path}?${q}`);
        assert.match(r.json.error, new RegExp(`\\?${name}=`));
      }
    }
  });

  test('unsupported lang is 400 with supported_languages; lang matches case-insensitively', async () => {
    for (const path of ['/api/posts', '/api/posts/the-slow-web', '/api/categories', '/api/tags', '/api/site', '/api/categories/technology', '/api/tags/web', '/mcp/v1/posts']) {
      const r = await get(site.url, `${path}?lang=xx`);
      assert.equal(r.status, 400, path);
      assert.equal(typeof r.json.error, 'string');
      assert.deepEqual(r.json.supported_languages, [...LANGUAGE_CODES]);
    }
    const upper = await get(site.url, '/api/posts?lang=PT-BR');
    assert.equal(upper.status, 200);
    assert.equal(upper.json.meta.language, 'pt-br');
  });

  test('fallback accepts only en', async () => {
    const r = await get(site.url, '/api/posts?lang=fr&fallback=fr');
    assert.equal(r.status, 400);
    assert.match(r.json.error, /fallback/);
  });

  test('a translated list holds only posts available in that language, with disclaimer', async () => {
    const c = await corpus('content');
    for (const lang of LANGUAGE_CODES.filter((l) => l !== 'en')) {
      const r = await get(site.url, `/api/posts?lang=${lang}&per_page=100`);
      const expected = c.byDate.filter((p) => c.stateOf(p.slug, lang) === 'available').map((p) => p.slug);
      assert.deepEqual(r.json.data.map((p: { slug: string }) => p.slug), expected, lang);
      assert.equal(r.json.pagination.total, expected.length);
      for (const item of r.json.data) {
        assertSummary(item, lang);
        assert.equal(item.language, lang);
        assert.equal(item.translation.fallback_used, false);
        assert.equal(item.translation.stale, false);
      }
      assertMeta(r.json.meta, lang);
      assert.equal(r.json.meta.is_translation, expected.length > 0);
      assert.equal(r.json.meta.automated_translation, expected.length > 0);
      assert.equal(typeof r.json.meta.disclaimer, expected.length > 0 ? 'string' : 'undefined');
    }
  });

  test('fallback=en fills untranslated posts with English, marked as fallback', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/posts?lang=de&fallback=en&per_page=100');
    assert.equal(r.json.pagination.total, c.posts.length);
    for (const item of r.json.data) {
      assertSummary(item, 'de');
      if (c.stateOf(item.slug, 'de') === 'available') {
        assert.equal(item.language, 'de');
      } else {
        assert.equal(item.language, 'en');
        assert.equal(item.is_translation, false);
        assert.equal(item.translation.fallback_used, true);
        assert.equal(item.translation.target_language, 'de');
      }
    }
  });

  test('meta.available_languages names the languages with at least one available post', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/posts');
    assert.deepEqual(r.json.meta.available_languages, LANGUAGE_CODES.filter((l) => c.availableIn(l).length > 0));
  });

  test('/mcp/v1/posts is the same answer as /api/posts', async () => {
    for (const q of ['', '?page=2&per_page=3', '?lang=ja']) {
      const a = await get(site.url, `/api/posts${q}`);
      const b = await get(site.url, `/mcp/v1/posts${q}`);
      assert.equal(a.text, b.text, q);
    }
  });

  test('unknown parameters are ignored', async () => {
    const a = await get(site.url, '/api/posts');
    const b = await get(site.url, '/api/posts?utm_source=x&foo=bar');
    assert.equal(a.text, b.text);
  });
});

describe('post detail', () => {
  test('English detail: body, reading time, links, media, structure', async () => {
    const c = await corpus('content');
    for (const p of c.posts) {
      const r = await get(site.url, `/api/posts/${p.slug}`);
      assert.equal(r.status, 200, p.slug);
      const d = r.json.data;
      assertSummary({ ...d, content_html: undefined }, 'en');
      assert.equal(d.title, p.english.title);
      assert.ok(d.content_html.includes('<h2'), 'rendered HTML');
      assert.ok(d.content_markdown.length > 100);
      assert.ok(Number.isInteger(d.reading_time) && d.reading_time >= 1);
      const words = p.english.body.split(/\s+/).filter(Boolean).length;
      assert.ok(Math.abs(d.reading_time - words / 230) <= 1, `reading time ${d.reading_time} for ${words} words`);
      assert.ok(d.links.length >= 3);
      assert.equal(new Set(d.links).size, d.links.length, 'links are deduplicated');
      for (const link of d.links) assert.match(link, /^https?:\/\//);
      const mdLinks = [...p.english.body.matchAll(/\]\((https?:\/\/(?:[^()\s]|\([^()\s]*\))+)\)/g)].map((m) => m[1]);
      assert.deepEqual(d.links, [...new Set(mdLinks)], 'every external link, in order');
      for (const m of d.media) {
        assert.ok(m.type === 'image' || m.type === 'video');
        assert.match(m.src, ABSOLUTE);
      }
      const headings = [...p.english.body.matchAll(/^(#{2,4}) (.+)$/gm)].map((m) => m[1]!.length);
      assert.deepEqual(d.structure.sections.map((s: { level: number }) => s.level), headings);
      for (const s of d.structure.sections) assert.ok(typeof s.text === 'string' && s.text.length > 0);
      assert.ok(r.json.meta.available_languages.includes('en'));
    }
  });

  test("reading_time is the contract's: words/230, characters/500 for zh, ja and ko (DECISIONS.md)", async () => {
    const c = await corpus('content');
    for (const p of c.posts) {
      for (const t of p.translations.filter((x) => x.source_hash)) {
        const r = await get(site.url, `/api/posts/${p.slug}?lang=${t.lang}`);
        if (r.status !== 200) continue;
        const units = ['zh', 'ja', 'ko'].includes(t.lang) ? (t.body.match(/[\p{L}\p{N}]/gu) ?? []).length / 500 : t.body.split(/\s+/).filter(Boolean).length / 230;
        assert.ok(Math.abs(r.json.data.reading_time - units) <= 1, `${p.slug} ${t.lang}: ${r.json.data.reading_time} for ${units.toFixed(2)}`);
      }
    }
  });

  test('images and video are reported with absolute URLs', async () => {
    const r = await get(site.url, '/api/posts/tidal-energy');
    const types = r.json.data.media.map((m: { type: string }) => m.type);
    assert.ok(types.includes('image') && types.includes('video'));
    assert.match(r.json.data.featured_image, /^\/media\/tidal-energy\/cover\.jpg$/);
    for (const m of r.json.data.media) {
      const media = await fetch(m.src.replace(/^https?:\/\/[^/]+/, site.url));
      assert.equal(media.status, 200, m.src);
    }
  });

  test('an available translation', async () => {
    const c = await corpus('content');
    const p = c.posts.find((x) => c.stateOf(x.slug, 'ja') === 'available')!;
    const r = await get(site.url, `/api/posts/${p.slug}?lang=ja`);
    assert.equal(r.status, 200);
    const d = r.json.data;
    assert.equal(d.language, 'ja');
    assert.equal(d.is_translation, true);
    assert.equal(d.title, p.translations.find((t) => t.lang === 'ja')!.title);
    assert.deepEqual(
      { ...d.translation },
      { automated: true, provider: 'llm:unrecorded', source_language: 'en', target_language: 'ja', verified: false, stale: false, fallback_used: false },
    );
    assert.ok(d.translations_available.includes('en') && !d.translations_available.includes('ja'));
    assert.equal(r.json.meta.is_translation, true);
    assert.equal(r.json.meta.automated_translation, true);
    assert.equal(typeof r.json.meta.disclaimer, 'string');
    assert.deepEqual(r.json.meta.available_languages, LANGUAGE_CODES.filter((l) => c.stateOf(p.slug, l) === 'available'));
  });

  for (const state of ['stale', 'missing'] as const) {
    test(`a ${state} translation is 404 with the translation-unavailable body, and fallback=en serves English`, async () => {
      const c = await corpus('content');
      const { slug, lang } = c.find(state);
      const r = await get(site.url, `/api/posts/${slug}?lang=${lang}`);
      assert.equal(r.status, 404);
      assert.equal(r.json.slug, slug);
      assert.equal(r.json.language, lang);
      assert.equal(r.json.status, state);
      assert.equal(typeof r.json.error, 'string');
      assert.match(r.json.english_url, new RegExp(`^https?://[^/]+/${slug}$`));
      const fallback = new URL(r.json.fallback_url);
      assert.equal(fallback.pathname, `/api/posts/${slug}`);
      assert.equal(fallback.searchParams.get('lang'), lang);
      assert.equal(fallback.searchParams.get('fallback'), 'en');
      const f = await get(site.url, fallback.pathname + fallback.search);
      assert.equal(f.status, 200);
      assert.equal(f.json.data.language, 'en');
      assert.equal(f.json.data.is_translation, false);
      assert.equal(f.json.data.translation.fallback_used, true);
      assert.equal(f.json.data.translation.target_language, lang);
      assert.equal(f.json.meta.language, lang);
    });
  }

  test('unknown post is 404 with an error message', async () => {
    for (const slug of ['no-such-post', 'UPPER', 'a--b']) {
      const r = await get(site.url, `/api/posts/${slug}`);
      assert.equal(r.status, 404);
      assert.equal(typeof r.json.error, 'string');
    }
  });
});

describe('taxonomies', () => {
  for (const kind of ['categories', 'tags'] as const) {
    test(`${kind}: counts per language match the content`, async () => {
      const c = await corpus('content');
      for (const lang of ['en', 'fr', 'hi']) {
        const r = await get(site.url, `/api/${kind}?lang=${lang}`);
        assert.equal(r.status, 200);
        assert.equal(typeof r.json.attribution, 'string');
        const counts = new Map<string, number>();
        // By slug: the slug comes from the English name in every language, the name is the language's.
        for (const p of c.availableIn(lang)) for (const name of p.english[kind]) counts.set(slugify(name), (counts.get(slugify(name)) ?? 0) + 1);
        assert.deepEqual(
          new Map(r.json.data.map((t: { slug: string; count: number }) => [t.slug, t.count])),
          counts,
          `${kind} in ${lang}`,
        );
        for (const t of r.json.data) assert.match(t.slug, /^[a-z0-9-]+$/);
      }
    });

    test(`${kind}/{slug}: a collection of that term's posts; unknown is 404`, async () => {
      const list = await get(site.url, `/api/${kind}`);
      const term = list.json.data[0];
      const r = await get(site.url, `/api/${kind}/${term.slug}?per_page=100`);
      assert.equal(r.status, 200);
      assert.equal(r.json.pagination.total, term.count);
      for (const item of r.json.data) {
        assertSummary(item, 'en');
        assert.ok(item[kind].includes(term.name));
      }
      const missing = await get(site.url, `/api/${kind}/no-such-term`);
      assert.equal(missing.status, 404);
      assert.equal(typeof missing.json.error, 'string');
    });
  }
});

describe('site, languages, product, status, index', () => {
  test('/api/languages', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/languages');
    assert.equal(r.status, 200);
    assert.equal(r.json.default_language, 'en');
    assert.equal(r.json.total_languages, 14);
    assert.equal(r.json.translated_languages, LANGUAGE_CODES.filter((l) => l !== 'en' && c.availableIn(l).length > 0).length);
    assert.deepEqual(r.json.languages.map((l: { code: string }) => l.code), [...LANGUAGE_CODES]);
    for (const l of r.json.languages) {
      for (const k of ['code', 'native_name', 'name', 'dir', 'html_lang', 'hreflang', 'site_url', 'api_url', 'feed_url']) assert.equal(typeof l[k], 'string', k);
      assert.equal(l.dir, l.code === 'ar' ? 'rtl' : 'ltr');
      assert.match(l.site_url, l.code === 'en' ? /^https?:\/\/[^/]+\/$/ : new RegExp(`/${l.code}/$`));
      assert.match(l.api_url, new RegExp(`/api/posts\\?lang=${l.code}$`));
      assert.match(l.feed_url, l.code === 'en' ? /[^/]\/feed\.xml$/ : new RegExp(`/${l.code}/feed\\.xml$`));
    }
  });

  test('/api/site', async () => {
    const c = await corpus('content');
    const r = await get(site.url, '/api/site');
    for (const k of ['name', 'description', 'author', 'url', 'attribution']) assert.equal(typeof r.json[k], 'string', k);
    assert.equal(r.json.post_count, c.posts.length);
    const fr = await get(site.url, '/api/site?lang=fr');
    assert.notEqual(fr.json.description, r.json.description, 'localized description');
    assert.equal(fr.json.post_count, c.posts.length);
  });

  test('/api/products/the-value-layer', async () => {
    const r = await get(site.url, '/api/products/the-value-layer');
    assert.equal(r.status, 200);
    for (const k of ['attribution', 'title', 'description', 'format', 'currency', 'landing_url', 'download_url', 'api_url']) assert.equal(typeof r.json[k], 'string', k);
    assert.equal(typeof r.json.price_usd, 'number');
    const download = await fetch(r.json.download_url.replace(/^https?:\/\/[^/]+/, site.url));
    assert.equal(download.status, 200);
  });

  test('/status', async () => {
    const r = await get(site.url, '/status');
    assert.equal(r.status, 200);
    assert.equal(r.json.status, 'ok');
    for (const k of ['service', 'timestamp', 'host', 'version']) assert.equal(typeof r.json[k], 'string', k);
    assert.ok(Math.abs(Date.parse(r.json.timestamp) - Date.now()) < 60_000);
  });

  test('/api: JSON index for programs, HTML for browsers', async () => {
    const r = await get(site.url, '/api');
    assert.equal(r.status, 200);
    assert.equal(typeof r.json.attribution, 'string');
    const paths = r.json.endpoints.map((e: { path: string }) => e.path);
    for (const p of ['/api/posts', '/api/posts/:slug', '/api/languages', '/api/site', '/api/categories', '/api/tags', '/mcp/v1/posts', '/status']) assert.ok(paths.includes(p), p);
    const html = await get(site.url, '/api', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.match(html.headers.get('content-type')!, /^text\/html/);
    assert.match(html.text, /<dl class="endpoints">/);
  });
});

describe('sandbox', () => {
  test('mirrors the REST surface over its own fixture corpus', async () => {
    const c = await corpus('sandbox');
    const r = await get(site.url, '/sandbox/api/posts');
    assert.equal(r.status, 200);
    assert.equal(r.json.pagination.total, c.posts.length);
    assert.deepEqual(r.json.data.map((p: { slug: string }) => p.slug), c.byDate.map((p) => p.slug));
    for (const item of r.json.data) {
      assertSummary(item, 'en');
      assert.match(item.url, /\/sandbox\//);
    }
    const stale = c.find('stale');
    const s = await get(site.url, `/sandbox/api/posts/${stale.slug}?lang=${stale.lang}`);
    assert.equal(s.status, 404);
    assert.equal(s.json.status, 'stale');
    assert.match(s.json.fallback_url, /\/sandbox\/api\/posts\//);
    const missing = c.find('missing');
    assert.equal((await get(site.url, `/sandbox/api/posts/${missing.slug}?lang=${missing.lang}`)).json.status, 'missing');
    const media = await get(site.url, '/sandbox/api/posts/media-sample');
    assert.deepEqual(new Set(media.json.data.media.map((m: { type: string }) => m.type)), new Set(['image', 'video']));
    assert.ok(media.json.data.links.length >= 2);
    for (const path of ['/sandbox/api/languages', '/sandbox/api/site', '/sandbox/api/categories', '/sandbox/api/tags', '/sandbox/api/products/the-value-layer', '/sandbox/mcp/v1/posts', '/sandbox/status', '/sandbox/api']) {
      assert.equal((await get(site.url, path)).status, 200, path);
    }
    assert.equal((await get(site.url, '/sandbox/api/site')).json.post_count, c.posts.length);
  });
});
