import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';

const site = useServer();

const JSON_ACCEPT = { accept: 'application/json' };
const MD_ACCEPT = { accept: 'text/markdown' };
/** Vary's names in order (a front such as nginx may list them in another order: the same field to a cache). */
const vary = (h: Headers) => h.get('vary')?.split(/,\s*/).sort().join(', ');

test('a post URL gives HTML by default and for */*, JSON and Markdown on request, with Vary: Accept', async () => {
  for (const accept of [undefined, '*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']) {
    const r = await get(site.url, '/the-slow-web', { headers: accept ? { accept } : {} });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/html/, String(accept));
    assert.equal(vary(r.headers), 'Accept, Accept-Encoding');
  }
  const json = await get(site.url, '/the-slow-web', { headers: JSON_ACCEPT });
  assert.match(json.headers.get('content-type')!, /^application\/json/);
  assert.equal(vary(json.headers), 'Accept, Accept-Encoding');
  assert.equal(json.text, (await get(site.url, '/api/posts/the-slow-web')).text, 'same envelope as the API');
  const md = await get(site.url, '/the-slow-web', { headers: MD_ACCEPT });
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.equal(vary(md.headers), 'Accept, Accept-Encoding');
  assert.match(md.text, /^---\n[\s\S]*\n---\n\n# The Slow Web\n/);
});

test('quality values are honoured; a specific type beats a wildcard at equal quality', async () => {
  const a = await get(site.url, '/the-slow-web', { headers: { accept: 'text/html;q=0.5, application/json' } });
  assert.match(a.headers.get('content-type')!, /json/);
  const b = await get(site.url, '/the-slow-web', { headers: { accept: 'application/json;q=0.2, text/markdown;q=0.9' } });
  assert.match(b.headers.get('content-type')!, /markdown/);
  const c = await get(site.url, '/the-slow-web', { headers: { accept: 'application/json, text/plain, */*' } });
  assert.match(c.headers.get('content-type')!, /json/);
});

test('translated post URLs negotiate the API envelope for their language; .md twins are byte-identical', async () => {
  const cp = await corpus('content');
  for (const p of cp.posts) {
    for (const t of p.translations) {
      if (cp.stateOf(p.slug, t.lang) !== 'available') continue;
      const json = await get(site.url, `/${t.lang}/${p.slug}`, { headers: JSON_ACCEPT });
      assert.equal(json.status, 200);
      assert.equal(json.text, (await get(site.url, `/api/posts/${p.slug}?lang=${t.lang}`)).text);
      const md = await get(site.url, `/${t.lang}/${p.slug}`, { headers: MD_ACCEPT });
      const twin = await get(site.url, `/${t.lang}/${p.slug}.md`);
      assert.equal(twin.status, 200);
      assert.equal(twin.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.equal(md.text, twin.text, `${t.lang}/${p.slug}.md`);
      assert.ok(md.text.includes(`# ${t.title}`));
    }
  }
  const en = await get(site.url, '/the-slow-web', { headers: MD_ACCEPT });
  assert.equal(en.text, (await get(site.url, '/the-slow-web.md')).text);
});

test('an unavailable translation negotiates the API 404 body, a Markdown 404 text, and an HTML page linking to English', async () => {
  const cp = await corpus('content');
  for (const state of ['stale', 'missing']) {
    const { slug, lang } = cp.find(state);
    const json = await get(site.url, `/${lang}/${slug}`, { headers: JSON_ACCEPT });
    assert.equal(json.status, 404);
    assert.equal(json.text, (await get(site.url, `/api/posts/${slug}?lang=${lang}`)).text);
    assert.equal(json.headers.get('vary'), 'Accept');
    const md = await get(site.url, `/${lang}/${slug}`, { headers: MD_ACCEPT });
    assert.equal(md.status, 404);
    assert.match(md.headers.get('content-type')!, /^text\/markdown/);
    assert.ok(md.text.includes(`/${slug}`));
    const html = await get(site.url, `/${lang}/${slug}`);
    assert.equal(html.status, 404);
    assert.match(html.headers.get('content-type')!, /^text\/html/);
    assert.match(html.text, /data-page="translation-unavailable"/);
    assert.ok(html.text.includes(`href="/${slug}"`), 'links to the English post');
    assert.match(html.headers.get('vary')!, /^Accept(, Accept-Encoding)?$/);
    assert.equal((await get(site.url, `/${lang}/${slug}.md`)).status, 404);
  }
});

test('the sandbox negotiates too', async () => {
  const r = await get(site.url, '/sandbox/first-steps', { headers: JSON_ACCEPT });
  assert.equal(r.status, 200);
  assert.equal(r.text, (await get(site.url, '/sandbox/api/posts/first-steps')).text);
  const html = await get(site.url, '/sandbox/fr/first-steps');
  assert.equal(html.status, 200);
  assert.match(html.text, /lang="fr"/);
  const stale = await get(site.url, '/sandbox/es/first-steps');
  assert.equal(stale.status, 404);
  assert.ok(stale.text.includes('href="/sandbox/first-steps"'));
});
